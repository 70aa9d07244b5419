// RankCommit: the owner's side of a level of the distributed search — the successors a rank
// receives, kept per new fingerprint with their smallest key (and the flagged violating steps, when
// every violating state is recorded); at the end of the level, the new states of every rank
// numbered in the sequential order (keys sent to the rank owning their parent-id block, merged,
// offset by an exclusive scan), the step at which the sequential search would stop found over all
// ranks (first violation, each property's own first violation, or the first state past max_states)
// and the states, violations, witnesses and steps below it recorded; and the counterexamples,
// their parent links walked across the ranks (one collective per step) and the model re-run
// along them.
// Built on RankSearch (checker/mpi/rank_search.h); DistributedExplorer
// (checker/mpi/distributed_explorer.h) builds on it.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "checker/explore_result.h"
#include "checker/mpi/rank_search.h"
#include "checker/mpi/state_codec.h"
#include "checker/store/rank_visited_set.h"

namespace preemptcheck::checker::detail {

/// See the file comment.
template <Model M>
class RankCommit : protected RankSearch<M> {
 public:
  using RankSearch<M>::RankSearch;

 protected:
  using typename RankSearch<M>::State;
  using typename RankSearch<M>::Action;
  using Base = RankSearch<M>;
  using Base::action_;
  using Base::all_decided;
  using Base::candidates_;
  using Base::capacity_;
  using Base::clock_;
  using Base::codec_;
  using Base::count_;
  using Base::decided_;
  using Base::error_;
  using Base::findings_;
  using Base::frontier_;
  using Base::frontier_total_;
  using Base::ids_;
  using Base::kMaxIds;
  using Base::kPacked;
  using Base::kRaw;
  using Base::kRoundParents;
  using Base::kStopError;
  using Base::kStopInterrupt;
  using Base::kStopMemory;
  using Base::kStopOom;
  using Base::kStopTime;
  using Base::kViolatingBit;
  using Base::level_bytes_;
  using Base::level_size_;
  using Base::level_start_;
  using Base::level_start_checks;
  using Base::limits_;
  using Base::memory_bytes;
  using Base::model_;
  using Base::next_progress_;
  using Base::oom_;
  using Base::opts_;
  using Base::owner;
  using Base::parent_;
  using Base::raise_failure;
  using Base::rank_;
  using Base::ranks_;
  using Base::remaining_;
  using Base::report_progress;
  using Base::result_;
  using Base::round_checks;
  using Base::rule_;
  using Base::size_;
  using Base::stop_for;
  using Base::stops_at_first;
  using Base::succ_;
  using Base::threads_;
  using Base::transitions_;
  using Base::visited_;
  using typename Base::Candidate;

