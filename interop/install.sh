#!/usr/bin/env bash
# Installs implementations of the interop registry (interop/implementations/NAME.json): Debian
# packages with the machine's apt (root or sudo), npm packages with its npm; what is installed already
# is skipped (an entry whose version reads but whose built program is missing, or was built from an
# older source of its driver, gets its build again).
# Ends with a line per implementation it could not install, and exits 1 then.
#
#   interop/install.sh [NAME ...]          default: every implementation
#   interop/install.sh NAME@VERSION ...    releases, each into interop/.versions/NAME@VERSION (wsgate matrix --versions)
#   interop/install.sh [--minors] 'NAME@RANGE' ...   the published releases in an npm range (--minors: the newest of each minor)
set -euo pipefail
cd "$(dirname "$0")/.."
# The registry and the installed versions are read with wsgate's own code (src/matrix/).
[ -f dist/src/matrix/version.js ] || npm run build >/dev/null
exec node interop/install.mjs "$@"
