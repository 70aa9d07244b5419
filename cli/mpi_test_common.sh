#!/bin/sh
# Sourced by cli/mpi_check_test.sh and cli/mpi_search_test.sh, which set `program` (the
# preemptcheck binary) and `scratch` (a scratch directory) first.

# The only figures allowed to differ: times, rates and memory (as scripts/determinism.sh
# masks them).
mask() {
  sed -E \
    -e 's/[0-9][0-9,.]*(e[-+]?[0-9]+)? ?(ns|us|µs|ms|s|min|B|KiB|MiB|GiB|kB|MB|GB|states\/s)\b/#/g' \
    -e 's/"(seconds|states_per_second|peak_rss_bytes|memory_bytes|elapsed_seconds)": *[-+0-9.eE]+/"\1": #/g'
}

# run NAME LAUNCHER... -- ARGS...: `preemptcheck ARGS` under LAUNCHER; its exit status,
# stdout (masked) and the files written to $scratch/out (one directory for every run: a
# counterexample file names where it was written) in $scratch/NAME.result, its stderr in
# $scratch/NAME.stderr.
run() {
  name=$1
  shift
  launcher=""
  while [ "$1" != -- ]; do
    launcher="$launcher $1"
    shift
  done
  shift
  mkdir -p "$scratch/out"
  # shellcheck disable=SC2086 # the launcher's words are meant to split
  timeout 300 $launcher "$program" "$@" >"$scratch/$name.stdout" 2>"$scratch/$name.stderr"
  echo "exit $?" >"$scratch/$name.result"
  mask <"$scratch/$name.stdout" >>"$scratch/$name.result"
  for f in "$scratch"/out/*; do
    [ -e "$f" ] || continue
    echo "--- file $(basename "$f")" >>"$scratch/$name.result"
    cat "$f" >>"$scratch/$name.result"
    rm -f "$f"
  done
}
