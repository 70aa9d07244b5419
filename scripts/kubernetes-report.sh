#!/usr/bin/env bash
# Prints the table of what kube-scheduler guarantees: every committed scenario checked under a
# profile (default `kubernetes`), one property at a time, as a Markdown table. A cell is
# "holds" or the length of the shortest violating schedule.
#   usage: scripts/kubernetes-report.sh [PREEMPTCHECK_BINARY] [PROFILE...]
# With one profile the table has a column per property. With several (SPEC §7's comparison:
# `kubernetes kubernetes-1.32 kubernetes-1.35`) it has a row per scenario and property and a
# column per profile, side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/dev/cli/preemptcheck}
shift || true
profiles=("$@")
if [ ${#profiles[@]} -eq 0 ]; then profiles=(kubernetes); fi
properties=(no-double-victim no-double-claim no-overcommit no-over-preemption no-lost-wakeup expected-outcome no-pdb-overspend)

# One cell: the property under the profile on the scenario file.
cell() {
  local file=$1 profile=$2 property=$3 out code
  set +e
  out=$("$bin" check "$file" --profile "$profile" --property "$property" --max-states 30000000 --quiet)
  code=$?
  set -e
  case $code in
    0) echo "holds" ;;
    1) echo "violated ($(sed -n 's/^shortest schedule (\([0-9]*\) step.*/\1/p' <<<"$out") steps)" ;;
    3) echo "not proven (limit)" ;;
    *) echo "error $code" ;;
  esac
}

if [ ${#profiles[@]} -eq 1 ]; then
  printf '| scenario |'
  for p in "${properties[@]}"; do printf ' %s |' "$p"; done
  printf '\n|---|'
  for _ in "${properties[@]}"; do printf -- '---|'; done
  printf '\n'
  for file in scenarios/*.yaml; do
    printf '| %s |' "$(basename "$file" .yaml)"
    for p in "${properties[@]}"; do printf ' %s |' "$(cell "$file" "${profiles[0]}" "$p")"; done
    printf '\n'
  done
  exit 0
fi

printf '| scenario | property |'
for pr in "${profiles[@]}"; do printf ' `%s` |' "$pr"; done
printf '\n|---|---|'
for _ in "${profiles[@]}"; do printf -- '---|'; done
printf '\n'
for file in scenarios/*.yaml; do
  for p in "${properties[@]}"; do
    printf '| %s | %s |' "$(basename "$file" .yaml)" "$p"
    for pr in "${profiles[@]}"; do printf ' %s |' "$(cell "$file" "$pr" "$p")"; done
    printf '\n'
  done
done
