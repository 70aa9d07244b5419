// RankCommit: the owner's side of a level of the distributed search — the successors a rank
// receives, each new fingerprint claimed in the level's LevelTable with its smallest key and its
// encoding kept in the next frontier's store (and the flagged violating steps noted, when every
// violating state is recorded); at the end of the level, the new states of every rank
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
#include "checker/store/hash_slots.h"
#include "checker/store/level_table.h"
#include "checker/store/temp_file.h"

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
  using Base::all_decided;
  using Base::capacity_;
  using Base::clock_;
  using Base::codec_;
  using Base::count_;
  using Base::decided_;
  using Base::error_;
  using Base::findings_;
  using Base::found_;
  using Base::found_fps_;
  using Base::found_keys_;
  using Base::frontier_;
  using Base::frontier_ids_;
  using Base::frontier_total_;
  using Base::ids_;
  using Base::kFrontierMemory;
  using Base::kMaxIds;
  using Base::kPacked;
  using Base::kRaw;
  using Base::kRoundUnits;
  using Base::kStopError;
  using Base::kStopInterrupt;
  using Base::kStopMemory;
  using Base::kStopOom;
  using Base::kStopTime;
  using Base::kViolatingBit;
  using Base::last_new_;
  using Base::level_size_;
  using Base::level_start_;
  using Base::level_start_checks;
  using Base::limits_;
  using Base::memory_bytes;
  using Base::merges_;
  using Base::model_;
  using Base::name_states;
  using Base::next_progress_;
  using Base::oom_;
  using Base::opts_;
  using Base::own_unnamed_;
  using Base::owner;
  using Base::pool_;
  using Base::raise_failure;
  using Base::rank_;
  using Base::ranks_;
  using Base::remaining_;
  using Base::report_progress;
  using Base::reserve_visited;
  using Base::result_;
  using Base::round_checks;
  using Base::rule_;
  using Base::shared_unnamed_;
  using Base::size_;
  using Base::stop_for;
  using Base::stops_at_first;
  using Base::succ_;
  using Base::table_;
  using Base::threads_;
  using Base::trace_;
  using Base::transitions_;
  using Base::units_;
  using Base::visited_;
  using typename Base::Frontier;
  using typename Base::Unnamed;
  using typename Base::UnnamedState;

  void receive(const std::vector<std::byte>& in);
  std::vector<std::uint64_t> global_positions(const std::vector<std::uint64_t>& keys) const;
  bool commit();
  std::uint64_t local_steps_below(std::uint64_t key) const;
  Violation<Action> pick_violation(std::uint64_t key, std::uint64_t local_key,
                                   const Observation& local_obs, std::uint64_t local_fp,
                                   std::optional<std::size_t> property, std::uint64_t& fingerprint);
  std::vector<Action> path_through(std::uint32_t id, std::size_t last) const;
};

