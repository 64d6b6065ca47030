#!/usr/bin/env bash
# Runs the robustness profile (--robustness) against other WebSocket implementations, both roles,
# and prints one line per peer and each case that did not pass (interop/README.md, "The robustness
# profile"). Node.js peers come from the dependencies (npm ci); Python peers from Debian's packages
# (python3-websockets, -aiohttp, -tornado), installed here when missing (.ci/install-python-clients.sh:
# needs root/apt). Each peer runs with its library's defaults except where its script says otherwise.
#
#   interop/run-robustness.sh [--role client|server] [--budget NAME=VALUE]... [CASE-PATTERN...]
#
# Reports: reports/interop-robustness/<role>-<peer>/ (index.html, junit.xml, summary.json).
set -uo pipefail
cd "$(dirname "$0")/.."
[ -f dist/src/cli.js ] || npm run build >/dev/null
PY=/usr/bin/python3   # Debian's interpreter: it sees Debian's python3-* packages
.ci/install-python-clients.sh >/dev/null 2>&1 || echo "interop: could not install the Python packages (apt-get); their peers will fail to start" >&2
roles=(server client)
budgets=()
cases=()
while [ $# -gt 0 ]; do
  case "$1" in
    --role) roles=("$2"); shift ;;
    --budget) budgets+=(--budget "$2"); shift ;;
    *) cases+=("$1") ;;
  esac
  shift
done
[ ${#cases[@]} -gt 0 ] || cases=('*')
servers=(
  "ws-bundled|"
  "python-websockets|$PY interop/servers/python-websockets.py {port}"
  "python-aiohttp|$PY interop/servers/python-aiohttp.py {port}"
)
clients=(
  "ws-bundled|"
  "undici|node interop/clients/undici.mjs {url}"
  "python-websockets|$PY interop/clients/python-websockets.py {url}"
  "python-aiohttp|$PY interop/clients/python-aiohttp.py {url}"
  "python-tornado|$PY interop/clients/python-tornado.py {url}"
)
dir=reports/interop-robustness
mkdir -p "$dir"
for role in "${roles[@]}"; do
  if [ "$role" = server ]; then peers=("${servers[@]}"); else peers=("${clients[@]}"); fi
  for entry in "${peers[@]}"; do
    name=${entry%%|*}
    cmd=${entry#*|}
    out=$dir/$role-$name
    if [ "$role" = server ]; then
      if [ -z "$cmd" ]; then args=(--role server); else args=(--server "$cmd"); fi
    else
      # A free port: the fuzzing server's default 9001 may be taken (another run, a test).
      if [ -z "$cmd" ]; then args=(--url ws://127.0.0.1:0); else args=(--client "$cmd" --url ws://127.0.0.1:0); fi
    fi
    start=$(date +%s)
    node dist/src/cli.js run --robustness "${args[@]}" --agent "$name" --outdir "$out" --cases "${cases[@]}" "${budgets[@]}" --quiet >"$out.log" 2>&1
    status=$?
    printf '%-8s %-20s exit %d in %4d s: %s\n' "$role" "$name" "$status" "$(( $(date +%s) - start ))" "$(grep -E '^[0-9]+ cases:' "$out.log" | tail -1)"
    grep -E '^\s+FAIL ' "$out.log" | sed 's/^/           /'
  done
done
