#!/bin/sh
# Regenerates every counterexample in this folder, each written by `preemptcheck check --out`
# (never by hand), and the picture of one of them when Graphviz's `dot` is installed.
#
# usage: counterexamples/regenerate.sh [PREEMPTCHECK]
#   PREEMPTCHECK  the built binary (default: build/dev/cli/preemptcheck)
#
# Also available as the build target `regenerate-counterexamples`. The list here and the one
# in counterexamples/CMakeLists.txt must name the same files: configuring fails otherwise.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/dev/cli/preemptcheck}
case $bin in
  /*) ;;
  *) bin=$(pwd)/$bin ;;
esac
if [ ! -x "$bin" ]; then
  echo "regenerate.sh: no preemptcheck binary at $bin; build first (cmake --build --preset dev)" >&2
  exit 2
fi

# Paths stay relative to the repository root, so the files name no machine's folders.
cd "$root"
rm -f counterexamples/*.yaml

# check SCENARIO-ARGS...: one violation (the first, --stop-at-first), written to
# counterexamples/. Exit 1 is the expected outcome (a property is violated); anything else is
# an error.
check() {
  if "$bin" check "$@" --out counterexamples --stop-at-first --quiet >/dev/null; then rc=0; else rc=$?; fi
  if [ "$rc" -ne 1 ]; then
    echo "regenerate.sh: 'preemptcheck check $*' exited $rc, expected 1 (a violation)" >&2
    exit 1
  fi
}

# check_liveness SCENARIO-ARGS...: a lasso counterexample to no-starvation (`check --liveness`,
# which builds the whole graph and so takes no --stop-at-first), written to counterexamples/.
check_liveness() {
  if "$bin" check "$@" --liveness --out counterexamples --quiet >/dev/null; then rc=0; else rc=$?; fi
  if [ "$rc" -ne 1 ]; then
    echo "regenerate.sh: 'preemptcheck check $* --liveness' exited $rc, expected 1 (a lasso)" >&2
    exit 1
  fi
}

# The races of the switch table (counterexamples/README.md explains each).
check --inflight=off
check scenarios/nomination-window.yaml --nomination=async
check scenarios/assume-window.yaml --assume=off --property no-overcommit
check scenarios/g2-single-victim.yaml --gate=hold-until-done --activate-on-finish=off
check scenarios/g2-single-victim.yaml --profile kubernetes --gate=release-before-last
check scenarios/g4-higher-takeover.yaml --inflight=preemptor-only
check scenarios/binding-in-flight.yaml --activate-on-finish=off
check scenarios/early-gate.yaml --profile kubernetes-1.32 --property no-over-preemption
check scenarios/g3-lower-no-takeover.yaml --assume=off --property expected-outcome
# #141694, under today's kube-scheduler.
check scenarios/g1-basic.yaml --profile kubernetes --property no-lost-wakeup
# #141694 along its reported path: the deletion arrives while the redundant cycle is in flight.
check scenarios/in-flight-deletion.yaml --profile kubernetes --cycle=split --property no-lost-wakeup
# A stale informer update undoes a newer in-memory nomination.
check scenarios/three-preemptors.yaml --stale-nomination=apply --property no-double-claim
# PR #142294 on today's kube-scheduler: activated before the informer catches up.
check scenarios/g2-single-victim.yaml --profile kubernetes --activate-on-finish=on
# #134859: a pod nominated by kube-scheduler is bound by another component.
check scenarios/external-binding.yaml --profile kubernetes --property no-lost-wakeup
# #138268's flake (TestAsyncPreemption's G5): a lower-priority preemptor on the same node.
check scenarios/g5-lower-same-node.yaml --profile kubernetes --property no-lost-wakeup
# A worker chooses the victim an equal-priority worker already chose (FIDELITY §3 F10).
check scenarios/equal-priority-workers.yaml --profile kubernetes --property no-double-victim
# With the API dispatcher an older nomination patch is sent and delivered after the pod was
# re-nominated elsewhere (FIDELITY §3 F12).
check scenarios/g7-higher-takes-place.yaml --profile kubernetes-1.35 --property no-double-claim
# #91492: two preemptions spend one PodDisruptionBudget; the second reads a budget that still
# counts the first one's victim (FIDELITY §3 F17).
check scenarios/pdb-budget-race.yaml --profile kubernetes --pdb-status=lagged --property no-pdb-overspend
# #140082: a victim waiting at Permit or in PreBind is preempted in memory; before PR #140054
# nothing activates the preemptor whose gate used up its binding cycle's move (FIDELITY §3 F16).
check scenarios/binding-in-flight.yaml --profile kubernetes-prebind --activate-in-memory=off --property no-lost-wakeup
check scenarios/binding-in-flight.yaml --profile kubernetes-prebind --property no-double-victim
# #130429: a second scheduler puts the re-created victim back; the preemptor loops forever.
check_liveness scenarios/returning-victim.yaml --profile kubernetes-1.35

# One picture: the whole state graph of a lost wake-up, its counterexample drawn bold.
if command -v dot >/dev/null 2>&1; then
  dotfile=$(mktemp)
  trap 'rm -f "$dotfile"' EXIT
  "$bin" graph scenarios/g2-single-victim.yaml --gate=hold-until-done --activate-on-finish=off \
    --dot "$dotfile" \
    --svg counterexamples/no-lost-wakeup--g2-single-victim--gate-hold-until-done--activate-on-finish-off.svg \
    >/dev/null
else
  echo "regenerate.sh: Graphviz's dot is not installed; the picture was not redrawn" >&2
fi

ls counterexamples/*.yaml
