#!/bin/sh
# A rank that fails (fail: its model throws; kill: it dies by SIGKILL) must end the whole run
# with a non-zero exit and a message, within the timeout, and never print a result.
# Usage: mpi_failure_test.sh "MPIRUN ARGS" checker_mpi_toy fail|kill
set -u
mpirun=$1
program=$2
mode=$3
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# shellcheck disable=SC2086 # the launcher's words are meant to split
timeout 60 $mpirun -np 3 "$program" --size 12 "--$mode-rank" 1 >"$log" 2>&1
status=$?
cat "$log"
if [ "$status" = 0 ] || [ "$status" = 124 ]; then
  echo "FAIL: exit $status (0 is a pass, 124 a hang)"
  exit 1
fi
if grep -q '^outcome' "$log"; then
  echo "FAIL: a result was printed"
  exit 1
fi
if [ "$mode" = fail ]; then
  if [ "$status" != 2 ] || ! grep -q 'rank 1 of 3 failed: toy model failure on purpose' "$log"; then
    echo "FAIL: expected exit 2 and a message naming rank 1"
    exit 1
  fi
else
  if ! grep -qi 'signal 9\|killed' "$log"; then
    echo "FAIL: expected a message about the killed rank"
    exit 1
  fi
fi
echo "ok: exit $status"
