#!/usr/bin/env bash
# Debian's Python WebSocket clients, real peers of test/interop/python-clients.test.ts and of
# interop/run.sh: python3-websockets, python3-aiohttp, python3-tornado, python3-websocket, imported by
# Debian's /usr/bin/python3 (the python3 first on PATH may be another interpreter). Skipped when all
# four import already.
set -euo pipefail
if /usr/bin/python3 -c 'import websockets, aiohttp, tornado, websocket' >/dev/null 2>&1; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends python3 python3-websockets python3-aiohttp python3-tornado python3-websocket
