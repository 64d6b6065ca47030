#!/usr/bin/env bash
# Builds the top-level Dockerfile with rootful podman (or Docker: below) and runs the image the ways
# the README shows:
#   1. lint          dockerfile-utils has nothing to say about the Dockerfile
#   2. build         the real Dockerfile, from the local base images (make-base-images.sh)
#   3. metadata      labels (version, revision = the commit built), user, volumes, port; `--version`
#                    through the entrypoint
#   4. run           `run` on the embedded default client inside the container: exit 0, reports in a
#                    mounted directory, written by the container's user (uid 1000)
#   5. failing run   a client that never connects (host network, another uid): exit 1 passes
#   5b. server role  `run --role server` (the bundled ws server in the container) and `run --server-url`
#   5c. TLS          `run --tls`, `run --role server --tls` (ca.pem in /reports, no key), `serve --tls` + a host client
#                    against a ws server on the host: exit 0, reports in /reports/servers
#                    through tini, reports still written
#   6. serve         `serve` in a detached container (host network, 127.0.0.1 only), driven by the
#                    bundled client on the host; SIGTERM (`podman stop`) ends it with 0, promptly
#   7. run + SIGTERM `podman stop` during a run: 143 passes through, the reports say interrupted
#   8. drop-in       Autobahn's `docker run -v …:/config -v …:/reports -p 9001:9001 IMAGE` line, with a
#                    fuzzingserver.json in /config
# The `run` checks use groups 1-4, 7 and 10 (82 cases, a few seconds): the whole default catalogue
# takes about 13 minutes on 2 cores, too long for every CI run, and exercises nothing more of the image.
# Run as root from anywhere; the host needs Node and the repository's node_modules and dist (npm ci
# and npm test, as .ci/run does first). Every container is removed on every path out.
#
# Where no registry is reachable (these machines, .ci/run) the defaults apply: podman, and local
# stand-ins for the base image (make-base-images.sh), never pulled. Elsewhere, e.g. a GitHub-hosted
# runner with a Docker engine:
#   WSGATE_ENGINE=docker WSGATE_BASE_IMAGES=registry bash .ci/container/smoke.sh     (as root)
#   WSGATE_ENGINE        podman (default) or docker: the CLI that builds and runs
#   WSGATE_BASE_IMAGES   local (default): make the stand-ins, build from them with --pull=never;
#                        registry: build from the Dockerfile's pinned base image, pulled by the engine
#   WSGATE_REVISION      the commit the revision label must name (default: git rev-parse HEAD)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/.ci/container
cd "$ROOT"
ENGINE=${WSGATE_ENGINE:-podman}
BASE_IMAGES=${WSGATE_BASE_IMAGES:-local}
case "$ENGINE/$BASE_IMAGES" in
  podman/local | podman/registry | docker/registry) ;;
  docker/local)
    echo 'container smoke: WSGATE_ENGINE=docker needs WSGATE_BASE_IMAGES=registry (the local stand-ins are podman images)' >&2
    exit 2 ;;
  *)
    echo "container smoke: WSGATE_ENGINE is podman or docker and WSGATE_BASE_IMAGES local or registry, not '$ENGINE' and '$BASE_IMAGES'" >&2
    exit 2 ;;
esac
if [ "$ENGINE" = podman ]; then
  # shellcheck source-path=SCRIPTDIR source=podman-env.sh
  . "$HERE/podman-env.sh"
else
  [ "$(id -u)" = 0 ] || { echo 'container smoke: needs root (report directories are handed to the container users)' >&2; exit 2; }
  command -v docker >/dev/null || { echo 'container smoke: WSGATE_ENGINE=docker but no docker command' >&2; exit 2; }
  podman_env_cleanup() { :; }
fi
# The commit the image is built from (its revision label). git refuses a checkout owned by another
# user (a runner's, under sudo) unless told it is safe.
REVISION=${WSGATE_REVISION:-$(git -c safe.directory="$ROOT" rev-parse HEAD 2>/dev/null || true)}
if [ -z "$REVISION" ]; then
  echo "container smoke: $ROOT is not a git checkout: set WSGATE_REVISION to the commit being built" >&2
  exit 2
fi

