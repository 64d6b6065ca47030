#!/usr/bin/env bash
# Builds the top-level Dockerfile with rootful podman (or Docker: below) and runs the image the ways
# the README and docs/docker.md show:
#   1. lint          dockerfile-utils has nothing to say about the Dockerfile
#   2. build         the real Dockerfile, from the local base images (make-base-images.sh)
#   3. metadata      labels (version, revision = the commit built), user root, working directory /,
#                    volumes, port, entrypoint (tini + the dispatcher) and the original's CMD;
#                    `--version` through the entrypoint
#   4. run           README.md's `docker run … run --cases …` line from a directory of uid 1001, mode 755
#                    (a runner's workspace): exit 0, the reports written there by, and owned by, uid 1001
#   5. broken client a client command that never connects (host network, another uid): exit 2, one
#                    line, no report written
#   5a. failing run  a client that connects and hangs up (host network, another uid): exit 1 passes
#   5b. server role  `run --role server` (the bundled ws server in the container) and `run --server-url`
#                    against a ws server on the host: exit 0, reports in /reports/servers
#   5c. TLS          `run --tls`, `run --role server --tls` (ca.pem in /reports, no key), `serve --tls` + a host client
#   5d. HTTP/2       `run --http2` (h2c) and `run --role server --http2 --tls` (ALPN h2): every case over h2
#   6. serve         `serve` in a detached container (host network, 127.0.0.1 only), driven by the
#                    bundled client on the host; SIGTERM (`podman stop`) ends it with 0, promptly
#   7. run + SIGTERM `podman stop` during a run: 143 passes through, the reports say interrupted
# The drop-in for crossbario/autobahn-testsuite (`wstest`, ../../docs/docker.md), each shaped on a
# real project's CI command line where one exists (named in the step):
#   8. default CMD   `docker run -v config:/config:ro -v reports:/reports -p 9001:9001 IMAGE`, /reports
#                    owned by uid 1001 mode 755 (a runner's workspace): a host client finishes, root
#                    wrote index.json there, owned by uid 1001; the web port's /cwd/reports/clients/index.json
#   9. fuzzingclient `wstest -m fuzzingclient -s autobahn/fuzzingclient.json` from / (relative spec and
#                    outdir) against a server started right before with no wait: exit 0, reports; the
#                    same against a broken server: exit 0 still, `wsgate judge` on the host exits 1
#   10. sh -c, bash -c  two programs in one container (fuzzingserver + client, echoserver + fuzzingclient)
#   11. -u UID:GID   no passwd entry, no HOME: wstest runs and writes as that user
#   12. SIGTERM, start  `stop` on a detached fuzzingserver, with and without --init: under 2 s; from
#                    `run -d` to the port accepting: printed, under 3 s
#   13. restart      an empty /config first (exit 2, one line), then the spec and `restart`: it listens
#   14. -i, -it      stdin at EOF (-i </dev/null) and a TTY (-it under script(1)) keep it running
#   15. paths        /opt/pypy/bin/wstest, /usr/local/bin/wstest, `wstest` on PATH
#   16. FROM base    a two-line derived image (FROM IMAGE + CMD wstest -m echoserver) runs and echoes
#   17. echoserver   `wstest -m echoserver -w ws://0.0.0.0:PORT` answers an echo
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

DERIVED=$IMAGE-from   # the FROM step's image

