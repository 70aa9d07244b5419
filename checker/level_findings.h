// LevelFindings: the level core both level-synchronous searches share — what the steps of one
// level found, as one worker saw them (a thread of checker/level_explorer.h, or a rank of
// checker/mpi/distributed_explorer.h): per property the smallest step key that reached its
// witness, the smallest violating step (its observation and the fingerprint of the state it
// entered), per property its own smallest violating step, and the violating steps themselves
// when every violating state is recorded. Workers merge by taking the smaller key (threads in
// memory, ranks by MPI_Allreduce), so the findings are the same for every partition of the
// level.
//
// The stop rule, also here: the step key below which the level counts (stop_bound), and
// what the steps below it decide (decide_property). Both searches count only the steps below
// that key, which is what makes their results identical to the sequential search's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "checker/explore_result.h"
#include "checker/explore_types.h"
#include "checker/model.h"

namespace preemptcheck::checker::detail {

/// What the search asks of its findings, fixed for the whole search.
struct FindingsRule {
  bool per_property = false;
  bool stop_at_violation = true;

  /// Whether the search ends at the first violating step (neither per property nor past it).
  bool stops_at_first() const { return !per_property && stop_at_violation; }
  /// Whether every violating step's state is recorded (Result::violating_states).
  bool records_violating() const { return !stops_at_first(); }
};

/// What one worker found in one level; see the file comment.
struct LevelFindings {
  std::uint64_t first_key = kNoKey;  ///< the smallest violating step
  Observation first_obs;
  std::uint64_t first_fp = 0;
  std::vector<std::uint64_t> reached_key;   ///< per property, its smallest reaching step
  std::vector<std::uint64_t> property_key;  ///< per property, its smallest violating step
  std::vector<Observation> property_obs;
  std::vector<std::uint64_t> property_fp;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> violating;  ///< (key, fingerprint)

  /// Empties the findings for a level of a search over `properties` properties.
  void reset(std::size_t properties, const FindingsRule& rule) {
    first_key = kNoKey;
    first_obs = Observation();
    first_fp = 0;
    reached_key.assign(properties, kNoKey);
    property_key.assign(rule.per_property ? properties : 0, kNoKey);
    property_obs.assign(rule.per_property ? properties : 0, Observation());
    property_fp.assign(rule.per_property ? properties : 0, 0);
    violating.clear();
  }

  /// Notes step `key` into the state of fingerprint `fingerprint`, which observed `obs`;
  /// `decided` says per property whether its own counterexample is recorded already. Checks
  /// every property number the model named. A violating step goes into `violating` when the
  /// rule records violating states and `keep_violating` (a rank leaves that to the state's
  /// owner). Returns whether the step violated a property.
  bool note(const Observation& obs, std::uint64_t key, std::uint64_t fingerprint,
            const std::vector<PropertyInfo>& properties, const std::vector<bool>& decided,
            const FindingsRule& rule, bool keep_violating = true) {
    for (const std::size_t property : obs.reached) {
      check_property(property, properties);
      reached_key[property] = std::min(reached_key[property], key);
    }
    if (obs.violated.empty()) {
      return false;
    }
    for (const auto& [property, message] : obs.violated) {
      check_property(property, properties);
    }
    if (key < first_key) {
      first_key = key;
      first_obs = obs;
      first_fp = fingerprint;
    }
    if (rule.per_property) {
      for (const auto& [property, message] : obs.violated) {
        if (!decided[property] && key < property_key[property]) {
          property_key[property] = key;
          property_obs[property] = obs;
          property_fp[property] = fingerprint;
        }
      }
    }
    if (rule.records_violating() && keep_violating) {
      violating.emplace_back(key, fingerprint);
    }
    return true;
  }

  /// Adds what another worker found in the same level (and the same properties): the smaller
  /// key wins, with its observation and fingerprint; the violating steps are appended.
  void merge(const LevelFindings& other) {
    if (other.first_key < first_key) {
      first_key = other.first_key;
      first_obs = other.first_obs;
      first_fp = other.first_fp;
    }
    for (std::size_t p = 0; p < property_key.size() && p < other.property_key.size(); ++p) {
      if (other.property_key[p] < property_key[p]) {
        property_key[p] = other.property_key[p];
        property_obs[p] = other.property_obs[p];
        property_fp[p] = other.property_fp[p];
      }
    }
    for (std::size_t p = 0; p < reached_key.size() && p < other.reached_key.size(); ++p) {
      reached_key[p] = std::min(reached_key[p], other.reached_key[p]);
    }
    violating.insert(violating.end(), other.violating.begin(), other.violating.end());
  }
};

/// The step key that ends the search in this level, from the level's smallest violating
/// step (`first`) and per property its own (`own`, empty unless per property), over every
/// worker: one past the first violation when the search stops there; with per-property
/// results, one past the last of the own first violations once every one of the `remaining`
/// undecided properties has one; otherwise kNoKey (the level does not end the search).
inline std::uint64_t stop_bound(std::uint64_t first, const std::vector<std::uint64_t>& own,
                                std::size_t remaining, const FindingsRule& rule) {
  if (rule.per_property) {
    std::uint64_t last = 0;
    std::size_t newly = 0;
    for (const std::uint64_t key : own) {
      if (key != kNoKey) {
        ++newly;
        last = std::max(last, key);
      }
    }
    return remaining > 0 && newly == remaining ? last + 1 : kNoKey;
  }
  return rule.stop_at_violation && first != kNoKey ? first + 1 : kNoKey;
}

/// Records property `property`'s own counterexample: it is decided, and one fewer `always`
/// property remains.
template <class Action>
void decide_property(Result<Action>& result, std::vector<bool>& decided, std::size_t& remaining,
                     std::size_t property, Violation<Action> violation) {
  decided[property] = true;
  --remaining;
  result.property_results[property].status = PropertyStatus::kViolated;
  result.property_results[property].violation = std::move(violation);
}

/// Marks the witnesses reached by a step below `bound` (`reached_key`, the smallest reaching
/// step per property over every worker).
template <class Action>
void note_witnesses(Result<Action>& result, const std::vector<std::uint64_t>& reached_key,
                    std::uint64_t bound) {
  for (std::size_t p = 0; p < reached_key.size() && p < result.reached.size(); ++p) {
    if (reached_key[p] < bound) {
      result.reached[p] = true;
    }
  }
}

/// A state that a violation entered, known by its fingerprint until the search ends (the
/// visited sets hold no ids), and what it is named for.
enum class Unnamed { kViolatingState, kViolation, kPropertyViolation };
struct UnnamedState {
  Unnamed what;
  std::size_t property;
  std::uint64_t fingerprint;
};

/// Names the state `u` stands for by its id `id`, once the search has found it in the trace.
template <class Action>
void name_state(Result<Action>& result, const UnnamedState& u, std::uint32_t id) {
  switch (u.what) {
    case Unnamed::kViolatingState:
      result.violating_states.push_back(id);
      break;
    case Unnamed::kViolation:
      result.violation->state = id;
      break;
    case Unnamed::kPropertyViolation:
      result.property_results[u.property].violation->state = id;
      break;
  }
}

}  // namespace preemptcheck::checker::detail
