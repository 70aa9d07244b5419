#!/bin/sh
# `check` under mpirun with 2 and 3 ranks against one process, with a verdict per property
# and the search going on past violations (no --stop-at-first).
#
#   mpi_check_test.sh "MPIRUN ARGS" PREEMPTCHECK compare COUNTEREXAMPLE.yaml...
#     For each committed counterexample file: its inline scenario (--scenario-of), checked
#     with the options its "Found by" line records (less --out and --stop-at-first), as text
#     and as --json, each with --out: the same standard output outside timing and memory
#     figures, the same exit status, and the same counterexample files byte for byte.
#   mpi_check_test.sh "MPIRUN ARGS" PREEMPTCHECK kill SCENARIO.yaml
#     Rank 1 of 3 killed 8 seconds into the check of SCENARIO (after rank 0 printed progress):
#     the run must end within the timeout with a non-zero exit and a message naming rank 1,
#     and print no result.
set -u
mpirun=$1
program=$2
mode=$3
shift 3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0

. "$(dirname "$0")/mpi_test_common.sh"

compare() {
  label=$1
  shift
  run one -- check "$@" --quiet --out "$scratch/out"
  for ranks in 2 3; do
    # shellcheck disable=SC2086 # the launcher's words are meant to split
    run "n$ranks" $mpirun -np "$ranks" -- check "$@" --quiet --out "$scratch/out"
    if cmp -s "$scratch/one.result" "$scratch/n$ranks.result"; then
      echo "$label: $ranks ranks: same ($(head -1 "$scratch/one.result"), $(grep -c '^--- file ' "$scratch/one.result") file(s))"
    else
      echo "$label: $ranks ranks: DIFFERENT"
      diff "$scratch/one.result" "$scratch/n$ranks.result" | head -40
      head -20 "$scratch/n$ranks.stderr"
      failures=$((failures + 1))
    fi
  done
}

# The options a counterexample file's "Found by" line records, less the scenario path,
# --out DIR and --stop-at-first.
recorded_options() {
  sed -n 's/^# Found by: *preemptcheck check *//p' "$1" | head -1 | awk '{
    out = ""
    for (i = 1; i <= NF; ++i) {
      if (i == 1 && substr($i, 1, 2) != "--") continue
      if ($i == "--out") { ++i; continue }
      if ($i == "--stop-at-first") continue
      out = out " " $i
    }
    print out
  }'
}

case $mode in
  compare)
    violated=0
    for file in "$@"; do
      options=$(recorded_options "$file")
      label="check --scenario-of $(basename "$file")$options"
      # shellcheck disable=SC2086 # the recorded options are words
      compare "$label" --scenario-of "$file" $options
      if [ "$(head -1 "$scratch/one.result")" = "exit 1" ]; then
        violated=$((violated + 1))
      fi
      # shellcheck disable=SC2086
      compare "$label --json" --scenario-of "$file" $options --json
    done
    # Every file records a violation of its own scenario: each run must find it again.
    if [ "$violated" != "$#" ]; then
      echo "only $violated of $# files were violated in one process"
      failures=$((failures + 1))
    fi
    ;;
  kill)
    # shellcheck disable=SC2086,SC2016 # the launcher's words split; $$ is the inner shell's
    timeout 120 $mpirun -np 3 sh -c \
      'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then (sleep 8; kill -9 $$) & fi; exec "$0" check "$1"' \
      "$program" "$1" >"$scratch/kill.log" 2>&1
    status=$?
    cat "$scratch/kill.log"
    if [ "$status" = 0 ] || [ "$status" = 124 ]; then
      echo "killed rank: FAIL: exit $status (0 is a pass, 124 a hang)"
      failures=$((failures + 1))
    elif ! grep -q '^progress ' "$scratch/kill.log"; then
      echo "killed rank: FAIL: no progress line, so the rank was not killed mid-run"
      failures=$((failures + 1))
    elif grep -q '^explored \|^result \|"outcome"' "$scratch/kill.log"; then
      echo "killed rank: FAIL: a result was printed"
      failures=$((failures + 1))
    elif ! grep -qi 'rank 1' "$scratch/kill.log" || ! grep -qi 'signal 9\|killed' "$scratch/kill.log"; then
      echo "killed rank: FAIL: no message naming the killed rank 1"
      failures=$((failures + 1))
    else
      echo "killed rank: exit $status with a message naming rank 1"
    fi
    ;;
  *)
    echo "mpi_check_test.sh: unknown mode $mode" >&2
    exit 2
    ;;
esac
exit $((failures > 0))