cleanup() {
  local ids
  ids=$("$ENGINE" ps -aq --filter "name=$PREFIX-" 2>/dev/null || true)
  if [ -n "$ids" ]; then
    # -v: with the anonymous volumes the image's VOLUME gave them.
    # shellcheck disable=SC2086
    "$ENGINE" rm "${RM_NOW[@]}" -v $ids >/dev/null 2>&1 || true
  fi
  "$ENGINE" rmi "$DERIVED" >/dev/null 2>&1 || true
  rm -rf "$work"
  podman_env_cleanup
}
trap cleanup EXIT
SCRIPT_NAME='container smoke'
# shellcheck source-path=SCRIPTDIR source=steps.sh
. "$HERE/steps.sh"
# A report directory the container's user may write into (a bind mount keeps the host's owner), or,
# for the wstest steps, one that belongs to another uid with mode 755, as a CI runner's workspace
# does: only root in the container can write there.
reports_dir() {
  mkdir -p "$work/$1"
  chown "${2:-1000}:${2:-1000}" "$work/$1"
  chmod 755 "$work/$1"
  echo "$work/$1"
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# Stops a detached container with SIGTERM and prints "<exit status> <seconds>"; the engine sends
# SIGKILL after 10 s, which shows as 137.
stop_container() {
  local started=$SECONDS
  "$ENGINE" stop -t 10 "$1" >/dev/null
  echo "$("$ENGINE" inspect --format '{{.State.ExitCode}}' "$1") $((SECONDS - started))"
}
# The same in milliseconds: "<exit status> <ms>".
stop_container_ms() {
  local started
  started=$(now_ms)
  "$ENGINE" stop -t 10 "$1" >/dev/null
  echo "$("$ENGINE" inspect --format '{{.State.ExitCode}}' "$1") $(($(now_ms) - started))"
}
running() { [ "$("$ENGINE" inspect --format '{{.State.Running}}' "$1" 2>/dev/null)" = true ]; }
# A fuzzingserver spec: url port, outdir and the cases as JSON strings, e.g. spec_file F 9001 ./reports/clients '"1.1.*", "2.1"'.
spec_file() {
  mkdir -p "$(dirname "$1")"
  printf '{\n  "url": "ws://127.0.0.1:%s",\n  "outdir": "%s",\n  "cases": [%s],\n  "exclude-cases": [],\n  "exclude-agent-cases": {}\n}\n' "$2" "$3" "$4" >"$1"
}
DROPIN_CASES='"1.1.*", "2.1"'
DROPIN_TOTAL=9
RUN_CASES_JSON=$(printf '"%s", ' "${RUN_CASES[@]}")
RUN_CASES_JSON=${RUN_CASES_JSON%, }
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

step 'metadata: labels, user, working directory, volumes, port, entrypoint, CMD'
meta=$("$ENGINE" image inspect --format '{{index .Config.Labels "org.opencontainers.image.version"}}|{{index .Config.Labels "org.opencontainers.image.revision"}}|{{index .Config.Labels "org.opencontainers.image.title"}}|{{.Config.User}}|{{.Config.WorkingDir}}|{{json .Config.Volumes}}|{{json .Config.ExposedPorts}}' "$IMAGE")
echo "$meta"
[ "$meta" = "$version|$REVISION|wsgate|root|/|{\"/config\":{},\"/reports\":{}}|{\"9001/tcp\":{}}" ] ||
  fail "image metadata (expected version $version from package.json, revision $REVISION, user root, working directory /, /config and /reports, 9001/tcp)"
# The original image's default command behind tini and the dispatcher (docker/entrypoint.sh).
run_line=$("$ENGINE" image inspect --format '{{json .Config.Entrypoint}} {{json .Config.Cmd}}' "$IMAGE")
echo "$run_line"
[ "$run_line" = '["tini","-g","--","/opt/wsgate/entrypoint.sh"] ["wstest","--mode","fuzzingserver","--spec","/config/fuzzingserver.json"]' ] ||
  fail 'entrypoint and CMD (expected tini -g -- /opt/wsgate/entrypoint.sh, and the original CMD wstest --mode fuzzingserver --spec /config/fuzzingserver.json)'
got=$("$ENGINE" run --rm "${NO_NET[@]}" "$IMAGE" --version)
[ "$got" = "$version" ] || fail "wsgate --version in the image says '$got', package.json $version"
got=$("$ENGINE" run --rm "${NO_NET[@]}" "$IMAGE" wsgate --version)
[ "$got" = "$version" ] || fail "wsgate --version (named) in the image says '$got', package.json $version"

step "run: README.md's line, from a runner's workspace (uid 1001, mode 755): exit 0, reports owned by 1001"
# README.md's `docker run` as written, the image's name aside: the server and the bundled client meet
# on the container's own loopback. The workspace and the reports directory it makes belong to the
# runner's user (uid 1001 on GitHub's runners), mode 755, not to node (1000): the entrypoint drops to
# the owner of /reports, so the run writes there with no chown or -u. No --outdir given:
# ./reports/clients from the working directory / lands in the volume.
workspace=$(reports_dir workspace 1001)
readme_line=$(grep -m 1 -E '^docker run --rm -v "\$PWD/reports:/reports" [^ ]+ run ' README.md) ||
  fail "README.md has no line 'docker run --rm -v \"\$PWD/reports:/reports\" IMAGE run ...'"
readme_cases=()
eval "readme_cases=(${readme_line#* run --cases })"
[ "${#readme_cases[@]}" -gt 0 ] || fail "README.md's docker run line selects no cases: $readme_line"
echo "$readme_line"
status=0
(
  cd "$workspace"
  setpriv --reuid=1001 --regid=1001 --clear-groups mkdir -p reports
  "$ENGINE" run --rm --name "$PREFIX-run" "${NO_NET[@]}" -v "$PWD/reports:/reports" "$IMAGE" \
    run --cases "${readme_cases[@]}" | tail -n 4
) || status=$?
[ "$status" = 0 ] || fail "run exited with $status, expected 0"
readme_total=$(node dist/src/cli.js list --cases "${readme_cases[@]}" | grep -cE '^ *[0-9]+ +[0-9]+\.')
check run-reports "$workspace/reports/clients" "$readme_total" "$readme_total" 0
check owner "$workspace/reports" 1001
check owner "$workspace/reports/clients" 1001

step 'broken client command: a client that never connects (exit 2, one line, no report)'
dir=$(reports_dir broken 4321)
status=0
# The client is /bin/false: it exits before it connects, in the run's first two cases, so the run
# stops as a usage error (the command is wrong), not as a conformance failure.
out=$("$ENGINE" run --rm --name "$PREFIX-broken" "${HOST_NET[@]}" --user 4321:4321 -v "$dir:/reports" "$IMAGE" \
  run --url ws://127.0.0.1:0 --client false --agent never-connects --cases '1.1.1' '1.1.2' 2>&1) || status=$?
printf '%s\n' "$out" | tail -n 2
[ "$status" = 2 ] || fail "a client that never connects gave exit $status, expected 2"
printf '%s\n' "$out" | grep -q '^wsgate: the client command never connected' || fail 'no one-line reason for the broken client command'
check no-reports "$dir/clients"

step 'failing run: a client that connects and hangs up (exit 1; host network, as another user)'
dir=$(reports_dir fail 4321)
status=0
# docs/docker.md's --client line; the client opens a TCP connection to its {url} and closes it.
"$ENGINE" run --rm --name "$PREFIX-fail" "${HOST_NET[@]}" --user 4321:4321 -v "$dir:/reports" "$IMAGE" \
  run --url ws://127.0.0.1:0 --agent hangs-up --cases '1.1.1' '1.1.2' \
  --client "node -e \"require('net').connect(new URL(process.argv[1]).port, '127.0.0.1').end()\" {url}" | tail -n 4 || status=$?
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

step 'HTTP/2: run --http2 and run --role server --http2 --tls in the container (RFC 8441: every case an extended CONNECT stream)'
dir=$(reports_dir h2)
status=0
"$ENGINE" run --rm --name "$PREFIX-h2" "${NO_NET[@]}" -v "$dir:/reports" "$IMAGE" \
  run --http2 --cases "${RUN_CASES[@]}" | tail -n 4 || status=$?
[ "$status" = 0 ] || fail "run --http2 exited with $status, expected 0"
check run-reports "$dir/clients" "$RUN_TOTAL" "$RUN_TOTAL" 0
check h2-reports "$dir/clients"
status=0
"$ENGINE" run --rm --name "$PREFIX-sh2" "${NO_NET[@]}" -v "$dir:/reports" "$IMAGE" \
  run --role server --http2 --tls --cases "${RUN_CASES[@]}" | tail -n 4 || status=$?
[ "$status" = 0 ] || fail "run --role server --http2 --tls exited with $status, expected 0"
check h2-reports "$dir/servers"
check tls-reports "$dir/servers"

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

step "default CMD: docker run -v config:/config:ro -v reports:/reports -p 9001:9001 IMAGE (nodejs/undici test/autobahn/run.sh)"
# undici's line (its CI runs the same image as a GitHub Actions service, step 13). /reports belongs to
# another uid, mode 755, as a runner's checkout does: the original runs as root and writes there.
dir=$(reports_dir dropin 1001)
# Autobahn's own example spec, reduced to a few cases; outdir is relative to the working dir /.
spec_file "$work/config/fuzzingserver.json" 9001 ./reports/clients "$DROPIN_CASES"
chmod -R a+rX "$work/config"
port=$(node "$HERE/check.mjs" free-port) || fail 'no free port'
webport=$(node "$HERE/check.mjs" free-port) || fail 'no free port'
# The image's own CMD and WSGATE_LISTEN_HOST (0.0.0.0): the ports are published on the host's
# loopback only. The default web port, 8080, serves the report directory under /cwd/.
"$ENGINE" run -d --name "$PREFIX-dropin" "${PULL[@]}" -v "$work/config:/config:ro" -v "$dir:/reports" \
  -p "127.0.0.1:$port:9001" -p "127.0.0.1:$webport:8080" "$IMAGE" >/dev/null
check wait-ws "ws://127.0.0.1:$port/" 30
timeout 60 node dist/src/bundled/reference-client.js "ws://127.0.0.1:$port" dropin-client || fail 'the drop-in client did not finish'
check serve-reports "$dir/clients" dropin-client "$DROPIN_TOTAL"
# Written by root (the image's user for wstest) into the 1001-owned, 755 directory, and handed to
# that directory's owner (src/wstest/owner.ts): the runner's later steps can write beside and delete it.
check owner "$dir/clients" 1001
check owner "$dir" 1001
check http-json "http://127.0.0.1:$webport/cwd/reports/clients/index.json" dropin-client
read -r status seconds < <(stop_container "$PREFIX-dropin")
echo "drop-in server stopped by SIGTERM: exit $status after ${seconds} s"
[ "$status" = 0 ] || { "$ENGINE" logs "$PREFIX-dropin" | tail -n 20; fail "the drop-in server exited with $status, expected 0"; }

step 'fuzzingclient from / with a relative spec and outdir (snapview/tokio-tungstenite scripts/autobahn-server.sh), the server started right before'
# tokio-tungstenite: `docker run --rm -v "${PWD}/autobahn:/autobahn" --network host IMAGE wstest -m
# fuzzingclient -s 'autobahn/fuzzingclient.json'`; its ./autobahn is the runner's (uid 1001, 755).
# Its script sleeps 5 s after starting the server; denoland/fastwebsockets does not wait at all, and
# neither does this step: the first connection is retried.
auto=$(reports_dir autobahn 1001)
port=$(node "$HERE/check.mjs" free-port) || fail 'no free port'
cat >"$auto/fuzzingclient.json" <<EOF
{
	"outdir": "./autobahn/reports/servers",
	"servers": [
		{
			"agent": "reference-server",
			"url": "ws://127.0.0.1:$port"
		}
	],
	"cases": [$RUN_CASES_JSON],
	"exclude-cases": [],
	"exclude-agent-cases": {}
}
EOF
node dist/src/bundled/reference-server.js "$port" &
host_server=$!
status=0
started=$(now_ms)
"$ENGINE" run --rm --name "$PREFIX-fclient" "${HOST_NET[@]}" -v "$auto:/autobahn" "$IMAGE" \
  wstest -m fuzzingclient -s 'autobahn/fuzzingclient.json' | tail -n 2 || status=$?
elapsed=$(($(now_ms) - started))
kill "$host_server" 2>/dev/null || true
[ "$status" = 0 ] || fail "wstest -m fuzzingclient exited with $status, expected 0"
echo "exit 0 after $elapsed ms"
check serve-reports "$auto/reports/servers" reference-server "$RUN_TOTAL"
check owner "$auto/reports/servers" 1001
# The gate on the host, on the original's files.
node dist/src/cli.js judge --outdir "$auto/reports/servers" --spec "$auto/fuzzingclient.json" >/dev/null || fail "wsgate judge on a passing server's reports exited with $?, expected 0"
echo 'wsgate judge on the reports: exit 0'

step 'fuzzingclient against a broken server (denoland/fastwebsockets autobahn/server-test.js): exit 0, then wsgate judge exits 1'
# fastwebsockets: the spec mounted as a single read-only file and named relative to /, reports in
# /reports, host network, no wait for the server. (Its line also has `-p 9001:9001`, which Docker
# ignores with a warning on the host network; left out here.) The server echoes text that is not
# valid UTF-8 (test/fixtures/servers/broken-server.ts): cases 6.3.* fail.
fw=$(reports_dir fastwebsockets 1001)
mkdir -p "$fw/reports"
chown 1001:1001 "$fw/reports"
port=$(node "$HERE/check.mjs" free-port) || fail 'no free port'
cat >"$fw/fuzzingclient.json" <<EOF
{
  "outdir": "./reports/servers",
  "servers": [
    {
      "agent": "broken-server",
      "url": "ws://localhost:$port"
    }
  ],
  "cases": ["1.1.*", "6.3.*"],
  "exclude-cases": ["11.*", "12.*", "13.*"],
  "exclude-agent-cases": {}
}
EOF
chmod a+r "$fw/fuzzingclient.json"
node dist/test/fixtures/servers/broken-server.js no-utf8-check "$port" &
host_server=$!
status=0
"$ENGINE" run --name "$PREFIX-fw" -v "$fw/fuzzingclient.json:/fuzzingclient.json:ro" -v "$fw/reports:/reports" \
  "${HOST_NET[@]}" --rm "$IMAGE" wstest -m fuzzingclient -s fuzzingclient.json | tail -n 2 || status=$?
kill "$host_server" 2>/dev/null || true
[ "$status" = 0 ] || fail "wstest -m fuzzingclient against a broken server exited with $status, expected 0 (the original's)"
[ -f "$fw/reports/servers/index.json" ] || fail "no $fw/reports/servers/index.json"
status=0
node dist/src/cli.js judge --outdir "$fw/reports/servers" --spec "$fw/fuzzingclient.json" >"$work/judge.log" || status=$?
grep -E '^ *FAIL ' "$work/judge.log" || true
[ "$status" = 1 ] || fail "wsgate judge on a broken server's reports exited with $status, expected 1"
echo 'wstest: exit 0; wsgate judge on the reports: exit 1'

step 'sh -c and bash -c: two programs in one container (--network=none: its own ports, web port 8080 included)'
# No project's line found for these (one runs `/bin/sh -c "…"`, manual users `bash -c`): a
# fuzzingserver in the background and a client, then an echoserver and a fuzzingclient given -w,
# each program by its own path (/usr/local/bin, /opt/pypy/bin).
dir=$(reports_dir shell 1001)
spec_file "$work/shell-config/x.json" 9001 ./reports/clients "$DROPIN_CASES"
echo '{"outdir": "./reports/servers", "cases": ["1.1.*", "2.1"]}' >"$work/shell-config/fuzzingclient.json"
chmod -R a+rX "$work/shell-config"
status=0
"$ENGINE" run --rm --name "$PREFIX-sh" "${NO_NET[@]}" -v "$work/shell-config:/config:ro" -v "$dir:/reports" "$IMAGE" \
  sh -c 'wstest -m fuzzingserver -s /config/x.json >/dev/null & sleep 1; node /opt/wsgate/dist/src/bundled/reference-client.js ws://127.0.0.1:9001 sh-client' || status=$?
[ "$status" = 0 ] || fail "sh -c: the client in the container exited with $status"
check serve-reports "$dir/clients" sh-client "$DROPIN_TOTAL"
status=0
"$ENGINE" run --rm --name "$PREFIX-bash" "${NO_NET[@]}" -v "$work/shell-config:/config:ro" -v "$dir:/reports" "$IMAGE" \
  bash -c '/opt/pypy/bin/wstest -m echoserver -w ws://127.0.0.1:9000 & sleep 1; /usr/local/bin/wstest -m fuzzingclient -w ws://127.0.0.1:9000 -s /config/fuzzingclient.json' | tail -n 1 || status=$?
[ "$status" = 0 ] || fail "bash -c: wstest -m fuzzingclient exited with $status"
# No agent in the spec and no Server header: the original's UnknownServer.
check serve-reports "$dir/servers" UnknownServer "$DROPIN_TOTAL"

step '-u 4321:4321: no passwd entry, no HOME (denoland/fastwebsockets autobahn/Makefile run-client)'
# fastwebsockets: `docker run -d -u $(id -u):$(id -g) -v ${PWD}/fuzzingserver.json:/fuzzingserver.json:ro
# -v ${PWD}/reports:/reports -p 9001:9001 IMAGE wstest -m fuzzingserver -s fuzzingserver.json`. The
# engine sets HOME=/ for a uid with no passwd entry; `env -u HOME` takes even that away.
dir=$(reports_dir uid 4321)
spec_file "$work/uid-config/fuzzingserver.json" 9001 ./reports/client "$DROPIN_CASES"
chmod -R a+rX "$work/uid-config"
port=$(node "$HERE/check.mjs" free-port) || fail 'no free port'
"$ENGINE" run -d --name "$PREFIX-uid" "${PULL[@]}" -u 4321:4321 -v "$work/uid-config/fuzzingserver.json:/fuzzingserver.json:ro" \
  -v "$dir:/reports" -p "127.0.0.1:$port:9001" "$IMAGE" env -u HOME wstest -m fuzzingserver -s fuzzingserver.json >/dev/null
check wait-ws "ws://127.0.0.1:$port/" 30
timeout 60 node dist/src/bundled/reference-client.js "ws://127.0.0.1:$port" uid-client || fail 'the client of the -u container did not finish'
check serve-reports "$dir/client" uid-client "$DROPIN_TOTAL"
check owner "$dir/client" 4321
echo "as $("$ENGINE" exec "$PREFIX-uid" id) (the engine's exec, the same -u): reports written by uid 4321"
read -r status seconds < <(stop_container "$PREFIX-uid")
[ "$status" = 0 ] || { "$ENGINE" logs "$PREFIX-uid" | tail -n 20; fail "the -u server exited with $status, expected 0"; }

step 'SIGTERM and start: stop on a detached fuzzingserver with and without --init (under 2 s); run -d to listening (under 3 s)'
# Most projects `docker stop` the container, 2 add --init (snapview/tokio-tungstenite); 9 start their
# client after a fixed `sleep 3`/`sleep 5` or no wait at all. Host network, web port off (-u 0).
for init in none --init; do
  port=$(node "$HERE/check.mjs" free-port) || fail 'no free port'
  spec_file "$work/timing-$init/fuzzingserver.json" "$port" ./reports/clients "$DROPIN_CASES"
  chmod -R a+rX "$work/timing-$init"
  flags=("${HOST_NET[@]}" -v "$work/timing-$init:/config:ro")
  [ "$init" = none ] || flags+=(--init)
  started=$(now_ms)
  "$ENGINE" run -d --name "$PREFIX-stop$init" "${flags[@]}" "$IMAGE" \
    wstest -m fuzzingserver -s /config/fuzzingserver.json -u 0 >/dev/null
  check wait-port "$port" 10
  listening=$(($(now_ms) - started))
  echo "init $init: from run -d to the port accepting: $listening ms"
  [ "$listening" -le 3000 ] || fail "init $init: listening after $listening ms, more than 3 s"
  read -r status ms < <(stop_container_ms "$PREFIX-stop$init")
  echo "init $init: stopped by SIGTERM in $ms ms, exit $status"
  if "$ENGINE" logs "$PREFIX-stop$init" 2>&1 | grep -F 'tini'; then fail "init $init: tini wrote to the logs"; fi
  [ "$ms" -lt 2000 ] || fail "init $init: $ms ms to stop on SIGTERM"
  [ "$status" = 0 ] || { "$ENGINE" logs "$PREFIX-stop$init" | tail -n 20; fail "init $init: exit $status on SIGTERM, expected 0"; }
done

step 'restart: first start with an empty /config, then the spec and restart (nodejs/undici .github/workflows/autobahn.yml)'
# undici's fuzzingserver is a GitHub Actions service container: it starts before the checkout, with
# bind mounts of directories the engine creates (root, 755), and no command (the image's CMD); after
# the checkout the workflow runs `docker restart --time 0 --signal=SIGKILL fuzzingserver` (no
# --signal here: podman 4.3 has none, and a stopped container gets no signal anyway).
mkdir -p "$work/undici/config" "$work/undici/reports"
port=$(node "$HERE/check.mjs" free-port) || fail 'no free port'
"$ENGINE" run -d --name "$PREFIX-restart" "${PULL[@]}" -v "$work/undici/config:/config" -v "$work/undici/reports:/reports" \
  -p "127.0.0.1:$port:9001" "$IMAGE" >/dev/null
status=$("$ENGINE" wait "$PREFIX-restart")
logs=$("$ENGINE" logs "$PREFIX-restart" 2>&1)
echo "first start: exit $status; logs: $logs"
[ "$status" = 2 ] || fail "first start with an empty /config exited with $status, expected 2"
[ "$(printf '%s\n' "$logs" | wc -l)" = 1 ] || fail "first start with an empty /config logged $(printf '%s\n' "$logs" | wc -l) lines, expected 1"
spec_file "$work/undici/config/fuzzingserver.json" 9001 ./reports/clients "$DROPIN_CASES"
"$ENGINE" restart --time 0 "$PREFIX-restart" >/dev/null
check wait-ws "ws://127.0.0.1:$port/" 10
timeout 60 node dist/src/bundled/reference-client.js "ws://127.0.0.1:$port" undici || fail 'the client did not finish after the restart'
check serve-reports "$work/undici/reports/clients" undici "$DROPIN_TOTAL"
read -r status seconds < <(stop_container "$PREFIX-restart")
[ "$status" = 0 ] || { "$ENGINE" logs "$PREFIX-restart" | tail -n 20; fail "the restarted server exited with $status, expected 0"; }
echo 'restarted: listening, a client finished, stopped with 0'

step '-i with stdin at EOF (coder/websocket autobahn_test.go) and -it with a TTY (nodejs/undici run.sh)'
# coder/websocket execs `docker run -i --rm -v SPEC:SPEC -v $PWD/ci:/ci -p=127.0.0.1:PORT:PORT IMAGE
# wstest --mode fuzzingserver --spec SPEC --webport=0` with a spec at an absolute temporary path.
port=$(node "$HERE/check.mjs" free-port) || fail 'no free port'
spec=$work/coder/temp.json
spec_file "$spec" "$port" ./ci/out/wstestClientReports "$DROPIN_CASES"
chmod -R a+rX "$work/coder"
mkdir -p "$work/coder/ci"
"$ENGINE" run -i --rm --name "$PREFIX-i" "${PULL[@]}" -v "$spec:$spec" -v "$work/coder/ci:/ci" "-p=127.0.0.1:$port:$port" "$IMAGE" \
  wstest --mode fuzzingserver --spec "$spec" --webport=0 </dev/null >"$work/i.log" 2>&1 &
foreground=$!
check wait-ws "ws://127.0.0.1:$port/" 30
sleep 1
running "$PREFIX-i" || { cat "$work/i.log"; fail '-i: the container ended when stdin was at EOF'; }
timeout 60 node dist/src/bundled/reference-client.js "ws://127.0.0.1:$port" main || fail 'the client of the -i container did not finish'
check serve-reports "$work/coder/ci/out/wstestClientReports" main "$DROPIN_TOTAL"
"$ENGINE" stop -t 10 "$PREFIX-i" >/dev/null
status=0
wait "$foreground" || status=$?
[ "$status" = 0 ] || { cat "$work/i.log"; fail "-i: docker run exited with $status after stop, expected 0"; }
echo '-i </dev/null: kept running, served a client, exit 0 on stop'
# undici's run.sh: `docker run -it --rm -v config:/config -v reports:/reports -p 9001:9001 IMAGE`. A TTY
# for -it from script(1) (util-linux; on GitHub's runners too), its own stdin at EOF.
if command -v script >/dev/null; then
  port=$(node "$HERE/check.mjs" free-port) || fail 'no free port'
  dir=$(reports_dir it 1001)
  spec_file "$work/it-config/fuzzingserver.json" 9001 ./reports/clients "$DROPIN_CASES"
  chmod -R a+rX "$work/it-config"
  line=$(printf '%q ' "$ENGINE" run -it --rm --name "$PREFIX-it" "${PULL[@]}" -v "$work/it-config:/config" -v "$dir:/reports" \
    -p "127.0.0.1:$port:9001" "$IMAGE")
  script -qec "$line" /dev/null </dev/null >"$work/it.log" 2>&1 &
  foreground=$!
  check wait-ws "ws://127.0.0.1:$port/" 30
  sleep 1
  running "$PREFIX-it" || { cat "$work/it.log"; fail '-it: the container ended'; }
  [ "$("$ENGINE" inspect --format '{{.Config.Tty}}' "$PREFIX-it")" = true ] || fail '-it: the container has no TTY'
  timeout 60 node dist/src/bundled/reference-client.js "ws://127.0.0.1:$port" undici-tty || fail 'the client of the -it container did not finish'
  check serve-reports "$dir/clients" undici-tty "$DROPIN_TOTAL"
  "$ENGINE" stop -t 10 "$PREFIX-it" >/dev/null
  status=0
  wait "$foreground" || status=$?
  [ "$status" = 0 ] || { cat "$work/it.log"; fail "-it: script + docker run exited with $status after stop, expected 0"; }
  echo '-it under script(1): a TTY, kept running, served a client, exit 0 on stop'
else
  echo '-it: NOT CHECKED: no script(1) on this machine to give docker run a TTY'
fi

step 'paths: wstest on PATH, /opt/pypy/bin/wstest, /usr/local/bin/wstest'
expected="wsgate $version (wstest: Autobahn|Testsuite's command line)"
got=$("$ENGINE" run --rm "${NO_NET[@]}" "$IMAGE" sh -c 'command -v wstest')
[ "$got" = /usr/local/bin/wstest ] || fail "wstest on PATH is '$got', expected /usr/local/bin/wstest"
for program in wstest /opt/pypy/bin/wstest /usr/local/bin/wstest; do
  got=$("$ENGINE" run --rm "${NO_NET[@]}" "$IMAGE" "$program" --autobahnversion)
  [ "$got" = "$expected" ] || fail "$program --autobahnversion says '$got'"
  echo "$program: $got"
done

step "FROM base: a two-line derived image (aio-libs/aiohttp builds FROM the original) with wstest's echoserver as CMD"
mkdir -p "$work/derived"
printf 'FROM %s\nCMD ["wstest", "-m", "echoserver", "-w", "ws://0.0.0.0:9000"]\n' "$IMAGE" >"$work/derived/Dockerfile"
derived_build=(build -t "$DERIVED")
[ "$ENGINE" != podman ] || derived_build+=(--pull=never)
if ! "$ENGINE" "${derived_build[@]}" "$work/derived" >"$work/derived.log" 2>&1; then
  cat "$work/derived.log"
  fail "$ENGINE build of FROM $IMAGE"
fi
port=$(node "$HERE/check.mjs" free-port) || fail 'no free port'
"$ENGINE" run -d --name "$PREFIX-from" "${PULL[@]}" -p "127.0.0.1:$port:9000" "$DERIVED" >/dev/null
check wait-ws "ws://127.0.0.1:$port/" 30
check echo "ws://127.0.0.1:$port"
read -r status ms < <(stop_container_ms "$PREFIX-from")
echo "derived image's echoserver stopped by SIGTERM in $ms ms, exit $status"
[ "$status" = 0 ] || fail "the derived image's echoserver exited with $status, expected 0"

step 'echoserver: wstest -m echoserver -w ws://0.0.0.0:PORT (lipp/lua-websockets, the host network)'
port=$(node "$HERE/check.mjs" free-port) || fail 'no free port'
"$ENGINE" run -d --name "$PREFIX-echo" "${HOST_NET[@]}" "$IMAGE" wstest -m echoserver -w "ws://0.0.0.0:$port" >/dev/null
check wait-port "$port" 30
check echo "ws://127.0.0.1:$port"
read -r status ms < <(stop_container_ms "$PREFIX-echo")
echo "echoserver stopped by SIGTERM in $ms ms, exit $status"
[ "$status" = 0 ] || fail "the echoserver exited with $status, expected 0"

echo
echo "container smoke: all checks passed in $SECONDS s ($IMAGE, wsgate $version, $ENGINE)"
