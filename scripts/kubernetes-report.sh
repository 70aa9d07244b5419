#!/usr/bin/env bash
# Prints the table of what kube-scheduler guarantees: every committed scenario checked under a
# profile (default `kubernetes`), one property at a time, as a Markdown table. A cell is
# "holds" or the length of the shortest violating schedule.
#   usage: scripts/kubernetes-report.sh [PREEMPTCHECK_BINARY] [PROFILE]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/dev/cli/preemptcheck}
profile=${2:-kubernetes}
properties=(no-double-victim no-double-claim no-overcommit no-over-preemption no-lost-wakeup expected-outcome)
printf '| scenario |'
for p in "${properties[@]}"; do printf ' %s |' "$p"; done
printf '\n|---|'
for _ in "${properties[@]}"; do printf -- '---|'; done
printf '\n'
for file in scenarios/*.yaml; do
  printf '| %s |' "$(basename "$file" .yaml)"
  for p in "${properties[@]}"; do
    set +e
    out=$("$bin" check "$file" --profile "$profile" --property "$p" --max-states 30000000 --quiet)
    code=$?
    set -e
    case $code in
      0) cell="holds" ;;
      1) cell="violated ($(sed -n 's/^shortest schedule (\([0-9]*\) step.*/\1/p' <<<"$out") steps)" ;;
      3) cell="not proven (limit)" ;;
      *) cell="error $code" ;;
    esac
    printf ' %s |' "$cell"
  done
  printf '\n'
done
