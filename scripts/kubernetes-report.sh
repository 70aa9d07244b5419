#!/usr/bin/env bash
# Prints the table of what kube-scheduler guarantees: every committed scenario checked under a
# profile (default `kubernetes`), as a Markdown table. A cell is "holds", the length of the
# property's shortest violating schedule, or "not proven (limit)".
#   usage: scripts/kubernetes-report.sh [PREEMPTCHECK_BINARY] [PROFILE...]
# With one profile the table has a column per property. With several (SPEC §7's comparison:
# `kubernetes kubernetes-1.32 kubernetes-1.35`) it has a row per scenario and property and a
# column per profile, side by side.
#
# Each scenario is checked once per profile, every property in one run (`check --json`): a
# breadth-first search that goes on past violations reports, for each violated property, a
# shortest schedule violating it, as a check of that property alone would (pinned by
# `cliThreads.EachViolatedPropertysCounterexampleIsAsShortAsItsOwnCheck`). A run that stops at
# the state limit leaves every property it has not seen violated "not proven (limit)".
# Environment: MAX_STATES (default 30000000), THREADS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/dev/cli/preemptcheck}
shift || true
profiles=("$@")
if [ ${#profiles[@]} -eq 0 ]; then profiles=(kubernetes); fi
max_states=${MAX_STATES:-30000000}
threads=${THREADS:-2}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# One run: "PROPERTY<TAB>CELL" lines for the scenario file under the profile, in the order
# the command reports the properties.
cells() {
  local file=$1 profile=$2 code=0
  "$bin" check "$file" --profile "$profile" --json --quiet --max-states "$max_states" \
    --threads "$threads" >"$scratch/out.json" 2>"$scratch/err" || code=$?
  if [ "$code" -gt 3 ] || [ "$code" -eq 2 ]; then
    echo "kubernetes-report: check $file --profile $profile exited $code:" >&2
    cat "$scratch/err" >&2
    exit 1
  fi
  python3 - "$scratch/out.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for p in doc["properties"]:
    if p["kind"] != "safety":
        continue
    v = p["verdict"]
    if v == "violated":
        cell = "violated (%d steps)" % len(p["steps"])
    elif v == "holds":
        cell = "holds"
    elif v == "incomplete":
        cell = "not proven (limit)"
    else:
        cell = v
    print("%s\t%s" % (p["name"], cell))
PY
}

# Every run first, one file per scenario and profile.
for file in scenarios/*.yaml; do
  for pr in "${profiles[@]}"; do
    cells "$file" "$pr" >"$scratch/$(basename "$file" .yaml).$pr"
  done
done
mapfile -t properties < <(cut -f1 "$scratch/$(basename "$(ls scenarios/*.yaml | head -1)" .yaml).${profiles[0]}")
cell() { awk -F'\t' -v p="$3" '$1 == p { print $2 }' "$scratch/$1.$2"; }

if [ ${#profiles[@]} -eq 1 ]; then
  printf '| scenario |'
  for p in "${properties[@]}"; do printf ' %s |' "$p"; done
  printf '\n|---|'
  for _ in "${properties[@]}"; do printf -- '---|'; done
  printf '\n'
  for file in scenarios/*.yaml; do
    s=$(basename "$file" .yaml)
    printf '| %s |' "$s"
    for p in "${properties[@]}"; do printf ' %s |' "$(cell "$s" "${profiles[0]}" "$p")"; done
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
  s=$(basename "$file" .yaml)
  for p in "${properties[@]}"; do
    printf '| %s | %s |' "$s" "$p"
    for pr in "${profiles[@]}"; do printf ' %s |' "$(cell "$s" "$pr" "$p")"; done
    printf '\n'
  done
done
