#!/usr/bin/env bash
# The real releases the robustness profile is proven on (--robustness; interop/README.md's table):
# one folder per release under test/fixtures/robustness/, each a package.json that pins the exact
# version and the package-lock.json written from it, installed with `npm ci` and the machine's own
# npm configuration. Idempotent: a folder whose node_modules was installed from its current lock is
# skipped. test/robustness/*.test.ts skip a release that is not installed, and say so.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

install_peer() {
  local dir="$here/test/fixtures/robustness/$1"
  if [ -f "$dir/node_modules/.package-lock.json" ] && [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then
    return 0
  fi
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
}

# ---- client role (group 18): undici's WebSocket client, before and after CVE-2026-2229,
# CVE-2026-1526 and CVE-2026-1528 (all three fixed in 6.24.0) ------------------------------------
install_peer undici-6.23.0
install_peer undici-6.24.0
# ---- end of the client role's peers ------------------------------------------------------------
