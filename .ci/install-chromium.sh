#!/usr/bin/env bash
# Headless Chromium for test/gate/safe-defaults.test.ts (HTML reports checked in a real browser).
# Skipped when a chromium is already installed.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || [ -x /usr/bin/chromium-browser ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium
