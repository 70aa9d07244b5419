#!/usr/bin/env bash
# Determinism, checked: the same input gives the same output, byte for byte, outside timing
# and memory figures.
#
#   usage: scripts/determinism.sh repeat BINARY          each command twice with BINARY
#          scripts/determinism.sh builds BINARY_A BINARY_B  each command with both binaries
#
# The commands: `check --quiet` of every scenarios/*.yaml (human and --json output; the
# progress line on standard error depends on time), `search` with a
# fixed seed (human and --json), and `replay` of every counterexamples/*.yaml. Standard output,
# standard error and the exit code are compared. `builds` with a missing binary skips: it
# prints why and exits 0 (CI runs it after both the `ci` and `sanitize` workflows built).
#
# The progress lines on standard error (one every few seconds, so their number depends on the
# build's speed) are dropped. Masked before comparing (the only figures allowed to differ
# between runs): every number
# followed by a time or memory unit, and the JSON fields that hold times, rates and sizes:
#   [0-9][0-9,.]*(e[-+]?[0-9]+)? ?(ns|us|µs|ms|s|min|B|KiB|MiB|GiB|kB|MB|GB|states/s)\b  → #
#   "(seconds|states_per_second|peak_rss_bytes|memory_bytes|elapsed_seconds)": NUMBER      → #
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
case $mode in
  repeat) (($# == 2)) || { echo "usage: scripts/determinism.sh repeat BINARY" >&2; exit 2; }
          a=$2; b=$2 ;;
  builds) (($# == 3)) || { echo "usage: scripts/determinism.sh builds BINARY_A BINARY_B" >&2; exit 2; }
          a=$2; b=$3
          for bin in "$a" "$b"; do
            if [[ ! -x $bin ]]; then
              echo "determinism: skipped, $bin is not built (both builds are needed to compare them)"
              exit 0
            fi
          done ;;
  *) echo "usage: scripts/determinism.sh repeat BINARY | builds BINARY_A BINARY_B" >&2; exit 2 ;;
esac

mask() {
  sed -E \
    -e '/^progress   /d' \
    -e 's/[0-9][0-9,.]*(e[-+]?[0-9]+)? ?(ns|us|µs|ms|s|min|B|KiB|MiB|GiB|kB|MB|GB|states\/s)\b/#/g' \
    -e 's/"(seconds|states_per_second|peak_rss_bytes|memory_bytes|elapsed_seconds)": *[-+0-9.eE]+/"\1": #/g'
}

# One run: "exit N", standard output, then standard error, masked.
run() {
  local bin=$1
  shift
  local out err status=0
  out=$(mktemp)
  err=$(mktemp)
  "$bin" "$@" >"$out" 2>"$err" || status=$?
  { echo "exit $status"; mask <"$out"; echo "--- stderr"; mask <"$err"; } 
  rm -f "$out" "$err"
}

commands=()
for f in scenarios/*.yaml; do
  commands+=("check $f --quiet" "check $f --json --quiet")
done
commands+=("search --seed 7 --runs 40" "search --seed 7 --runs 40 --json"
           "search --seed 3 --runs 20 --stateful")
for f in counterexamples/*.yaml; do
  commands+=("replay $f")
done

differ=0
report=$(mktemp)
trap 'rm -f "$report"' EXIT
for c in "${commands[@]}"; do
  read -r -a words <<<"$c"
  if ! diff <(run "$a" "${words[@]}") <(run "$b" "${words[@]}") >"$report" 2>&1; then
    differ=$((differ + 1))
    echo "determinism: DIFFERS: preemptcheck $c"
    head -20 "$report"
  fi
done
if ((differ)); then
  echo "determinism: $differ of ${#commands[@]} commands gave different output"
  exit 1
fi
echo "determinism: ${#commands[@]} commands gave the same output ($mode)"
