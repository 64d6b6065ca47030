#!/usr/bin/env bash
# Runs wsgate's catalogue against other WebSocket client implementations and prints one line per
# client. Node.js clients come from the devDependencies (npm ci); Python clients from Debian's
# packages (python3-websockets, -aiohttp, -tornado, -websocket), installed here when missing
# (.ci/install-python-clients.sh: needs root/apt).
#
#   interop/run.sh [--tls] [--extended] [CASE-PATTERN...]
#                                          default: every case outside the permessage-deflate
#                                          groups 12 and 13 (add '12.*' '13.*' for those: ~15 min a client);
#                                          --extended adds wsgate's own group 14 to what patterns can
#                                          select (interop/run.sh --extended '14.*': group 14 alone);
#                                          --tls runs over wss://, each client given wsgate's CA by
#                                          environment only (NODE_EXTRA_CA_CERTS, SSL_CERT_FILE)
# Reports: reports/interop/<client>/ (reports/interop-tls/<client>/ with --tls: index.html,
# junit.xml, summary.json, per-case reports).
set -uo pipefail
cd "$(dirname "$0")/.."
[ -f dist/src/cli.js ] || npm run build >/dev/null
PY=/usr/bin/python3   # Debian's interpreter: it sees Debian's python3-* packages
.ci/install-python-clients.sh >/dev/null 2>&1 || echo "interop: could not install the Python clients (apt-get); they will fail to start" >&2
extended=()
tls=()
dir=reports/interop
cases=()
for arg in "$@"; do
  case "$arg" in
    --extended) extended=(--extended) ;;
    --tls) tls=(--tls); dir=reports/interop-tls ;;
    *) cases+=("$arg") ;;
  esac
done
[ ${#cases[@]} -gt 0 ] || cases=('1.*' '2.*' '3.*' '4.*' '5.*' '6.*' '7.*' '9.*' '10.*')
clients=(
  "websocket-node|node interop/clients/websocket-node.cjs {url}"
  "faye-websocket|node interop/clients/faye-websocket.cjs {url}"
  "undici|node interop/clients/undici.mjs {url}"
  "node-websocket|node --experimental-websocket --no-warnings interop/clients/node-websocket.mjs {url}"
  "python-websockets|$PY interop/clients/python-websockets.py {url}"
  "python-aiohttp|$PY interop/clients/python-aiohttp.py {url}"
  "python-tornado|$PY interop/clients/python-tornado.py {url}"
  "python-websocket-client|$PY interop/clients/python-websocket-client.py {url}"
  "python-websocket-client-mapped|$PY interop/clients/python-websocket-client-mapped.py {url}"
)
mkdir -p "$dir"
printf '%-24s %s\n' client result
for entry in "${clients[@]}"; do
  name=${entry%%|*}
  cmd=${entry#*|}
  out=$dir/$name
  node dist/src/cli.js run --client "$cmd" --agent "$name" --url ws://127.0.0.1:0 --outdir "$out" --cases "${cases[@]}" "${extended[@]}" "${tls[@]}" --case-timeout 20 >"$out.log" 2>&1
  status=$?
  printf '%-24s exit %d: %s\n' "$name" "$status" "$(grep -E '^[0-9]+ cases:' "$out.log" | tail -1)"
done
