#!/usr/bin/env bash
# Asserts what a `uses: ./` step of the action gave: its outcome and outputs (passed in the
# environment as ACTION_OUTCOME, ACTION_RESULT, ACTION_PASSED, ACTION_FAILED, ACTION_SKIPPED,
# ACTION_TOTAL, ACTION_REPORTS_DIRECTORY, ACTION_JUNIT_REPORT, ACTION_JSON_REPORT, ACTION_HTML_REPORT)
# against the expected values given as arguments; the counts add up; the report files exist where
# the outputs say, and summary.json and junit.xml count the same cases.
#   .ci/release/check-action-outputs.sh --outcome success --result pass --passed 27 --failed 0 --total 27
# One line per mismatch. Exit 0 as expected, 1 mismatch, 2 usage error.
set -euo pipefail
usage() {
  echo 'check-action-outputs: usage: check-action-outputs.sh --outcome success|failure --result pass|fail --passed N --failed N --total N [--skipped N]' >&2
  exit 2
}
declare -A want=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --outcome | --result | --passed | --failed | --total | --skipped)
      [ "$#" -ge 2 ] || usage
      want[${1#--}]=$2
      shift 2
      ;;
    *) usage ;;
  esac
done
for key in outcome result passed failed total; do [ -n "${want[$key]:-}" ] || usage; done
bad=0
mismatch() {
  echo "check-action-outputs: $*" >&2
  bad=1
}
actual() { # the ACTION_ variable of an output name
  local var="ACTION_${1^^}"
  var=${var//-/_}
  printf '%s' "${!var:-}"
}
for key in "${!want[@]}"; do
  [ "$(actual "$key")" = "${want[$key]}" ] || mismatch "$key is \"$(actual "$key")\", expected \"${want[$key]}\""
done
passed=$(actual passed) failed=$(actual failed) skipped=$(actual skipped) total=$(actual total)
for n in "$passed" "$failed" "$skipped" "$total"; do
  [[ $n =~ ^[0-9]+$ ]] || { mismatch "counts passed=$passed failed=$failed skipped=$skipped total=$total are not all numbers"; exit 1; }
done
[ $((passed + failed + skipped)) -eq "$total" ] || mismatch "passed + failed + skipped = $((passed + failed + skipped)), total is $total"
dir=$(actual reports-directory)
[[ $dir == /* && -d $dir ]] || mismatch "reports-directory \"$dir\" is not an absolute path to a directory"
for out in junit-report json-report html-report; do
  file=$(actual "$out")
  [[ $file == /* && -s $file ]] || mismatch "$out \"$file\" is not an absolute path to a file with content"
done
[ "$bad" -eq 0 ] || exit 1
# The files say the same as the outputs.
counts=$(node -e 'const c = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8")).counts; console.log([c.total, c.passed, c.failed, c.skipped].join(" "))' "$(actual json-report)")
[ "$counts" = "$total $passed $failed $skipped" ] || mismatch "summary.json counts total passed failed skipped = $counts, the outputs $total $passed $failed $skipped"
grep -q "<testsuites [^>]*tests=\"$total\"" "$(actual junit-report)" || mismatch "junit.xml does not count $total tests"
grep -qi '<html' "$(actual html-report)" || mismatch "index.html is not an HTML page"
[ "$bad" -eq 0 ] || exit 1
echo "check-action-outputs: ${want[outcome]}, result ${want[result]}, $passed passed, $failed failed, $skipped skipped of $total; reports in $dir"