// Claims every fingerprint not yet visited with its smallest key; keeps the encoding of the
// first step that reaches it (any step of a level reaches the same state, and every path a
// replayed encoding holds is a shortest one).
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
    if (visited_.contains(fingerprint)) {
      continue;
    }
    std::size_t slot = 0;
    LevelTable::Claim claim = table_->claim(fingerprint, key, slot);
    while (claim == LevelTable::Claim::kFull) {
      table_->grow();
      claim = table_->claim(fingerprint, key, slot);
    }
    if (claim == LevelTable::Claim::kInserted ||
        (merges_ && claim == LevelTable::Claim::kLowered)) {
      found_fps_.push_back(fingerprint);
      found_.push_encoded({bytes, static_cast<std::size_t>(length)});
      if (merges_) {
        found_keys_.push_back(key);
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
  // The new states by key: their indices among the states received, and their keys.
  std::vector<std::uint32_t> order;
  std::vector<std::uint64_t> keys;
  {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> entries;
    entries.reserve(found_fps_.size());
    for (std::size_t i = 0; i < found_fps_.size(); ++i) {
      const std::uint64_t key = table_->find_key(found_fps_[i]);
      // Of the states stored under one fingerprint, only the smallest step's is new.
      if (!merges_ || found_keys_[i] == key) {
        entries.emplace_back(key, static_cast<std::uint32_t>(i));
      }
    }
    table_.reset();  // the level's claims are all read
    std::sort(entries.begin(), entries.end());
    order.reserve(entries.size());
    keys.reserve(entries.size());
    for (const auto& [key, index] : entries) {
      keys.push_back(key);
      order.push_back(index);
    }
  }
  const std::vector<std::uint64_t> positions = global_positions(keys);
  const std::uint64_t total = ranks_.all_sum(keys.size());

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
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (count_ + positions[i] >= capacity_) {
        local_cut = std::min(local_cut, keys[i]);
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

  // Store the admitted states, in key order (so that the global ids ascend by index), and
  // give the next frontier, the states received, their ids. A temporary file that cannot be
  // written fails every rank.
  PooledArray<std::uint32_t> next_ids(pool_);
  try {
    if (go_on) {
      next_ids.resize(found_fps_.size());
      for (std::size_t i = 0; merges_ && i < found_fps_.size(); ++i) {
        next_ids[i] = kNoId;  // replaced by another state of its fingerprint: not expanded
      }
    }
    reserve_visited(admitted);
    FingerprintSet::Inserter inserter(visited_);
    for (std::size_t r = 0; r < admitted; ++r) {
      const std::uint32_t index = order[r];
      const std::uint64_t fingerprint = found_fps_[index];
      const auto id = static_cast<std::uint32_t>(count_ + positions[r]);
      inserter.add(fingerprint);
      trace_.push_back(fingerprint, static_cast<std::uint32_t>(key_parent(keys[r])),
                       key_action(keys[r]));
      ids_.push_back(id);
      if (go_on) {
        next_ids[index] = id;
      }
    }
  } catch (const std::bad_alloc&) {
    oom_ = true;
  } catch (const TempFileError& e) {
    error_ = e.what();
  }
  if (stop_for(ranks_.all_or(round_checks() & (kStopError | kStopOom)))) {
    return false;
  }
  last_new_ = admitted;

  // Witnesses, violating states and violations below the bound.
  note_witnesses(result_, ranks_.all_min(findings_.reached_key), bound);
  for (const auto& [key, fingerprint] : findings_.violating) {
    if (key < bound) {
      own_unnamed_.push_back(fingerprint);
    }
  }
  if (!result_.violation && first < bound) {
    std::uint64_t fingerprint = 0;
    result_.violation = pick_violation(first, findings_.first_key, findings_.first_obs,
                                       findings_.first_fp, std::nullopt, fingerprint);
    if (stops_at_first()) {
      shared_unnamed_.push_back({Unnamed::kViolatingState, 0, fingerprint});
    }
    shared_unnamed_.push_back({Unnamed::kViolation, 0, fingerprint});
  }
  for (std::size_t p = 0; p < picks.size(); ++p) {
    if (picks[p] < bound) {
      std::uint64_t fingerprint = 0;
      decide_property(result_, decided_, remaining_, p,
                      pick_violation(picks[p], findings_.property_key[p], findings_.property_obs[p],
                                     findings_.property_fp[p], p, fingerprint));
      shared_unnamed_.push_back({Unnamed::kPropertyViolation, p, fingerprint});
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
  if (go_on) {
    frontier_ = std::move(found_);
    frontier_ids_ = std::move(next_ids);
  } else {
    frontier_ = Frontier(pool_, kFrontierMemory);
    frontier_ids_ = PooledArray<std::uint32_t>(pool_);
  }
  found_ = Frontier(pool_, kFrontierMemory);
  found_fps_ = PooledArray<std::uint64_t>(pool_);
  found_keys_ = PooledArray<std::uint64_t>(pool_);
  frontier_total_ = go_on ? admitted_total : 0;
  succ_.clear();
  return go_on;
}

// Steps out of this rank's frontier states whose key is below `key`.
template <Model M>
std::uint64_t RankCommit<M>::local_steps_below(std::uint64_t key) const {
  std::uint64_t steps = 0;
  const std::uint64_t parent = key == kNoKey ? kNoKey : key_parent(key);
  for (std::size_t i = 0; i < frontier_ids_.size(); ++i) {
    if (frontier_ids_[i] < parent) {
      steps += succ_[i];
    } else if (frontier_ids_[i] == parent) {
      steps += std::min<std::uint64_t>(key_action(key), succ_[i]);
    }
  }
  return steps;
}

// The counterexample of the violating step `key` (the smallest over the ranks of the
// `local_key`s; the rank whose own it is holds its observation and fingerprint), leading with
// `property` or else with the first property the step violated; the same on every rank, as is
// `fingerprint`, the state it entered, which is named at the end of the search (name_states()).
template <Model M>
auto RankCommit<M>::pick_violation(std::uint64_t key, std::uint64_t local_key,
                                   const Observation& local_obs, std::uint64_t local_fp,
                                   std::optional<std::size_t> property, std::uint64_t& fingerprint)
    -> Violation<Action> {
  const int holder = static_cast<int>(
      ranks_.all_min(local_key == key ? static_cast<std::uint64_t>(rank_)
                                      : std::numeric_limits<std::uint64_t>::max()));
  fingerprint = local_fp;
  MPI_Bcast(&fingerprint, 1, MPI_UINT64_T, holder, ranks_.comm());
  Observation obs;
  const std::string messages = ranks_.broadcast(encode_observation(local_obs), holder);
  decode_observation(messages, obs);
  const std::uint64_t transition = transitions_ + ranks_.all_sum(local_steps_below(key));
  std::vector<Action> path =
      path_through(static_cast<std::uint32_t>(key_parent(key)), key_action(key));
  return make_violation(obs, property.value_or(obs.violated.front().first), result_.properties,
                        std::move(path), kNoId, transition);
}

// The actions from the initial state to state `id` and then its action number `last`:
// the parent links are walked across the ranks, then the model re-run along them.
template <Model M>
auto RankCommit<M>::path_through(std::uint32_t id, std::size_t last) const -> std::vector<Action> {
  std::vector<PathLink> links;
  for (std::uint32_t x = id; x != 0;) {
    std::uint64_t mine[3] = {0, 0, 0};
    if (const std::uint32_t local = ids_.find(x); local != kNoId) {
      mine[0] = trace_.parent(local);
      mine[1] = trace_.action(local);
      mine[2] = trace_.fingerprint(local);
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
