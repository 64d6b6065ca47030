#!/usr/bin/env bash
# Debian's HAProxy and nghttpx (package nghttp2-proxy), the real RFC 8441 proxies of
# test/support/proxies.ts and test/interop/proxies-smoke.test.ts: WebSocket over HTTP/2 (extended
# CONNECT) on one side, over HTTP/1.1 on the other, both ways. Skipped when both are installed already.
# Only the binaries are used: the tests run them in the foreground with a generated config, never as
# the packages' system services. Debian puts both in /usr/sbin, which a non-root user's PATH may lack.
set -euo pipefail
have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
if have haproxy && have nghttpx; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends haproxy nghttp2-proxy
