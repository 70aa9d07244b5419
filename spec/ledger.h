// Ledger: what the property monitors remember about the path to a state — the victims each
// preemptor chose that are still pending, and each pod's standing nomination. kube-scheduler
// holds neither (its in-flight set forgets a victim once the informer shows it terminating;
// its nominator follows the API), so they live here, beside the predicates that read them,
// and are fed only from each step's StepReport.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "impl/pod_array.h"
#include "impl/show.h"
#include "impl/world.h"
#include "impl/world_fields.h"

namespace preemptcheck::spec {

class Ledger {
 public:
  /// Nothing chosen and nothing nominated: the memory of a scenario's initial World.
  explicit Ledger(const Cluster& cluster);

  /// Victims chosen by preemptor p, not yet gone from the API server, whose eviction has
  /// not been given up after a failure.
  PodSet chosen_by(PodId p) const { return chosen_by_[p]; }
  /// Victims chosen by every preemptor but `except`.
  PodSet chosen_by_others(PodId except) const;
  /// p's standing nomination: decided in a cycle, not yet consumed (p bound, or found no
  /// candidate), revoked (a higher-priority preemption on its node was decided, or the
  /// executor cleared it) or ended (p deleted).
  NodeId standing_nomination(PodId p) const { return standing_[p]; }

  /// The busy-node-evaluated witness: the nodes (as bits) that step's cycle evaluated for
  /// preemption while they held another preemptor's pending victims and could fit the pod.
  /// `before` is the World the step started from, which this ledger describes.
  std::uint64_t busy_nodes_evaluated(const World& before, const StepReport& step) const;

  /// Remembers what `step` decided; `after` is the World it reached.
  void record(const StepReport& step, const World& after);

  /// The ledger's lines for a state dump ("chosen victims", "standing nominations").
  StateLines lines(const Cluster& cluster) const;

  /// Extends a World's fingerprint with the ledger's words.
  std::uint64_t fingerprint(std::uint64_t world_fingerprint) const;

  /// This ledger with pod p renamed to[p] in every field, as the list below says (symmetry
  /// reduction, properties/symmetry.h); `to` is a permutation of the cluster's pods.
  Ledger renamed(const PodRenaming& to) const;
  /// The ledger's members as a list, with what each holds.
  struct Fields;

  friend bool operator==(const Ledger&, const Ledger&) = default;

 private:
  // Each member is listed, with what it holds, in PREEMPTCHECK_LEDGER_FIELDS below.
  PodArray<PodSet> chosen_by_;
  PodArray<NodeId> standing_;
};

// Every data member of Ledger, in declaration order: X(member, kind), the kinds of
// impl/world_fields.h.
#define PREEMPTCHECK_LEDGER_FIELDS(X) \
  X(chosen_by_, kPerPodPods)          \
  X(standing_, kPerPod)

/// The list as data, for the coverage check below.
struct Ledger::Fields {
#define PREEMPTCHECK_LEDGER_FIELD_INFO(member, kind)         \
  FieldInfo{#member,                                         \
            offsetof(Ledger, member),                        \
            sizeof(Ledger::member),                          \
            FieldKind::kind,                                 \
            FieldWhen::kAlways,                              \
            FieldStorageOf<decltype(Ledger::member)>::value, \
            FieldStorageOf<decltype(Ledger::member)>::element},
  static constexpr std::array kTable = {PREEMPTCHECK_LEDGER_FIELDS(PREEMPTCHECK_LEDGER_FIELD_INFO)};
#undef PREEMPTCHECK_LEDGER_FIELD_INFO
};

static_assert(std::has_unique_object_representations_v<Ledger>, "a Ledger has no padding");
static_assert(fields_cover(Ledger::Fields::kTable, sizeof(Ledger)),
              "every data member of Ledger is listed in PREEMPTCHECK_LEDGER_FIELDS, in "
              "declaration order");

}  // namespace preemptcheck::spec
