// The property table.
#include "spec/property.h"

namespace preemptcheck::spec {

const std::vector<PropertyDef>& property_table() {
  using P = Property;
  static const std::vector<PropertyDef> kTable = {
      {P::kNoDoubleVictim, "no-double-victim", false, P::kNoDoubleVictim,
       "a pod is never chosen as a victim while an earlier choice of it is still pending "
       "(chosen, not yet gone, the eviction not failed)"},
      {P::kNoDoubleClaim, "no-double-claim", false, P::kNoDoubleClaim,
       "when a cycle commits pod X to node N (assume, or nominate), X fits in N beside every "
       "standing nomination of priority >= X's and every pod on N that X's decision does not "
       "remove"},
      {P::kNoOvercommit, "no-overcommit", false, P::kNoOvercommit,
       "the pods bound to a node or being bound to it, terminating ones included, fit in its "
       "capacity"},
      {P::kNoOverPreemption, "no-over-preemption", false, P::kNoOverPreemption,
       "while a preemptor's nomination stands with victims pending, it never preempts on "
       "another node, and never evicts a pod it would not need once those victims are gone"},
      {P::kNoLostWakeup, "no-lost-wakeup", false, P::kNoLostWakeup,
       "when nothing but the periodic flush can happen, no pending pod could make progress "
       "(bind, or preempt) in a cycle"},
      {P::kExpectedOutcome, "expected-outcome", false, P::kExpectedOutcome,
       "once the cluster has settled (nothing but the periodic flush can happen, and it would "
       "change nothing), the pods the scenario's `expect:` names as bound are bound and those "
       "it names as not-bound are not (vacuous without `expect:`)"},
      {P::kNoPdbOverspend, "no-pdb-overspend", false, P::kNoPdbOverspend,
       "a preemption never takes from a PodDisruptionBudget more than it has left (its "
       "matching pods running and not terminating, less the victims other preemptions still "
       "have pending, less minAvailable) without counting the excess as PDB violations"},
      {P::kVictimsInFlight, "victims-in-flight", true, P::kNoDoubleVictim,
       "an executor job holds victims whose deletion has not been issued"},
      {P::kBusyNodeEvaluated, "busy-node-evaluated", true, P::kNoDoubleVictim,
       "a preemptor evaluates a node that holds another preemptor's pending victims"},
      {P::kTakeover, "takeover", true, P::kNoDoubleClaim,
       "a pod is committed to a node where a lower-priority pod holds a nomination"},
      {P::kNomineeBinds, "nominee-binds", true, P::kNoDoubleClaim,
       "a nominated pod is assumed on the node it was nominated to"},
      {P::kBindingBesideBinding, "binding-beside-binding", true, P::kNoOvercommit,
       "a pod is assumed on a node while another pod's binding to it is in flight"},
      {P::kPreemptorRetried, "preemptor-retried", true, P::kNoOverPreemption,
       "a preemptor runs a cycle again while its victims are still pending"},
      {P::kGatedPreemptorWoken, "gated-preemptor-woken", true, P::kNoLostWakeup,
       "a preemptor held at the PreEnqueue gate is moved to activeQ"},
  };
  return kTable;
}

const PropertyDef& property_def(Property p) { return property_table()[static_cast<size_t>(p)]; }

std::optional<Property> find_property(std::string_view name) {
  for (const PropertyDef& d : property_table()) {
    if (d.name == name)
      return d.id;
  }
  return std::nullopt;
}

}  // namespace preemptcheck::spec
