#!/usr/bin/env bash
# Builds the top-level Dockerfile for linux/amd64 and linux/arm64 with rootful podman, into one local
# manifest list, and runs the arm64 image under emulation (Debian's qemu-user-static, binfmt.sh):
#   1. base images   both architectures' stand-ins (make-base-images.sh, ARCHES="amd64 arm64")
#   2. build         one build per platform, tagged IMAGE-amd64 and IMAGE-arm64; the build stage runs
#                    natively for both (FROM --platform=$BUILDPLATFORM, given to podman 4.3 as a build
#                    argument: it does not set it), so for arm64 only the runtime stage is emulated
#   3. manifest      IMAGE, a manifest list of the two; `podman manifest inspect` must show both
#   4. arm64 image   uname -m is aarch64, node's process.arch arm64; labels (version, revision, user);
#                    `--version`, `/opt/pypy/bin/wstest --autobahnversion`; whether bufferutil's addon
#                    or its JavaScript fallback loads
#   5. arm64 run     the container smoke's embedded-default check (groups 1-4, 7 and 10, 82 cases)
#                    in the arm64 image: exit 0, every case passed, reports in /reports, timed
# Run as root from anywhere; the host needs Node (for check.mjs). IMAGE is WSGATE_MULTI_IMAGE
# (default localhost/wsgate:multi). Every container is removed on every path out; the images stay.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/.ci/container
cd "$ROOT"
# shellcheck source-path=SCRIPTDIR source=podman-env.sh
. "$HERE/podman-env.sh"

IMAGE=${WSGATE_MULTI_IMAGE:-localhost/wsgate:multi}
PLATFORMS=(amd64 arm64)
NATIVE=$(dpkg --print-architecture)
PREFIX=wsgate-multiarch-$$
RUN_CASES=('1.*' '2.*' '3.*' '4.*' '7.*' '10.*')
RUN_TOTAL=82   # as in smoke.sh
REVISION=${WSGATE_REVISION:-$(git -c safe.directory="$ROOT" rev-parse HEAD 2>/dev/null || true)}
[ -n "$REVISION" ] || { echo "multiarch: $ROOT is not a git checkout: set WSGATE_REVISION to the commit being built" >&2; exit 2; }
work=$(mktemp -d)

cleanup() {
  local ids
  ids=$(podman ps -aq --filter "name=$PREFIX-" 2>/dev/null || true)
  if [ -n "$ids" ]; then
    # shellcheck disable=SC2086
    podman rm -f -t 0 $ids >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
  podman_env_cleanup
}
trap cleanup EXIT
SCRIPT_NAME='multiarch'
# shellcheck source-path=SCRIPTDIR source=steps.sh
. "$HERE/steps.sh"
version=$(node -p 'require("./package.json").version')
declare -A built

step 'base images for linux/amd64 and linux/arm64'
ARCHES="${PLATFORMS[*]}" bash "$HERE/make-base-images.sh"

for arch in "${PLATFORMS[@]}"; do
  step "build $IMAGE-$arch (--platform linux/$arch)"
  started=$SECONDS
  # --label as well as the build argument: podman 4.3 caches a LABEL by its unexpanded text (smoke.sh).
  if ! podman build --network=host --pull=never --platform "linux/$arch" --build-arg "BUILDPLATFORM=linux/$NATIVE" \
    --build-arg BASE_IMAGE=node:24-bookworm-slim --build-arg "WSGATE_REVISION=$REVISION" \
    --label "org.opencontainers.image.revision=$REVISION" -t "$IMAGE-$arch" . >"$work/build-$arch.log" 2>&1; then
    cat "$work/build-$arch.log"
    fail "podman build --platform linux/$arch"
  fi
  built[$arch]=$((SECONDS - started))
  got=$(podman image inspect --format '{{.Os}}/{{.Architecture}}' "$IMAGE-$arch")
  [ "$got" = "linux/$arch" ] || fail "$IMAGE-$arch is $got, expected linux/$arch"
  echo "built in ${built[$arch]} s: $got, $(podman image inspect --format '{{.Size}}' "$IMAGE-$arch" | awk '{printf "%.0f MB", $1 / 1e6}')"
  # The build stage again (all cached): its Node is the machine's own, whatever the target.
  stage=$(podman build --quiet --network=host --pull=never --platform "linux/$arch" --build-arg "BUILDPLATFORM=linux/$NATIVE" \
    --build-arg BASE_IMAGE=node:24-bookworm-slim --build-arg "WSGATE_REVISION=$REVISION" --target build .)
  stage_arch=$(podman run --rm --network=none --pull=never --platform "linux/$arch" --entrypoint node "$stage" -p process.arch 2>/dev/null)
  echo "the build stage ran as $stage_arch (the machine: $NATIVE)"
