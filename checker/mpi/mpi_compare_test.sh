#!/bin/sh
# Runs a program in one process and under mpirun with 2 and 3 ranks and requires the same
# standard output and exit status. Usage: mpi_compare_test.sh "MPIRUN ARGS" PROGRAM ARGS...
set -u
mpirun=$1
shift
expected=$("$@")
expected_status=$?
for ranks in 2 3; do
  # shellcheck disable=SC2086 # the launcher's words are meant to split
  actual=$(timeout 100 $mpirun -np "$ranks" "$@")
  status=$?
  if [ "$actual" != "$expected" ] || [ "$status" != "$expected_status" ]; then
    echo "one process (exit $expected_status):"
    echo "$expected"
    echo "$ranks ranks (exit $status):"
    echo "$actual"
    exit 1
  fi
done
echo "$expected"
echo "the same with 1, 2 and 3 ranks (exit $expected_status)"
