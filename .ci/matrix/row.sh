#!/usr/bin/env bash
# One implementation's matrix, as its CI job runs it: every role of NAME, into OUTDIR (matrix.json,
# index.html, badges/, a report directory per role). Nothing is installed here (.ci/matrix/install.sh).
#
#   .ci/matrix/row.sh NAME OUTDIR
#
# MATRIX_QUICK=true: the quick profile; MATRIX_CASES: case patterns (space-separated) instead of
# every case. Needs the build (npm run build). The rows' commands run from the checkout's root.
set -euo pipefail
if [ "$#" -ne 2 ]; then
  echo "usage: .ci/matrix/row.sh NAME OUTDIR" >&2
  exit 2
fi
outdir=$(realpath -m "$2")
cd "$(dirname "$0")/../.."
args=(matrix --only "$1" --outdir "$outdir")
if [ "${MATRIX_QUICK:-false}" = true ]; then args+=(--quick); fi
if [ -n "${MATRIX_CASES:-}" ]; then
  read -r -a cases <<<"$MATRIX_CASES"
  args+=(--cases "${cases[@]}")
fi
exec node dist/src/cli.js "${args[@]}"