done

step "manifest list $IMAGE"
podman manifest rm "$IMAGE" >/dev/null 2>&1 || podman untag "$IMAGE" "$IMAGE" >/dev/null 2>&1 || true
podman manifest create "$IMAGE" >/dev/null
for arch in "${PLATFORMS[@]}"; do podman manifest add "$IMAGE" "containers-storage:$IMAGE-$arch" >/dev/null; done
podman manifest inspect "$IMAGE" | tee "$work/manifest.json"
listed=$(node -e '
  const list = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  console.log(list.manifests.map((m) => m.platform.os + "/" + m.platform.architecture).sort().join(" "));
' "$work/manifest.json")
[ "$listed" = "linux/amd64 linux/arm64" ] || fail "the manifest list holds '$listed', expected linux/amd64 linux/arm64"
echo "$IMAGE lists: $listed"

step "arm64 image: architecture, Node, labels, --version, bufferutil"
ARM=(--rm --network=none --pull=never --platform linux/arm64)
# The entrypoint's node and the container's uname, under emulation.
arch_line=$(podman run "${ARM[@]}" --entrypoint sh "$IMAGE-arm64" -c 'echo "$(uname -m) $(node -p process.arch) $(node --version)"')
echo "uname -m, process.arch, node: $arch_line"
case "$arch_line" in
  'aarch64 arm64 v'*) ;;
  *) fail "the arm64 image reports '$arch_line', expected aarch64 and arm64" ;;
esac
meta=$(podman image inspect --format '{{index .Config.Labels "org.opencontainers.image.version"}}|{{index .Config.Labels "org.opencontainers.image.revision"}}|{{.Config.User}}' "$IMAGE-arm64")
echo "$meta"
[ "$meta" = "$version|$REVISION|root" ] || fail "arm64 image metadata (expected version $version, revision $REVISION, user root)"
got=$(podman run "${ARM[@]}" "$IMAGE-arm64" --version)
[ "$got" = "$version" ] || fail "wsgate --version in the arm64 image says '$got', package.json $version"
# The drop-in's door: wstest through the dispatcher, by the original's path.
got=$(podman run "${ARM[@]}" "$IMAGE-arm64" /opt/pypy/bin/wstest --autobahnversion)
[ "$got" = "wsgate $version (wstest: Autobahn|Testsuite's command line)" ] || fail "wstest --autobahnversion in the arm64 image says '$got'"
echo "wstest: $got"
# bufferutil (optional) ships prebuilt addons for some platforms; elsewhere it loads its JavaScript
# fallback, and so does wsgate's masker (src/protocol/frame-writer.ts). Either way wsgate works.
for arch in "${PLATFORMS[@]}"; do
  echo "bufferutil in the $arch image: $(podman run --rm --network=none --pull=never --platform "linux/$arch" --entrypoint node "$IMAGE-$arch" -e '
    require("/opt/wsgate/node_modules/bufferutil");
    const fallback = Object.keys(require.cache).some((k) => k.endsWith("/bufferutil/fallback.js"));
    console.log(fallback ? "JavaScript fallback (no prebuilt addon for " + process.platform + "-" + process.arch + ")" : "native addon");
  ')"
done

step "arm64 run under emulation: the embedded default client on ${RUN_CASES[*]} (exit 0, reports in /reports)"
mkdir -p "$work/run"
chown 1000:1000 "$work/run"
started=$SECONDS
status=0
podman run "${ARM[@]}" --name "$PREFIX-run" -v "$work/run:/reports" "$IMAGE-arm64" \
  run --cases "${RUN_CASES[@]}" | tail -n 4 || status=$?
run_seconds=$((SECONDS - started))
[ "$status" = 0 ] || fail "run in the arm64 image exited with $status, expected 0"
check run-reports "$work/run/clients" "$RUN_TOTAL" "$RUN_TOTAL" 0
check owner "$work/run/clients" 1000
echo "arm64 run: exit 0, $RUN_TOTAL/$RUN_TOTAL passed in $run_seconds s under emulation"

echo
echo "multiarch: all checks passed in $SECONDS s ($IMAGE: linux/amd64 built in ${built[amd64]} s, linux/arm64 built in ${built[arm64]} s; arm64 run $run_seconds s)"
