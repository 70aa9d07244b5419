// Show: words for a World and for a step — the one-line comment beside each step of a
// trace, the labelled state lines `replay` prints, the short label of a state in a graph —
// so a new World field is rendered in one place.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "impl/world.h"

namespace preemptcheck {

/// Labelled lines, e.g. {"activeQ", "p-high, p-low"}.
using StateLines = std::vector<std::pair<std::string, std::string>>;

/// What a step did, e.g. "p-high does not fit; preempts v1 on node-a; nominated to node-a".
std::string describe_step(const World& before, const StepReport& step, const World& after);

/// The names of the pods in a set, in pod order, joined by `separator`; empty for none.
std::string pod_names(const Cluster& cluster, PodSet pods, std::string_view separator = ", ");

/// `text` unless it is empty, else `none`.
std::string or_none(std::string text, std::string_view none = "none");

/// "p-high: v1, v2; p-mid: v3" over the pods whose `of` is not empty; "none" when all are.
std::string per_pod(const Cluster& cluster, const std::function<std::string(PodId)>& of);

/// The words for a job phase: a phrase for state lines and one word for graph labels.
struct PhaseWords {
  std::string_view text;  ///< "evicting the last victim"
  std::string_view word;  ///< "last"
};
PhaseWords phase_words(JobPhase phase);

/// Job index i of w in words: "p on node-a: evicting, to evict v1, last v2".
std::string job_text(const World& w, std::size_t i);

/// pdb-status=lagged: what a `pdb-sync` of PDB b did, and every PDB's published status
/// ("web: web-1, web-2 healthy, DisruptionsAllowed 1"); defined in show_words.cc.
std::string pdb_sync_text(const World& before, const World& after, std::size_t b);
std::string pdb_status_text(const World& w);

/// The whole state of a World as labelled lines, in a fixed order, one per component (each
/// pod's API object, informer copy, nomination and binding; the queue; the scheduling cycle
/// in flight (cycle=split); the in-flight set and the preemptors waiting for their own
/// victims; pending events; jobs), then the lines of `memory` (what a monitor remembers about
/// the path), then the fault budget when the scenario has one. A line that only some states
/// have (the cycle in flight, the waiting preemptors, requests sent before a restart) is left
/// out when empty; keys are unique. Of the fields World::fingerprint digests, two are not
/// shown: the pods' start order and the last object of a deleted pod ("absent").
StateLines state_lines(const World& w, const StateLines& memory = {});

/// A state as a short label of three lines: the queues (activeQ, unschedulable pool,
/// gated), each node's pods as the API server has them (`~` terminating, `+` binding in
/// flight), and the jobs with the number of pending events.
std::string state_label(const World& w);

}  // namespace preemptcheck
