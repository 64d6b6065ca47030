#!/usr/bin/env bash
# The pinned releases of test/fixtures/robustness/ (real releases with published advisories, and the
# releases that fixed them), installed from their lockfiles with the machine's own npm configuration.
# `npm test` does the same before the tests run (and skips the tests of a release npm could not
# install); this script, for interop/run-robustness.sh and by hand, fails instead.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
WSGATE_TEST_REQUIRE_ALL=1 exec node "$here/test/fixtures/robustness/install.mjs" "$@"
