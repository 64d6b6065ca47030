#!/usr/bin/env bash
# Debian's coder/websocket (nhooyr.io/websocket 1.8.7, package golang-nhooyr-websocket-dev: its Go
# sources with their own tests, autobahn_test.go among them, under /usr/share/gocode) and Debian's Go
# toolchain (golang-go, /usr/bin/go, whatever other go is on PATH) to run them: test/wstest/consumer-suites.test.ts runs that test suite unchanged
# against wsgate's `wstest`. The package pulls in the test files' dependencies (go-cmp, gin, gorilla,
# klauspost/compress, …) as Debian packages too, so `go test` needs no module download (GOPATH mode).
# curl and jq, which real projects' CI scripts replayed in test/wstest/consumers.test.ts call.
# Skipped when all are installed already.
set -euo pipefail
if [ -x /usr/bin/go ] && [ -f /usr/share/gocode/src/nhooyr.io/websocket/autobahn_test.go ] && command -v curl >/dev/null && command -v jq >/dev/null; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends golang-go golang-nhooyr-websocket-dev curl jq
