// Liveness (SPEC §4a): what must eventually happen, over infinite runs, and the fairness the
// runs are judged under — the scheduler keeps running (its own steps, the informer's and the
// kubelet's are weakly fair), while faults, arrivals and other components may act or not.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/action.h"
#include "impl/world.h"

namespace preemptcheck::spec {

/// A liveness property by name, with its statement.
struct LivenessDef {
  std::string_view name;
  std::string_view statement;
};

/// no-starvation: GF (P pending, and a cycle would bind it or let it preempt) -> F (P bound
/// or gone), for every pod P.
inline constexpr std::string_view kNoStarvation = "no-starvation";

/// Every liveness property.
const std::vector<LivenessDef>& liveness_table();

/// Whether `name` is a liveness property.
bool is_liveness_property(std::string_view name);

/// Whether P is pending: created, not bound, not being deleted.
bool is_pending(const World& w, PodId p);

/// Whether P's obligation is met: bound, or gone (deleted, or never created is not gone).
bool is_placed_or_gone(const World& w, PodId p);

/// Whether P is pending, not being bound, and a cycle run for it now would bind it or let it
/// preempt at least one victim (the no-lost-wakeup condition, asked of every pending pod).
bool could_progress(const World& w, PodId p);

/// Whether steps of this kind are weakly fair: the scheduler's own (cycles, bindings, the
/// executor's calls, flushes, backoff expiry), the informer's deliveries and the kubelet's
/// terminations. Faults, arrivals, restarts and other components' bindings are not.
bool is_fair(ActionKind kind);

/// The fairness class of an action: its text, when its kind is fair (each action its own
/// class, as TLA+'s WF per action); none otherwise.
std::optional<std::string> fair_class(const Action& a, const Cluster& cluster);

/// no-starvation's message for pod P.
std::string starvation_message(const Cluster& cluster, PodId p);

}  // namespace preemptcheck::spec
