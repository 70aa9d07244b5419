#!/bin/sh
# Runs a command under an address-space limit and checks how it ended.
#
#   usage: run_limited.sh KIBIBYTES EXPECTED_EXIT PATTERN... -- COMMAND...
#
# Runs COMMAND under `ulimit -v KIBIBYTES`; passes when it exits with EXPECTED_EXIT and its
# output (standard output and error together) matches every grep -E PATTERN. Prints the
# output either way. An abort (exit 134) or any other exit code fails.
limit=$1
expected=$2
shift 2
patterns=""
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
  patterns="$patterns
$1"
  shift
done
[ "$1" = "--" ] && shift
output=$( (ulimit -v "$limit" && exec "$@") 2>&1 )
status=$?
printf '%s\n(exit %s)\n' "$output" "$status"
if [ "$status" -ne "$expected" ]; then
  echo "FAIL: exit $status, expected $expected"
  exit 1
fi
failed=0
echo "$patterns" | while IFS= read -r p; do
  [ -z "$p" ] && continue
  if ! printf '%s\n' "$output" | grep -Eq -- "$p"; then
    echo "FAIL: the output does not match: $p"
    exit 1
  fi
done || failed=1
[ "$failed" -eq 0 ] || exit 1
echo "PASS"
