#!/bin/sh
# Runs a program in one process and under mpirun with 2 and 3 ranks, and with 2 ranks of 3
# threads each (PROGRAM takes --threads N), and requires the same standard output and exit
# status. Usage: mpi_compare_test.sh "MPIRUN ARGS" PROGRAM ARGS...
set -u
mpirun=$1
shift
expected=$("$@")
expected_status=$?
for run in 2:1 3:1 2:3; do
  ranks=${run%:*}
  threads=${run#*:}
  # shellcheck disable=SC2086 # the launcher's words are meant to split
  actual=$(timeout 100 $mpirun -np "$ranks" "$@" --threads "$threads")
  status=$?
  if [ "$actual" != "$expected" ] || [ "$status" != "$expected_status" ]; then
    echo "one process (exit $expected_status):"
    echo "$expected"
    echo "$ranks ranks of $threads threads (exit $status):"
    echo "$actual"
    exit 1
  fi
done
echo "$expected"
echo "the same with 1, 2 and 3 ranks, and 2 ranks of 3 threads (exit $expected_status)"