IMAGE=${WSGATE_IMAGE:-localhost/wsgate:ci}
PREFIX=wsgate-smoke-$$
RUN_CASES=('1.*' '2.*' '3.*' '4.*' '7.*' '10.*')
RUN_TOTAL=82   # 16 + 11 + 7 + 10 + 37 + 1
work=$(mktemp -d)
# No pulls on a run: the image is local. On the host network WSGATE_LISTEN_HOST is pinned to loopback:
# the image's 0.0.0.0 would be every interface of the machine. With --network=none the container has
# its own loopback only, and the image's defaults (url ws://127.0.0.1:9001) are used unchanged.
PULL=()
RM_NOW=(-f)   # docker rm -f kills at once; podman's waits for the stop timeout unless -t 0
BUILD=(build --build-arg "WSGATE_REVISION=$REVISION")
if [ "$ENGINE" = podman ]; then
  PULL=(--pull=never)
  RM_NOW=(-f -t 0)
  # The build's network is the host's (podman's own needs what these machines lack). podman 4.3
  # (buildah 1.28) caches a LABEL by its unexpanded text, so a cached build keeps the revision of the
  # build before: the commit's revision is set on the image as well.
  BUILD+=(--network=host --label "org.opencontainers.image.revision=$REVISION")
  [ "$BASE_IMAGES" = registry ] || BUILD+=(--pull=never)
fi
# The local stand-in's tag (make-base-images.sh), or the Dockerfile's pinned default.
[ "$BASE_IMAGES" = registry ] || BUILD+=(--build-arg BASE_IMAGE=node:24-bookworm-slim)
NO_NET=("${PULL[@]}" --network=none)
HOST_NET=("${PULL[@]}" --network=host -e WSGATE_LISTEN_HOST=127.0.0.1)

cleanup() {
  local ids
  ids=$("$ENGINE" ps -aq --filter "name=$PREFIX-" 2>/dev/null || true)
  if [ -n "$ids" ]; then
    # shellcheck disable=SC2086
    "$ENGINE" rm "${RM_NOW[@]}" $ids >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
  podman_env_cleanup
}
trap cleanup EXIT
SCRIPT_NAME='container smoke'
# shellcheck source-path=SCRIPTDIR source=steps.sh
. "$HERE/steps.sh"
# A report directory the container's user may write into (a bind mount keeps the host's owner).
reports_dir() {
  mkdir -p "$work/$1"
  chown "${2:-1000}:${2:-1000}" "$work/$1"
  echo "$work/$1"
}
# Stops a detached container with SIGTERM and prints "<exit status> <seconds>"; the engine sends
# SIGKILL after 10 s, which shows as 137.
stop_container() {
  local started=$SECONDS
  "$ENGINE" stop -t 10 "$1" >/dev/null
  echo "$("$ENGINE" inspect --format '{{.State.ExitCode}}' "$1") $((SECONDS - started))"
}
# The command lines of a running container's processes, one a line, read from /proc inside it (the
# image has no ps; `top` differs between the engines).
container_commands() {
  # shellcheck disable=SC2016
  "$ENGINE" exec "$1" sh -c 'for f in /proc/[0-9]*/cmdline; do tr "\0" " " <"$f" 2>/dev/null; echo; done'
}
if [ ! -f dist/src/bundled/reference-client.js ] || [ ! -d node_modules/ws ]; then
  fail 'run npm ci && npm run build first (the serve check drives the container with dist/src/bundled/reference-client.js)'
fi
version=$(node -p 'require("./package.json").version')

step 'lint: dockerfile-utils (any finding fails)'
lint=$(npx --yes dockerfile-utils@0.16.3 lint Dockerfile) || fail "dockerfile-utils: $lint"
[ -z "$lint" ] || fail "dockerfile-utils: $lint"
echo 'no findings'

if [ "$BASE_IMAGES" = local ]; then
  step 'base images'
  bash "$HERE/make-base-images.sh"
fi

step "build $IMAGE ($ENGINE, base image: $BASE_IMAGES, revision $REVISION)"
started=$SECONDS
# BuildKit's plain progress keeps the RUN output (the protocol tests' counts) in the log (an
# environment variable: the legacy builder has no --progress flag).
if ! BUILDKIT_PROGRESS=plain "$ENGINE" "${BUILD[@]}" -t "$IMAGE" . >"$work/build.log" 2>&1; then
  cat "$work/build.log"
  fail "$ENGINE build"
fi
tests=$(grep -oE '(# |ℹ )(tests|pass|fail) [0-9]+$' "$work/build.log" | tr '\n' ' ' || true)
echo "protocol tests in the build stage: ${tests:-cached}; built in $((SECONDS - started)) s, $("$ENGINE" image inspect --format '{{.Size}}' "$IMAGE" | awk '{printf "%.0f MB", $1 / 1e6}')"

