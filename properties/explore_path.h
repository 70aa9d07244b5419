// Explore path: what `preemptcheck explore` asks of the model — a path written as step words
// in a URL, the steps a person may ask about in a state (enabled or not, and why not), and the
// shortest violation of a property from a state the path reached (the checker's
// breadth-first search, started there). The server and the page only render these answers.
#pragma once

#include <atomic>
#include <bitset>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/action.h"
#include "impl/cluster.h"
#include "properties/schedule.h"
#include "spec/property.h"

namespace preemptcheck {

/// The most steps a path may have: as many as a counterexample file may hold.
inline constexpr std::size_t kMaxExplorePathSteps = 10'000;

/// A path's steps as words joined by commas, as the counterexample files write each step:
/// "schedule p-high,observe,flush"; "" for the initial state.
std::string format_path(const std::vector<Action>& actions, const Cluster& cluster);

/// Parses format_path()'s text (blanks around a step are ignored; an empty text is the empty
/// path). On an error returns nothing and sets `error` to what was expected, naming the step
/// by its 1-based number.
std::optional<std::vector<Action>> parse_path(std::string_view text, const Cluster& cluster,
                                              std::string& error);

/// Every step a person may ask about in a state of `cluster`, in action order: each kind
/// with every argument the scenario can give it (pods, nodes, PDBs; evict and evict-fails
/// with a preemptor of higher priority than its victim). The enabled steps of any state are
/// among them; the others are there to be explained (World::why_not_enabled).
std::vector<Action> askable_actions(const Cluster& cluster);

/// The outcome of shortest_violation_from().
struct ViolationSearch {
  bool found = false;
  std::vector<Action> steps;  ///< from the path's end to the violating step, when found
  std::string message;        ///< the property's message there, when found
  std::uint64_t states = 0;   ///< distinct states the search stored
  std::uint32_t depth = 0;    ///< the deepest level it reached
  std::string limit;          ///< the limit that stopped it, empty when it finished
};

/// The shortest continuation of `schedule` (ended, not blocked) that breaks `property`: the
/// checker's breadth-first search from the state after the schedule's last step, with the
/// monitors' memory of the path, checking `property` alone, within `max_states` and
/// `interrupt` (checker::Limits). A state property already broken where the path ends is
/// found at once (no steps).
/// `progress`, when set, is called about every half second with the states stored and the
/// depth reached so far.
ViolationSearch shortest_violation_from(
    const Schedule& schedule, spec::Property property, std::uint64_t max_states,
    const std::atomic<int>* interrupt,
    const std::function<void(std::uint64_t states, std::uint32_t depth)>& progress = {});

/// The first step of `schedule` (0: the initial state) at which property `name` broke, if it
/// did.
std::optional<std::size_t> first_break(const Schedule& schedule, std::string_view name);

/// The outcome of random_walk_from().
struct RandomWalk {
  std::vector<Action> steps;  ///< from the path's end
  std::string stopped;        ///< why the walk ended, in words
};

/// A random walk from the state after `schedule`'s last step: at most `depth` steps, each one
/// of the enabled steps chosen by a generator seeded with `seed` alone (the same seed, path
/// and depth give the same walk on every machine), every property checked on the way; it ends
/// at the first step that breaks a property, where no step is enabled, or at `depth`.
RandomWalk random_walk_from(const Schedule& schedule, std::uint64_t seed, std::uint32_t depth);

}  // namespace preemptcheck
