#!/usr/bin/env bash
# Gate scenarios in CI (docs/ci/gating.md): run `preemptcheck check` once per line of GATE_FILE
# (each line: a scenario and its options, e.g. `--profile kubernetes --expect-violated P`),
# writing each line's files into a directory of its own, OUT/line-N/ (N from 1, blank and `#`
# lines not counted): its JUnit report, junit.xml, and its counterexample files, found/. Two
# lines that check one scenario under one profile write files of the same names; each keeps
# its own.
# Exits 0 when every line's expectations are met, otherwise the first failing line's exit code
# (1 an expectation not met, 3 a limit left one undecided, 2 bad input).
# Usage: docs/ci/gate.sh PREEMPTCHECK GATE_FILE OUT
set -u
if [ $# -ne 3 ]; then
  echo "usage: $0 PREEMPTCHECK GATE_FILE OUT" >&2
  exit 2
fi
preemptcheck=$1
gate_file=$2
out=$3
mkdir -p "$out" || exit 2
status=0
n=0
while read -r line || [ -n "$line" ]; do
  case "$line" in "" | "#"*) continue ;; esac
  n=$((n + 1))
  # shellcheck disable=SC2086  # each line is a command's words
  mkdir -p "$out/line-$n" || exit 2
  "$preemptcheck" check $line --quiet --junit "$out/line-$n/junit.xml" --out "$out/line-$n/found"
  rc=$?
  echo "gate line $n: exit $rc: $line"
  if [ "$rc" -ne 0 ] && [ "$status" -eq 0 ]; then
    status=$rc
  fi
done < "$gate_file"
if [ "$n" -eq 0 ]; then
  echo "$gate_file: no check to run" >&2
  exit 2
fi
exit "$status"