  void receive(const std::vector<std::byte>& in);
  std::vector<std::uint64_t> global_positions(const std::vector<std::uint64_t>& keys) const;
  bool commit();
  std::uint64_t local_steps_below(std::uint64_t key) const;
  Violation<Action> pick_violation(std::uint64_t key, std::uint64_t local_key,
                                   const Observation& local_obs, std::uint64_t local_fp,
                                   std::optional<std::size_t> property);
  std::vector<Action> path_through(std::uint32_t id, std::size_t last) const;
  std::vector<std::uint32_t> violating_ids(std::uint64_t bound) const;
};

// Keeps, per fingerprint not yet visited, the smallest key and one encoding.
template <Model M>
void RankCommit<M>::receive(const std::vector<std::byte>& in) {
  std::size_t at = 0;
  while (at < in.size()) {
    const std::uint64_t fingerprint = read_u64(in.data() + at);
    const std::uint64_t key = read_u64(in.data() + at + 8);
    const std::uint64_t word = read_u64(in.data() + at + 16);
    const std::uint64_t length = word & ~kViolatingBit;
    const std::byte* bytes = in.data() + at + 24;
    at += 24 + length;
    if ((word & kViolatingBit) != 0) {
      findings_.violating.emplace_back(key, fingerprint);
    }
    if (visited_.find(fingerprint) != VisitedSet::kNoId) {
      continue;
    }
    auto [it, inserted] = candidates_.try_emplace(fingerprint);
    if (inserted) {
      it->second = {key, level_bytes_.size(), length};
      level_bytes_.insert(level_bytes_.end(), bytes, bytes + length);
    } else if (key < it->second.key) {
      it->second.key = key;
      if constexpr (!kPacked && !kRaw) {
        // Keep the winning path, so that the stored paths are the shortest-path tree's.
        it->second.at = level_bytes_.size();
        it->second.length = length;
        level_bytes_.insert(level_bytes_.end(), bytes, bytes + length);
      }
    }
  }
}

// Gives the new states their global ids (in key order over all ranks); returns them in
// the order of `keys` (ascending).
template <Model M>
std::vector<std::uint64_t> RankCommit<M>::global_positions(
    const std::vector<std::uint64_t>& keys) const {
  // The parent ids of this level are split into size_ contiguous blocks, one per rank.
  const auto block_of = [&](std::uint64_t key) {
    const std::uint64_t parent = key_parent(key) - level_start_;
    return static_cast<int>(parent * static_cast<std::uint64_t>(size_) / level_size_);
  };
  std::vector<std::vector<std::uint64_t>> out(size_);
  for (const std::uint64_t key : keys) {
    out[block_of(key)].push_back(key);
  }
  std::vector<std::size_t> from;
  const std::vector<std::uint64_t> in = ranks_.exchange(out, from);
  // Every key is unique over the ranks: its position in the block is its rank in `in`.
  std::vector<std::uint64_t> sorted = in;
  std::sort(sorted.begin(), sorted.end());
  std::uint64_t total = sorted.size();
  std::uint64_t offset = 0;
  MPI_Exscan(&total, &offset, 1, MPI_UINT64_T, MPI_SUM, ranks_.comm());
  if (rank_ == 0) {
    offset = 0;
  }
  std::vector<std::vector<std::uint64_t>> back(size_);
  for (int r = 0; r < size_; ++r) {
    for (std::size_t i = from[r]; i < from[r + 1]; ++i) {
      const auto position = static_cast<std::uint64_t>(
          std::lower_bound(sorted.begin(), sorted.end(), in[i]) - sorted.begin());
      back[r].push_back(offset + position);
    }
  }
  std::vector<std::size_t> unused;
  std::vector<std::uint64_t> positions_by_block = ranks_.exchange(back, unused);
  // Replies arrive by block, and within a block in the order the keys were sent; keys
  // were sent in ascending order and blocks ascend with keys, so this is `keys`' order.
  return positions_by_block;
}

// Ends the level: numbers the new states, finds where the sequential search stops in it,
// records everything before that point. Returns whether the search goes on.
template <Model M>
bool RankCommit<M>::commit() {
  struct Entry {
    std::uint64_t key;
    std::uint64_t fingerprint;
    const Candidate* candidate;
  };
  std::vector<Entry> entries;
  entries.reserve(candidates_.size());
  for (const auto& [fingerprint, candidate] : candidates_) {
    entries.push_back({candidate.key, fingerprint, &candidate});
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& x, const Entry& y) { return x.key < y.key; });
  std::vector<std::uint64_t> keys;
  keys.reserve(entries.size());
  for (const Entry& e : entries) {
    keys.push_back(e.key);
  }
  const std::vector<std::uint64_t> positions = global_positions(keys);
  const std::uint64_t total = ranks_.all_sum(entries.size());

  // The step that ends the search in this level, if any: the first violation, or with
  // per-property results the last of the remaining properties' own first violations.
  const std::uint64_t first = ranks_.all_min(findings_.first_key);
  std::vector<std::uint64_t> picks;
  if (rule_.per_property) {
    picks = ranks_.all_min(findings_.property_key);
  }
  std::uint64_t bound = stop_bound(first, picks, remaining_, rule_);
  bool max_states = false;
  if (count_ + total > capacity_) {
    std::uint64_t local_cut = kNoKey;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (count_ + positions[i] >= capacity_) {
        local_cut = std::min(local_cut, entries[i].key);
      }
    }
    const std::uint64_t cut = ranks_.all_min(local_cut);
    if (cut < bound) {
      bound = cut;
      max_states = true;
    }
  }
  const auto admitted =
      static_cast<std::size_t>(std::lower_bound(keys.begin(), keys.end(), bound) - keys.begin());
  const std::uint64_t admitted_total = ranks_.all_sum(admitted);
  const std::uint64_t steps = ranks_.all_sum(local_steps_below(bound));
  const bool go_on = bound == kNoKey;

  // Store the admitted states and the next frontier.
  EncodedFrontier next;
  visited_.reserve(admitted);
  for (std::size_t r = 0; r < admitted; ++r) {
    const Entry& e = entries[r];
    const auto id = static_cast<std::uint32_t>(count_ + positions[r]);
    visited_.add(e.fingerprint);
    ids_.push_back(id);
    parent_.push_back(static_cast<std::uint32_t>(key_parent(e.key)));
    action_.push_back(key_action(e.key));
    if (go_on) {
      next.push({level_bytes_.data() + e.candidate->at, e.candidate->length}, id);
    }
  }
  candidates_.clear();
  level_bytes_.clear();
  level_bytes_.shrink_to_fit();

  // Witnesses, violating states and violations below the bound.
  note_witnesses(result_, ranks_.all_min(findings_.reached_key), bound);
  if (!stops_at_first()) {
    const std::vector<std::uint32_t> violating = violating_ids(bound);
    result_.violating_states.insert(result_.violating_states.end(), violating.begin(),
                                    violating.end());
  }
  if (!result_.violation && first < bound) {
    result_.violation = pick_violation(first, findings_.first_key, findings_.first_obs,
                                       findings_.first_fp, std::nullopt);
    if (stops_at_first()) {
      result_.violating_states.push_back(result_.violation->state);
    }
  }
  for (std::size_t p = 0; p < picks.size(); ++p) {
    if (picks[p] < bound) {
      decide_property(result_, decided_, remaining_, p,
                      pick_violation(picks[p], findings_.property_key[p], findings_.property_obs[p],
                                     findings_.property_fp[p], p));
    }
  }
  transitions_ += steps;
  if (admitted_total > 0) {
    result_.level_starts.push_back(static_cast<std::uint32_t>(count_));
  }
  count_ += admitted_total;
  if (max_states) {
    result_.limit = kMaxStatesLimit;
  }
  frontier_ = std::move(next);
  frontier_total_ = go_on ? admitted_total : 0;
  succ_.clear();
  return go_on;
}

