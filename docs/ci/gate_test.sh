#!/usr/bin/env bash
# CTest docs_ci_gate: docs/ci/gate.sh on docs/ci/gate.txt (run from the source tree) passes with
# a JUnit report per line and no failure in any; two lines with one scenario and profile keep
# each its own files (same names, other content); a gate file whose expectation is wrong fails
# with exit 1 and a <failure> in its report; an empty one is refused with exit 2.
# Usage: docs/ci/gate_test.sh PREEMPTCHECK
set -u
preemptcheck=$1
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

"$here/gate.sh" "$preemptcheck" "$here/gate.txt" "$out/ok" || fail "gate.txt: exit $?, expected 0"
lines=$(grep -c -v -e '^$' -e '^#' "$here/gate.txt")
reports=$(ls "$out"/ok/line-*/junit.xml | wc -l)
[ "$reports" -eq "$lines" ] || fail "$reports JUnit reports for $lines lines"
grep -L 'failures="0" skipped="0"' "$out"/ok/line-*/junit.xml | grep -q . && fail "a report has a failure"
ls "$out/ok/line-1/found" | grep -q '^no-lost-wakeup--g1-basic--kubernetes.yaml$' ||
  fail "no counterexample file for g1-basic's no-lost-wakeup"
for f in "$out"/ok/line-*/found/*.yaml; do
  "$preemptcheck" replay "$f" > /dev/null
  [ $? -eq 1 ] || fail "$f does not replay with exit 1"
done

# Two lines, one scenario and one profile: each writes no-lost-wakeup--g1-basic--kubernetes.yaml,
# the second found checking no-lost-wakeup alone; each line's file stays, with its own line.
{
  echo "scenarios/g1-basic.yaml --profile kubernetes --expect-violated no-double-victim --expect-violated no-lost-wakeup"
  echo "scenarios/g1-basic.yaml --profile kubernetes --property no-lost-wakeup --expect-violated no-lost-wakeup"
} > "$out/twice.txt"
"$here/gate.sh" "$preemptcheck" "$out/twice.txt" "$out/twice" > /dev/null ||
  fail "twice.txt: exit $?, expected 0"
first="$out/twice/line-1/found/no-lost-wakeup--g1-basic--kubernetes.yaml"
second="$out/twice/line-2/found/no-lost-wakeup--g1-basic--kubernetes.yaml"
[ -f "$first" ] && [ -f "$second" ] || fail "a line's no-lost-wakeup file is missing"
cmp -s "$first" "$second" && fail "the two lines' files are the same: nothing shows they are each their own"
grep -q -- '--property no-lost-wakeup' "$first" && fail "line 1's file records line 2's check"
grep -q -- '--property no-lost-wakeup' "$second" || fail "line 2's file does not record its check"
for f in "$first" "$second"; do
  "$preemptcheck" replay "$f" > /dev/null
  [ $? -eq 1 ] || fail "$f does not replay with exit 1"
done

echo "scenarios/g1-basic.yaml --profile kubernetes --expect-violated no-lost-wakeup" > "$out/wrong.txt"
"$here/gate.sh" "$preemptcheck" "$out/wrong.txt" "$out/wrong"
rc=$?
[ "$rc" -eq 1 ] || fail "a wrong expectation: exit $rc, expected 1"
grep -q '<failure message="no-double-victim was expected to hold' "$out/wrong/line-1/junit.xml" ||
  fail "the wrong expectation's report has no failure for no-double-victim"

: > "$out/empty.txt"
"$here/gate.sh" "$preemptcheck" "$out/empty.txt" "$out/empty" 2> /dev/null
rc=$?
[ "$rc" -eq 2 ] || fail "an empty gate file: exit $rc, expected 2"
echo "docs/ci/gate.sh: every case as expected"