step 'metadata: labels, user, volumes, port, entrypoint'
meta=$("$ENGINE" image inspect --format '{{index .Config.Labels "org.opencontainers.image.version"}}|{{index .Config.Labels "org.opencontainers.image.revision"}}|{{index .Config.Labels "org.opencontainers.image.title"}}|{{.Config.User}}|{{json .Config.Volumes}}|{{json .Config.ExposedPorts}}' "$IMAGE")
echo "$meta"
[ "$meta" = "$version|$REVISION|wsgate|node|{\"/config\":{},\"/reports\":{}}|{\"9001/tcp\":{}}" ] ||
  fail "image metadata (expected version $version from package.json, revision $REVISION, user node, /config and /reports, 9001/tcp)"
got=$("$ENGINE" run --rm "${NO_NET[@]}" "$IMAGE" --version)
[ "$got" = "$version" ] || fail "wsgate --version in the image says '$got', package.json $version"

step "run: the embedded default client on ${RUN_CASES[*]} (exit 0, reports in /reports)"
dir=$(reports_dir run)
# The README's line: the server and the bundled client meet on the container's own loopback.
status=0
"$ENGINE" run --rm --name "$PREFIX-run" "${NO_NET[@]}" -v "$dir:/reports" "$IMAGE" \
  run --cases "${RUN_CASES[@]}" | tail -n 4 || status=$?
[ "$status" = 0 ] || fail "run exited with $status, expected 0"
# No --outdir given: ./reports/clients from the working directory / lands in the volume.
check run-reports "$dir/clients" "$RUN_TOTAL" "$RUN_TOTAL" 0
check owner "$dir/clients" 1000

step 'failing run: a client that never connects (exit 1; host network, as another user)'
dir=$(reports_dir fail 4321)
status=0
# The README's --client line; the client is /bin/false, which exits before it connects.
"$ENGINE" run --rm --name "$PREFIX-fail" "${HOST_NET[@]}" --user 4321:4321 -v "$dir:/reports" "$IMAGE" \
  run --url ws://127.0.0.1:0 --client false --agent never-connects --cases '1.1.1' '1.1.2' | tail -n 4 || status=$?
[ "$status" = 1 ] || fail "a failing client gave exit $status, expected 1"
check run-reports "$dir/clients" 2 0 2

step "server role: the bundled ws server inside the container, then a server on the host by --server-url"
dir=$(reports_dir server-role)
status=0
"$ENGINE" run --rm --name "$PREFIX-srole" "${NO_NET[@]}" -v "$dir:/reports" "$IMAGE" \
  run --role server --cases "${RUN_CASES[@]}" | tail -n 4 || status=$?
[ "$status" = 0 ] || fail "run --role server exited with $status, expected 0"
check run-reports "$dir/servers" "$RUN_TOTAL" "$RUN_TOTAL" 0
dir=$(reports_dir server-url)
port=$(node "$HERE/check.mjs" free-port) || fail 'no free port'
node dist/src/bundled/reference-server.js "$port" &
host_server=$!
status=0
"$ENGINE" run --rm --name "$PREFIX-surl" "${HOST_NET[@]}" -v "$dir:/reports" "$IMAGE" \
  run --server-url "ws://127.0.0.1:$port" --agent host-server --cases "${RUN_CASES[@]}" | tail -n 4 || status=$?
kill "$host_server" 2>/dev/null || true
[ "$status" = 0 ] || fail "run --server-url exited with $status, expected 0"
check run-reports "$dir/servers" "$RUN_TOTAL" "$RUN_TOTAL" 0

step 'TLS: run --tls and run --role server --tls in the container (the CA lands in /reports, no key); serve --tls for a host client'
dir=$(reports_dir tls)
status=0
"$ENGINE" run --rm --name "$PREFIX-tls" "${NO_NET[@]}" -v "$dir:/reports" "$IMAGE" \
  run --tls --cases "${RUN_CASES[@]}" | tail -n 4 || status=$?
[ "$status" = 0 ] || fail "run --tls exited with $status, expected 0"
check run-reports "$dir/clients" "$RUN_TOTAL" "$RUN_TOTAL" 0
check tls-reports "$dir/clients"
status=0
"$ENGINE" run --rm --name "$PREFIX-stls" "${NO_NET[@]}" -v "$dir:/reports" "$IMAGE" \
  run --role server --tls --cases "${RUN_CASES[@]}" | tail -n 4 || status=$?
[ "$status" = 0 ] || fail "run --role server --tls exited with $status, expected 0"
check tls-reports "$dir/servers"
port=$(node "$HERE/check.mjs" free-port) || fail 'no free port'
"$ENGINE" run -d --name "$PREFIX-serve-tls" "${HOST_NET[@]}" -v "$dir:/reports" "$IMAGE" \
  serve --tls --url "wss://127.0.0.1:$port" --outdir /reports/served --cases "${RUN_CASES[@]}" >/dev/null
