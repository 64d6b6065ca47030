#!/usr/bin/env bash
# The browser engines beside Chromium, for test/run/browser.test.ts's Firefox and WebKit tests (they
# skip without them; CI runs the Chromium path only, .ci/install-chromium.sh): Debian's firefox-esr
# and WPE WebKit's cog (headless without a display). Skipped when both are installed.
set -euo pipefail
if command -v firefox-esr >/dev/null 2>&1 && command -v cog >/dev/null 2>&1; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends firefox-esr cog