// Steps out of this rank's frontier states whose key is below `key`.
template <Model M>
std::uint64_t RankCommit<M>::local_steps_below(std::uint64_t key) const {
  std::uint64_t steps = 0;
  const std::uint64_t parent = key == kNoKey ? kNoKey : key_parent(key);
  for (std::size_t i = 0; i < frontier_.size(); ++i) {
    if (frontier_.ids[i] < parent) {
      steps += succ_[i];
    } else if (frontier_.ids[i] == parent) {
      steps += std::min<std::uint64_t>(key_action(key), succ_[i]);
    }
  }
  return steps;
}

// The global ids of the states that this level's violating steps below `bound` entered,
// over all ranks (each rank finds those of the states it owns), the same on every rank.
template <Model M>
std::vector<std::uint32_t> RankCommit<M>::violating_ids(std::uint64_t bound) const {
  std::vector<std::uint32_t> mine;
  for (const auto& [key, fingerprint] : findings_.violating) {
    if (key < bound) {
      mine.push_back(ids_[visited_.find(fingerprint)]);
    }
  }
  std::sort(mine.begin(), mine.end());
  mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
  return ranks_.all_gather(mine);
}

// The counterexample of the violating step `key` (the smallest over the ranks of the
// `local_key`s; the rank whose own it is holds its observation and fingerprint), leading
// with `property` or else with the first property the step violated; the same on every
// rank.
template <Model M>
auto RankCommit<M>::pick_violation(std::uint64_t key, std::uint64_t local_key,
                                   const Observation& local_obs, std::uint64_t local_fp,
                                   std::optional<std::size_t> property) -> Violation<Action> {
  const int holder = static_cast<int>(
      ranks_.all_min(local_key == key ? static_cast<std::uint64_t>(rank_)
                                      : std::numeric_limits<std::uint64_t>::max()));
  std::uint64_t fingerprint = local_fp;
  MPI_Bcast(&fingerprint, 1, MPI_UINT64_T, holder, ranks_.comm());
  Observation obs;
  const std::string messages = ranks_.broadcast(encode_observation(local_obs), holder);
  decode_observation(messages, obs);
  const std::uint32_t found =
      owner(fingerprint) == rank_ ? visited_.find(fingerprint) : VisitedSet::kNoId;
  const auto state =
      static_cast<std::uint32_t>(ranks_.all_min(found == VisitedSet::kNoId ? kNoKey : ids_[found]));
  const std::uint64_t transition = transitions_ + ranks_.all_sum(local_steps_below(key));
  std::vector<Action> path =
      path_through(static_cast<std::uint32_t>(key_parent(key)), key_action(key));
  return make_violation(obs, property.value_or(obs.violated.front().first), result_.properties,
                        std::move(path), state, transition);
}

// The actions from the initial state to state `id` and then its action number `last`:
// the parent links are walked across the ranks, then the model re-run along them.
template <Model M>
auto RankCommit<M>::path_through(std::uint32_t id, std::size_t last) const -> std::vector<Action> {
  std::vector<PathLink> links;
  for (std::uint32_t x = id; x != 0;) {
    std::uint64_t mine[3] = {0, 0, 0};
    const auto it = std::lower_bound(ids_.begin(), ids_.end(), x);
    if (it != ids_.end() && *it == x) {
      const auto local = static_cast<std::size_t>(it - ids_.begin());
      mine[0] = parent_[local];
      mine[1] = action_[local];
      mine[2] = visited_.fingerprints()[local];
    }
    std::uint64_t found[3] = {0, 0, 0};
    MPI_Allreduce(mine, found, 3, MPI_UINT64_T, MPI_MAX, ranks_.comm());
    links.push_back({found[2], static_cast<std::uint16_t>(found[1])});
    x = static_cast<std::uint32_t>(found[0]);
  }
  std::reverse(links.begin(), links.end());
  return replay_links(model_, links, last);
}

}  // namespace preemptcheck::checker::detail
