# shellcheck shell=bash
# Sourced by smoke.sh and multiarch.sh, after each sets its EXIT trap: the step headings, the one-line
# failure (exit 1) and the report checks they share. SCRIPT_NAME heads every failure line; HERE is
# .ci/container.
trap 'echo "$SCRIPT_NAME: FAILED: line $LINENO: $BASH_COMMAND" >&2' ERR
trap 'exit 130' INT
trap 'exit 143' TERM

step() { printf '\n--- [%d s] %s\n' "$SECONDS" "$*"; }
fail() {
  echo "$SCRIPT_NAME: FAILED: $*" >&2
  exit 1
}
check() { node "$HERE/check.mjs" "$@" || fail "check $1 ${2:-}"; }