check wait-port "$port" 30
NODE_EXTRA_CA_CERTS="$dir/served/ca.pem" timeout 120 node dist/src/bundled/reference-client.js "wss://127.0.0.1:$port" host-tls-client || fail 'the host client did not finish over wss://'
check serve-reports "$dir/served" host-tls-client "$RUN_TOTAL"
stop_container "$PREFIX-serve-tls" >/dev/null

step 'serve: the fuzzing server in a container, a client on the host (127.0.0.1 only)'
dir=$(reports_dir serve)
port=$(node "$HERE/check.mjs" free-port) || fail 'no free port'
"$ENGINE" run -d --name "$PREFIX-serve" "${HOST_NET[@]}" -v "$dir:/reports" "$IMAGE" \
  serve --url "ws://127.0.0.1:$port" --cases "${RUN_CASES[@]}" >/dev/null
check wait-port "$port" 30
# The bundled client, given a base URL, loops over /getCaseCount, every /runCase and /updateReports.
timeout 120 node dist/src/bundled/reference-client.js "ws://127.0.0.1:$port" host-client || fail 'the host client did not finish'
check serve-reports "$dir/clients" host-client "$RUN_TOTAL"
read -r status seconds < <(stop_container "$PREFIX-serve")
echo "serve stopped by SIGTERM: exit $status after ${seconds} s"
[ "$status" = 0 ] || { "$ENGINE" logs "$PREFIX-serve" | tail -n 20; fail "serve exited with $status on SIGTERM, expected 0"; }
[ "$seconds" -lt 5 ] || fail "serve took $seconds s to stop on SIGTERM"

step "run + SIGTERM: a client that hangs, then $ENGINE stop (exit 143)"
dir=$(reports_dir term)
"$ENGINE" run -d --name "$PREFIX-term" "${NO_NET[@]}" -v "$dir:/reports" "$IMAGE" \
  run --client 'sleep 300' --agent hangs --cases '1.1.1' '1.1.2' >/dev/null
# Wait until wsgate has started the client: then the signal has a process group to reach. (The
# client is the process whose whole command line is `sleep 300`; wsgate's own contains it too.)
client_started() { container_commands "$PREFIX-term" 2>/dev/null | grep -E '^sleep 300 *$' >/dev/null; }
deadline=$((SECONDS + 30))
until client_started; do
  [ "$SECONDS" -lt "$deadline" ] || fail 'the client did not start in the container within 30 s'
  sleep 0.2
done
read -r status seconds < <(stop_container "$PREFIX-term")
echo "run stopped by SIGTERM: exit $status after ${seconds} s"
[ "$status" = 143 ] || { "$ENGINE" logs "$PREFIX-term" | tail -n 20; fail "run exited with $status on SIGTERM, expected 143"; }
[ "$seconds" -lt 5 ] || fail "run took $seconds s to stop on SIGTERM"
check run-reports "$dir/clients" 2 0 0 interrupted

step "drop-in: docker run -v config:/config -v reports:/reports -p 9001:9001 IMAGE"
dir=$(reports_dir dropin)
mkdir -p "$work/config"
# Autobahn's own example spec, reduced to a few cases; outdir is relative to the working dir.
cat >"$work/config/fuzzingserver.json" <<'EOF'
{
"url": "ws://127.0.0.1:9001",
"outdir": "./reports/clients",
"cases": ["1.1.*", "2.1"],
"exclude-cases": [],
"exclude-agent-cases": {}
}
EOF
port=$(node "$HERE/check.mjs" free-port) || fail 'no free port'
# The image's own CMD and WSGATE_LISTEN_HOST (0.0.0.0): the port is published on the host's
# loopback only.
"$ENGINE" run -d --name "$PREFIX-dropin" "${PULL[@]}" -v "$work/config:/config:ro" -v "$dir:/reports" \
  -p "127.0.0.1:$port:9001" "$IMAGE" >/dev/null
check wait-port "$port" 30
timeout 60 node dist/src/bundled/reference-client.js "ws://127.0.0.1:$port" dropin-client || fail 'the drop-in client did not finish'
check serve-reports "$dir/clients" dropin-client 9
read -r status seconds < <(stop_container "$PREFIX-dropin")
echo "drop-in server stopped by SIGTERM: exit $status after ${seconds} s"
[ "$status" = 0 ] || { "$ENGINE" logs "$PREFIX-dropin" | tail -n 20; fail "the drop-in server exited with $status, expected 0"; }

echo
echo "container smoke: all checks passed in $SECONDS s ($IMAGE, wsgate $version, $ENGINE)"
