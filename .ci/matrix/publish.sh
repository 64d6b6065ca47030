#!/usr/bin/env bash
# Joins the implementations' matrices (each directory under ROWS that holds a matrix.json: one per
# CI job's artifact, or per .ci/matrix-local.sh row) into one matrix in SITE: matrix.json, the site
# index.html, badges/NAME-ROLE.json and every row's report. SITE is what GitHub Pages serves.
#
#   .ci/matrix/publish.sh ROWS SITE
set -euo pipefail
if [ "$#" -ne 2 ]; then
  echo "usage: .ci/matrix/publish.sh ROWS SITE" >&2
  exit 2
fi
inputs=()
for dir in "$1"/*/; do
  if [ -f "$dir/matrix.json" ]; then inputs+=("$(realpath "$dir")"); fi
done
if [ "${#inputs[@]}" -eq 0 ]; then
  echo "matrix-publish: no matrix (DIR/matrix.json) under $1" >&2
  exit 1
fi
site=$(realpath -m "$2")
cd "$(dirname "$0")/../.."
echo "matrix-publish: joining ${#inputs[@]} matrices into $site"
exec node dist/src/cli.js matrix --merge "${inputs[@]}" --outdir "$site"
