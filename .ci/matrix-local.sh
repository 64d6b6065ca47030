#!/usr/bin/env bash
# The published matrix (.github/workflows/matrix.yml) rehearsed on this machine, step for step with
# the same scripts: list the implementations, then per implementation install it and run its matrix
# into a directory of its own (the workflow: one job each), then join them into one site with its
# badges. Nothing is deployed: it says where the site is. Installs need root or sudo for apt.
#
#   .ci/matrix-local.sh [--quick] [--cases "PATTERN ..."] [--outdir DIR] [NAME ...]
#
# Default: every implementation, every case, into matrix-local/ (rows/NAME/ and site/). A row that
# cannot be installed is listed as not installed; a row whose matrix fails is reported and the
# rest go on (the workflow's fail-fast: false), and the script then exits 1 after the site is built.
set -euo pipefail
cd "$(dirname "$0")/.."
outdir=matrix-local
while [ "$#" -gt 0 ]; do
  case "$1" in
    --quick) export MATRIX_QUICK=true; shift ;;
    --cases) export MATRIX_CASES="${2:?--cases needs patterns}"; shift 2 ;;
    --outdir) outdir="${2:?--outdir needs a directory}"; shift 2 ;;
    --*) echo "matrix-local: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
start=$SECONDS
# The workflow's jobs: npm ci and npm run build (here: the build when dist/ is older than the sources).
node .ci/build-if-changed.mjs
names=$(.ci/matrix/list.mjs "$@")
mapfile -t list < <(node -e 'for (const n of JSON.parse(process.argv[1])) console.log(n)' "$names")
echo "matrix-local: ${#list[@]} implementations: ${list[*]}"
rm -rf "$outdir/rows" "$outdir/site"
failed=()
for name in "${list[@]}"; do
  echo "matrix-local: == $name"
  .ci/matrix/install.sh "$name"
  if ! .ci/matrix/row.sh "$name" "$outdir/rows/$name"; then
    echo "matrix-local: $name: its matrix failed"
    failed+=("$name")
  fi
done
.ci/matrix/publish.sh "$outdir/rows" "$outdir/site"
echo "matrix-local: the badges:"
for badge in "$outdir"/site/badges/*.json; do
  node -e 'const b = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(`  ${process.argv[2]}: ${b.message} (${b.color})`)' "$badge" "$(basename "$badge" .json)"
done
echo "matrix-local: site: $(realpath "$outdir/site")/index.html ($((SECONDS - start)) s; not deployed)"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "matrix-local: the matrix of ${failed[*]} failed" >&2
  exit 1
fi
