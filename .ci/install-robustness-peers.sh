#!/usr/bin/env bash
# Real releases with published advisories, the servers and clients under test of the robustness
# profile's proof (test/robustness/*.test.ts, interop/README.md's table): each directory under
# test/fixtures/robustness/ pins one release exactly (package.json) and its whole tree
# (package-lock.json, no registry address in it). Installed with the machine's own npm config (its
# registry, its cache). Idempotent: a fixture whose installed tree matches its package.json is skipped.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
for dir in "$here"/test/fixtures/robustness/*/; do
  dir=${dir%/}
  [ -f "$dir/package.json" ] || continue
  if [ -f "$dir/package-lock.json" ] && [ -d "$dir/node_modules" ] && (cd "$dir" && npm ls --all >/dev/null 2>&1); then
    continue
  fi
  echo "install-robustness-peers: $(basename "$dir")"
  if [ -f "$dir/package-lock.json" ]; then
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  else
    # First install: write the lockfile without the registry's address (as the repository's own).
    (cd "$dir" && npm install --omit-lockfile-registry-resolved --no-audit --no-fund --loglevel=error)
  fi
done
