#!/usr/bin/env bash
# Runs wsgate's catalogue over HTTP/2 (RFC 8441) through real proxies, HAProxy and nghttpx (Debian's,
# .ci/install-proxies.sh: needs root/apt when missing), each way, and compares every case with the
# same peer over HTTP/1.1 (interop/README.md, "WebSocket over HTTP/2 through proxies"):
#   server-*  wsgate run --role server --http2 → proxy (h2-to-h1) → the bundled ws server over HTTP/1.1
#   client-*  the bundled ws client over HTTP/1.1 → proxy (h1-to-h2) → wsgate's fuzzing server, --http2
#   undici-*  undici 7's WebSocket over h2c (interop/undici-h2-client.mjs), directly against wsgate
#             --http2, and through HAProxy (h2-to-h1) to wsgate's fuzzing server over HTTP/1.1
# Baselines: the same ws server and client straight over HTTP/1.1 (server-h1, client-h1).
#
#   interop/run-h2-proxies.sh [CASE-PATTERN...]     default: the whole catalogue (517 cases: about
#                                                  45 minutes on 2 cores, ~7 min a client-role run)
# Reports: reports/interop-h2-proxies/<run>/ (summary.json, per-case reports) and <run>.log; the
# case-by-case comparisons, in Markdown: reports/interop-h2-proxies/comparison.md.
set -uo pipefail
cd "$(dirname "$0")/.."
[ -f dist/src/cli.js ] && [ -f dist/test/support/proxies.js ] || npm run build >/dev/null
command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || .ci/install-proxies.sh >/dev/null 2>&1 || echo "interop: could not install HAProxy/nghttpx (apt-get)" >&2
dir=reports/interop-h2-proxies
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=('*')
mkdir -p "$dir"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done' EXIT

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
# Starts a proxy in the background (interop/proxy.mjs) and sets $proxy_port and $proxy_pid.
start_proxy() { # KIND DIRECTION BACKEND-PORT LOG
  local fifo; fifo=$(mktemp -u); mkfifo "$fifo"
  node interop/proxy.mjs "$1" "$2" "$3" >"$fifo" 2>"$4" &
  proxy_pid=$!; pids+=("$proxy_pid")
  read -r proxy_port <"$fifo"; rm -f "$fifo"
}
stop() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }
# One wsgate run: NAME then its arguments; prints the summary line.
run() {
  local name=$1; shift
  node dist/src/cli.js run --agent "$name" --outdir "$dir/$name" --cases "${cases[@]}" --quiet "$@" >"$dir/$name.log" 2>&1
  printf '%-28s exit %d: %s\n' "$name" "$?" "$(grep -E '^[0-9]+ cases:' "$dir/$name.log" | tail -1)"
}
printf '%-28s %s\n' run result

# Server role: the bundled ws server over HTTP/1.1 (no WSGATE_HTTP2), directly and behind each proxy.
srv=$(free_port)
env -u WSGATE_HTTP2 node dist/src/bundled/reference-server.js "$srv" & srv_pid=$!; pids+=("$srv_pid")
sleep 1
run server-h1 --role server --server-url "ws://127.0.0.1:$srv/"
for kind in haproxy nghttpx; do
  start_proxy "$kind" h2-to-h1 "$srv" "$dir/server-$kind.proxy.log"
  run "server-$kind" --role server --http2 --server-url "ws://127.0.0.1:$proxy_port/"
  stop "$proxy_pid"
done
stop "$srv_pid"

# Client role: the bundled ws client loops over the cases itself (--client-loops), over HTTP/1.1;
# through a proxy it is given the proxy's URL, and the fuzzing server a fixed port the proxy forwards to.
client="node dist/src/bundled/reference-client.js"
run client-h1 --client-loops --client "$client {url}" --url ws://127.0.0.1:0
for kind in haproxy nghttpx; do
  fuzz=$(free_port)
  start_proxy "$kind" h1-to-h2 "$fuzz" "$dir/client-$kind.proxy.log"
  run "client-$kind" --http2 --client-loops --client "env -u WSGATE_HTTP2 $client ws://127.0.0.1:$proxy_port" --url "ws://127.0.0.1:$fuzz"
  stop "$proxy_pid"
done

# undici over h2c: directly against wsgate --http2, then through HAProxy to wsgate over HTTP/1.1.
run undici-h2 --http2 --client-loops --client "node interop/undici-h2-client.mjs {url}" --url ws://127.0.0.1:0
fuzz=$(free_port)
start_proxy haproxy h2-to-h1 "$fuzz" "$dir/undici-h2-haproxy.proxy.log"
run undici-h2-haproxy --client-loops --client "node interop/undici-h2-client.mjs ws://127.0.0.1:$proxy_port" --url "ws://127.0.0.1:$fuzz"
stop "$proxy_pid"

{
  for kind in haproxy nghttpx; do
    node interop/h2-compare.mjs "$dir/server-h1" "$dir/server-$kind" "server role: wsgate (h2) → $kind → ws server (HTTP/1.1)"
    echo
    node interop/h2-compare.mjs "$dir/client-h1" "$dir/client-$kind" "client role: ws client (HTTP/1.1) → $kind → wsgate (h2)"
    echo
  done
} >"$dir/comparison.md"
echo "comparison: $dir/comparison.md"
