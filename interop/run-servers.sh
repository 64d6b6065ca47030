#!/usr/bin/env bash
# Runs wsgate's catalogue against other WebSocket server implementations (the server role) and
# prints one line per server. Node.js servers come from the dependencies (npm ci); Python servers
# from Debian's packages (python3-websockets, python3-aiohttp), installed here when missing
# (.ci/install-python-clients.sh: needs root/apt).
#
#   interop/run-servers.sh [--tls] [CASE-PATTERN...]     default: the whole catalogue; --tls: over
#                                                       wss://, each server given a certificate
#                                                       from wsgate's throwaway CA (WSGATE_CERT_FILE)
# Reports: reports/interop-servers/<server>/ (reports/interop-servers-tls/<server>/ with --tls:
# index.html, junit.xml, summary.json, per-case reports).
set -uo pipefail
cd "$(dirname "$0")/.."
[ -f dist/src/cli.js ] || npm run build >/dev/null
PY=/usr/bin/python3   # Debian's interpreter: it sees Debian's python3-* packages
.ci/install-python-clients.sh >/dev/null 2>&1 || echo "interop: could not install the Python packages (apt-get); their servers will fail to start" >&2
tls=()
dir=reports/interop-servers
cases=()
for arg in "$@"; do
  if [ "$arg" = --tls ]; then tls=(--tls); dir=reports/interop-servers-tls; else cases+=("$arg"); fi
done
[ ${#cases[@]} -gt 0 ] || cases=('*')
servers=(
  "ws-bundled|"
  "ws-default|node interop/servers/ws-default.mjs {port}"
  "python-websockets|$PY interop/servers/python-websockets.py {port}"
  "python-aiohttp|$PY interop/servers/python-aiohttp.py {port}"
)
mkdir -p "$dir"
printf '%-24s %s\n' server result
for entry in "${servers[@]}"; do
  name=${entry%%|*}
  cmd=${entry#*|}
  out=$dir/$name
  if [ -z "$cmd" ]; then args=(--role server); else args=(--server "$cmd"); fi
  node dist/src/cli.js run "${args[@]}" --agent "$name" --outdir "$out" --cases "${cases[@]}" "${tls[@]}" >"$out.log" 2>&1
  status=$?
  printf '%-24s exit %d: %s\n' "$name" "$status" "$(grep -E '^[0-9]+ cases:' "$out.log" | tail -1)"
done
