#!/usr/bin/env bash
# Makes local stand-ins for the base images the Dockerfile names, because CI machines reach no
# container registry (only Debian's mirror and the npm registry, as this machine's apt and npm name them):
#   docker.io/library/debian:bookworm-slim   a minbase Debian 12 made by mmdebstrap from the apt mirror
#   docker.io/library/node:24-bookworm-slim  that, plus Node 24 (the npm registry's node-linux-<arch>
#                                            package, the official Node.js build), npm, and a
#                                            `node` user with uid 1000, as the official image has
# Existing images are kept; REBUILD=1 makes them again. ~1 minute on 2 cores.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=podman-env.sh
. "$HERE/podman-env.sh"

NODE_MAJOR=${NODE_MAJOR:-24}
NPM_MAJOR=${NPM_MAJOR:-11}   # the npm major that Node 24 ships with
DEBIAN_TAG=docker.io/library/debian:bookworm-slim
NODE_TAG=docker.io/library/node:${NODE_MAJOR}-bookworm-slim

work=$(mktemp -d)
cleanup() { rm -rf "$work"; podman_env_cleanup; }
trap cleanup EXIT

if [ "${REBUILD:-}" = 1 ]; then podman rmi -f "$NODE_TAG" "$DEBIAN_TAG" >/dev/null 2>&1 || true; fi

# The mirrors this machine's apt uses, unless given; none configured stops here with one line.
if [ -z "${MIRROR:-}" ]; then
  mirrors=$("$HERE/apt-mirrors.sh") || exit 2
  MIRROR=$(sed -n 's/^MIRROR=//p' <<<"$mirrors")
  SECURITY_MIRROR=${SECURITY_MIRROR:-$(sed -n 's/^SECURITY_MIRROR=//p' <<<"$mirrors")}
fi
sources=("deb $MIRROR bookworm main" "deb $MIRROR bookworm-updates main")
[ -z "${SECURITY_MIRROR:-}" ] || sources+=("deb $SECURITY_MIRROR bookworm-security main")

if ! podman image exists "$DEBIAN_TAG"; then
  echo "--- $DEBIAN_TAG from $MIRROR (mmdebstrap)"
  # Slim as the official image is: no manual pages, translations or docs (copyright files kept).
  # dpkg's fsyncs are skipped: the tree becomes a tarball at once.
  mmdebstrap --quiet --variant=minbase --dpkgopt=force-unsafe-io \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    bookworm "$work/debian.tar" "${sources[@]}"
  podman import --quiet --change 'CMD ["bash"]' "$work/debian.tar" "$DEBIAN_TAG" >/dev/null
  rm -f "$work/debian.tar"
fi

if ! podman image exists "$NODE_TAG"; then
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64) arch=arm64 ;;
    *) echo "make-base-images: no Node package for $(uname -m)" >&2; exit 2 ;;
  esac
  echo "--- $NODE_TAG (node-linux-$arch@$NODE_MAJOR, npm@$NPM_MAJOR from the npm registry)"
  ctx=$work/node
  mkdir -p "$ctx"
  # npm pack checks each tarball against the registry's integrity hash.
  (cd "$ctx" && npm pack --silent "node-linux-$arch@$NODE_MAJOR" "npm@$NPM_MAJOR" >/dev/null)
  mkdir "$ctx/node" "$ctx/npm"
  tar -xzf "$ctx"/node-linux-"$arch"-*.tgz -C "$ctx/node" --strip-components=1
  tar -xzf "$ctx"/npm-*.tgz -C "$ctx/npm" --strip-components=1
  # The C headers (include/, 67 MB) are left out: nothing here builds native addons.
  rm -rf "$ctx"/*.tgz "$ctx/node/include"
  node_version=$("$ctx/node/bin/node" -p process.versions.node)
  # The npm registry may only be reachable through a TLS-intercepting proxy whose CA this machine
  # trusts in /usr/local/share/ca-certificates: Node inside the image trusts it too (on top of its
  # own CA list, as in the official image, which has no ca-certificates package).
  extra_ca=
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    cat /usr/local/share/ca-certificates/*.crt >"$ctx/extra-ca.pem"
    extra_ca='COPY extra-ca.pem /usr/local/share/ca-certificates/extra-ca.pem
ENV NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/extra-ca.pem'
  fi
  cat >"$ctx/Containerfile" <<EOC
FROM $DEBIAN_TAG
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
  podman build --quiet --network=host --pull=never -t "$NODE_TAG" "$ctx" >/dev/null
fi
echo "base images ready: $(podman run --rm --network=none --pull=never "$NODE_TAG" \
  sh -c 'echo "node $(node --version), npm $(npm --version), user node = uid $(id -u node)"')"
