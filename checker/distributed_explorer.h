// DistributedExplorer: the breadth-first search of explore() spread over the ranks of an MPI
// job, with every figure and the counterexample identical to the single-process search.
//
// Design (after Stern and Dill's parallel Murphi, DiVinE and PREACH): a state belongs to the
// rank its fingerprint hashes to; each rank keeps its own part of the visited set (with the
// global id, parent id and action index of each of its states) and of the frontier. The
// search is level-synchronous. A level runs in rounds: each rank expands a chunk of its
// frontier and sends every successor (fingerprint, key, encoded state) to its owner in one
// batch per owner (MPI_Alltoallv); the owner keeps, per new fingerprint, the smallest key
// (parent id << 16 | action index) — the step the sequential search discovers it by.
// After the level, global ids follow the sequential order: the keys are sent to the rank
// that owns their parent-id block, merged there, offset by an exclusive scan of the block
// totals, and the ids sent back. The step that ends the search (first violation, first new
// state past max_states) is the smallest such key over all ranks (MPI_Allreduce), and only
// steps below it are counted, as in LevelExplorer. A counterexample is rebuilt by walking
// the parent links across ranks (one collective per step) and re-running the model along
// the action indices on every rank.
//
// States travel as bytes: model.pack() for a PackedModel, a memcpy image for a trivially
// copyable State, and otherwise the action indices of the state's path from the initial
// state, which the expanding rank replays (correct for every deterministic model, slower).
//
// Failures: an exception on one rank is reported to all at the end of the round and every
// rank throws RankFailure naming the lowest failing rank; std::bad_alloc stops the search
// with "out of memory", the per-rank memory and the time limits with their names, with the
// figures as of the start of the level, as in one process. A rank that dies is handled by
// Open MPI, which aborts the job (mpirun exits non-zero with a message).
// Included by checker/explore_auto.h in the MPI build only.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "checker/chunked_array.h"
#include "checker/explore_failure.h"
#include "checker/explorer.h"
#include "checker/model.h"
#include "checker/peak_memory.h"
#include "checker/visited_set.h"

namespace preemptcheck::checker {

namespace detail {

template <Model M>
class DistributedExplorer {
 public:
  using State = typename M::State;
  using Action = typename M::Action;

  /// How states travel between ranks (see the file banner).
  static constexpr bool kPacked = PackedModel<M>;
  static constexpr bool kRaw = !kPacked && std::is_trivially_copyable_v<State>;

  DistributedExplorer(const M& model, const Limits& limits, const ExploreOptions<Action>& opts,
                      MPI_Comm comm)
      : model_(model),
        limits_(limits),
        opts_(opts),
        comm_(comm),
        capacity_(std::min<std::uint64_t>(limits.max_states.value_or(kMaxIds), kMaxIds)),
        start_(Clock::now()) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }

  Result<Action> run() {
    if (opts_.on_edge || opts_.per_property || !opts_.stop_at_violation) {
      throw std::invalid_argument(
          "a distributed search supports neither edges, per-property results nor "
          "continuing past a violation");
    }
    result_.properties = model_.properties();
    result_.reached.assign(result_.properties.size(), false);
    search();
    return finish();
  }

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr std::uint64_t kMaxIds = VisitedSet::kNoId;
  static constexpr std::uint64_t kNoKey = std::numeric_limits<std::uint64_t>::max();
  static constexpr std::size_t kMaxActions = std::size_t{1} << 16;
  static constexpr std::size_t kRoundParents = 2048;  // frontier states per rank per round

  // Stop flags, OR-ed over the ranks; the lowest set bit names the limit.
  static constexpr unsigned kStopError = 1;
  static constexpr unsigned kStopOom = 2;
  static constexpr unsigned kStopMemory = 4;
  static constexpr unsigned kStopTime = 8;

  static std::uint64_t key_of(std::uint64_t parent, std::size_t action) {
    return (parent << 16) | action;
  }

  // The rank that owns a fingerprint.
  int owner(std::uint64_t fingerprint) const {
    const std::uint64_t mixed = (fingerprint ^ (fingerprint >> 31)) * 0x9e3779b97f4a7c15ULL;
    return static_cast<int>((mixed >> 32) % static_cast<std::uint64_t>(size_));
  }

  // ---- collectives -------------------------------------------------------------------

  std::uint64_t all_min(std::uint64_t x) const {
    std::uint64_t out = 0;
    MPI_Allreduce(&x, &out, 1, MPI_UINT64_T, MPI_MIN, comm_);
    return out;
  }
  std::uint64_t all_max(std::uint64_t x) const {
    std::uint64_t out = 0;
    MPI_Allreduce(&x, &out, 1, MPI_UINT64_T, MPI_MAX, comm_);
    return out;
  }
  std::uint64_t all_sum(std::uint64_t x) const {
    std::uint64_t out = 0;
    MPI_Allreduce(&x, &out, 1, MPI_UINT64_T, MPI_SUM, comm_);
    return out;
  }
  unsigned all_or(unsigned x) const {
    unsigned out = 0;
    MPI_Allreduce(&x, &out, 1, MPI_UNSIGNED, MPI_BOR, comm_);
    return out;
  }

  static int as_count(std::size_t n) {
    if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
      throw std::length_error("a distributed batch is larger than 2 GiB");
    }
    return static_cast<int>(n);
  }

  // Sends out[r] to rank r and returns what every rank sent here, concatenated by rank;
  // `from` receives the start of each rank's part (size_ + 1 entries).
  template <class T>
  std::vector<T> exchange(const std::vector<std::vector<T>>& out,
                          std::vector<std::size_t>& from) const {
    std::vector<int> send_counts(size_), recv_counts(size_), send_at(size_), recv_at(size_);
    std::vector<T> send;
    for (int r = 0; r < size_; ++r) {
      send_at[r] = as_count(send.size() * sizeof(T));
      send_counts[r] = as_count(out[r].size() * sizeof(T));
      send.insert(send.end(), out[r].begin(), out[r].end());
    }
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm_);
    std::size_t total = 0;
    from.assign(size_ + 1, 0);
    for (int r = 0; r < size_; ++r) {
      recv_at[r] = as_count(total);
      total += static_cast<std::size_t>(recv_counts[r]);
      from[r + 1] = total / sizeof(T);
    }
    std::vector<T> recv(total / sizeof(T));
    MPI_Alltoallv(send.data(), send_counts.data(), send_at.data(), MPI_BYTE, recv.data(),
                  recv_counts.data(), recv_at.data(), MPI_BYTE, comm_);
    return recv;
  }

  // Broadcasts a string from `root`.
  std::string broadcast(std::string text, int root) const {
    std::uint64_t length = text.size();
    MPI_Bcast(&length, 1, MPI_UINT64_T, root, comm_);
    text.resize(length);
    MPI_Bcast(text.data(), as_count(length), MPI_CHAR, root, comm_);
    return text;
  }

  // Throws RankFailure on every rank when any rank failed (`stop` has kStopError).
  void raise_failure(unsigned stop) {
    if ((stop & kStopError) == 0) {
      return;
    }
    const auto failing = static_cast<int>(
        all_min(error_.empty() ? std::numeric_limits<std::uint64_t>::max()
                               : static_cast<std::uint64_t>(rank_)));
    const std::string message = broadcast(error_, failing);
    throw RankFailure("rank " + std::to_string(failing) + " of " + std::to_string(size_) +
                      " failed: " + message);
  }

  // Sets the limit the stop flags name; returns whether the search must stop.
  bool stop_for(unsigned stop) {
    raise_failure(stop);
    if ((stop & kStopOom) != 0) {
      result_.limit = kOutOfMemory;
    } else if ((stop & kStopMemory) != 0) {
      result_.limit = kMemoryLimit;
    } else if ((stop & kStopTime) != 0) {
      result_.limit = kTimeLimit;
    }
    return stop != 0;
  }

  // ---- encodings ---------------------------------------------------------------------

  // Appends the encoding of `state`, reached by `path` (the parent's encoding) and `action`.
  void encode(const State& state, std::span<const std::byte> parent, std::size_t action,
              std::vector<std::byte>& out) const {
    if constexpr (kPacked) {
      model_.pack(state, out);
    } else if constexpr (kRaw) {
      const auto* bytes = reinterpret_cast<const std::byte*>(&state);
      out.insert(out.end(), bytes, bytes + sizeof(State));
    } else {
      out.insert(out.end(), parent.begin(), parent.end());
      const auto index = static_cast<std::uint16_t>(action);
      const auto* bytes = reinterpret_cast<const std::byte*>(&index);
      out.insert(out.end(), bytes, bytes + sizeof(index));
    }
  }

  State decode(std::span<const std::byte> bytes) const {
    if constexpr (kPacked) {
      return model_.unpack(bytes);
    } else if constexpr (kRaw) {
      State state;
      std::memcpy(static_cast<void*>(&state), bytes.data(), sizeof(State));
      return state;
    } else {
      State state = model_.initial_state();
      std::vector<Action> actions;
      Observation obs;
      for (std::size_t at = 0; at + sizeof(std::uint16_t) <= bytes.size();
           at += sizeof(std::uint16_t)) {
        std::uint16_t index = 0;
        std::memcpy(&index, bytes.data() + at, sizeof(index));
        actions.clear();
        model_.enabled_actions(state, actions);
        if (index >= actions.size()) {
          throw std::logic_error("model is not deterministic: a recorded action is gone");
        }
        state = model_.next_state(state, actions[index], obs);
        obs.clear();
      }
      return state;
    }
  }

  // The local frontier: encodings and global ids, ascending.
  struct Frontier {
    std::vector<std::byte> bytes;
    std::vector<std::size_t> offsets;
    std::vector<std::uint32_t> ids;

    std::size_t size() const { return ids.size(); }
    std::span<const std::byte> encoding(std::size_t i) const {
      const std::size_t end = i + 1 < offsets.size() ? offsets[i + 1] : bytes.size();
      return {bytes.data() + offsets[i], end - offsets[i]};
    }
    void push(std::span<const std::byte> encoded, std::uint32_t id) {
      offsets.push_back(bytes.size());
      bytes.insert(bytes.end(), encoded.begin(), encoded.end());
      ids.push_back(id);
    }
    std::size_t memory() const {
      return bytes.capacity() + offsets.capacity() * sizeof(std::size_t) +
             ids.capacity() * sizeof(std::uint32_t);
    }
  };

  // A new fingerprint received in this level.
  struct Candidate {
    std::uint64_t key = 0;
    std::size_t at = 0;  // its encoding in level_bytes_
    std::size_t length = 0;
  };

  // ---- the search --------------------------------------------------------------------

  void search() {
    if (capacity_ == 0) {
      result_.limit = kMaxStatesLimit;
      return;
    }
    if (!start()) {
      return;
    }
    for (std::uint32_t depth = 0; frontier_total_ != 0; ++depth) {
      if (stop_for(all_or(level_start_checks()))) {
        return;
      }
      report_progress();
      if (limits_.max_depth && depth >= *limits_.max_depth) {
        if (all_or(any_enabled() ? 1U : 0U) != 0) {
          result_.limit = kMaxDepthLimit;
        }
        return;
      }
      if (!expand_level()) {
        return;
      }
    }
  }

  // Every rank checks the initial state the same way; its owner stores it.
  bool start() {
    const State initial = model_.initial_state();
    const std::uint64_t fingerprint = model_.fingerprint(initial);
    result_.level_starts.push_back(0);
    count_ = 1;
    frontier_total_ = 1;
    if (owner(fingerprint) == rank_) {
      visited_.reserve(1);
      visited_.add(fingerprint);
      ids_.push_back(0);
      parent_.push_back(0);
      action_.push_back(0);
      std::vector<std::byte> encoded;
      encode(initial, {}, 0, encoded);
      if constexpr (!kPacked && !kRaw) {
        encoded.clear();  // the initial state is the empty path
      }
      frontier_.push(encoded, 0);
    }
    Observation obs;
    model_.check_initial(initial, obs);
    for (const std::size_t property : obs.reached) {
      check_index(property);
      result_.reached[property] = true;
    }
    if (!obs.violated.empty()) {
      result_.violating_states.push_back(0);
      result_.violation = make_violation(obs, {}, 0, std::nullopt);
      return false;
    }
    return true;
  }

  // This rank's clock and memory at the start of a level, as stop flags.
  unsigned level_start_checks() {
    unsigned stop = 0;
    if (limits_.time_limit_seconds && elapsed() >= *limits_.time_limit_seconds) {
      stop |= kStopTime;
    }
    if (limits_.max_memory_bytes && (memory_bytes() > *limits_.max_memory_bytes ||
                                     current_rss_bytes() > *limits_.max_memory_bytes)) {
      stop |= kStopMemory;
    }
    return stop;
  }

  // During a level: this rank's clock, memory and error, as stop flags.
  unsigned round_checks() {
    unsigned stop = error_.empty() ? 0U : kStopError;
    if (oom_) {
      stop |= kStopOom;
    }
    if (limits_.time_limit_seconds && elapsed() >= *limits_.time_limit_seconds) {
      stop |= kStopTime;
    }
    if (limits_.max_memory_bytes && (memory_bytes() > *limits_.max_memory_bytes ||
                                     current_rss_bytes() > *limits_.max_memory_bytes)) {
      stop |= kStopMemory;
    }
    return stop;
  }

  // Rank 0 prints the progress line with the figures of all ranks, at level starts.
  void report_progress() {
    if (!opts_.progress) {
      return;
    }
    const std::uint64_t memory = all_max(memory_bytes());
    const double seconds = elapsed();
    if (rank_ != 0 || seconds < next_progress_) {
      return;
    }
    next_progress_ = seconds + opts_.progress_interval_seconds;
    Stats stats = make_stats(count_, transitions_,
                             static_cast<std::uint32_t>(result_.level_starts.size() - 1), seconds);
    stats.queue = frontier_total_;
    stats.memory_bytes = memory;
    opts_.progress(stats);
  }

  bool any_enabled() const {
    std::vector<Action> actions;
    for (std::size_t i = 0; i < frontier_.size(); ++i) {
      actions.clear();
      model_.enabled_actions(decode(frontier_.encoding(i)), actions);
      if (!actions.empty()) {
        return true;
      }
    }
    return false;
  }

  // Expands the whole level on every rank; returns whether the search goes on.
  bool expand_level() {
    level_start_ = result_.level_starts.back();
    level_size_ = frontier_total_;
    succ_.assign(frontier_.size(), 0);
    candidates_.clear();
    level_bytes_.clear();
    first_key_ = kNoKey;
    first_obs_ = Observation();
    first_fp_ = 0;
    reached_key_.assign(result_.properties.size(), kNoKey);
    std::uint64_t stop_parent = kNoKey;
    std::size_t next = 0;
    for (;;) {
      std::vector<std::vector<std::byte>> out(size_);
      const std::size_t end = std::min(frontier_.size(), next + kRoundParents);
      if (error_.empty() && !oom_) {
        try {
          for (; next < end && frontier_.ids[next] <= stop_parent; ++next) {
            expand(next, out);
          }
        } catch (const std::bad_alloc&) {
          oom_ = true;
        } catch (const std::exception& e) {
          error_ = e.what();
        } catch (...) {
          error_ = "unknown exception";
        }
      }
      if (next < frontier_.size() && frontier_.ids[next] > stop_parent) {
        next = frontier_.size();
      }
      std::vector<std::size_t> from;
      const std::vector<std::byte> in = exchange(out, from);
      out.clear();
      if (error_.empty() && !oom_) {
        try {
          receive(in);
        } catch (const std::bad_alloc&) {
          oom_ = true;
        }
      }
      const unsigned stop = all_or(round_checks());
      if (stop_for(stop)) {
        return false;
      }
      stop_parent = std::min(stop_parent, all_min(first_key_ == kNoKey ? kNoKey : first_key_ >> 16));
      const bool done = next >= frontier_.size() || frontier_.ids[next] > stop_parent;
      if (all_or(done ? 0U : 1U) == 0) {
        break;
      }
    }
    return commit();
  }

  // Generates the steps of local frontier state i into the owners' batches.
  void expand(std::size_t i, std::vector<std::vector<std::byte>>& out) {
    const std::uint32_t id = frontier_.ids[i];
    const std::span<const std::byte> encoded = frontier_.encoding(i);
    const State state = decode(encoded);
    actions_.clear();
    model_.enabled_actions(state, actions_);
    if (actions_.size() > kMaxActions) {
      throw std::length_error("a state has more than 65536 enabled actions");
    }
    succ_[i] = static_cast<std::uint32_t>(actions_.size());
    for (std::size_t a = 0; a < actions_.size(); ++a) {
      obs_.clear();
      const State next = model_.next_state(state, actions_[a], obs_);
      const std::uint64_t fingerprint = model_.fingerprint(next);
      const std::uint64_t key = key_of(id, a);
      std::vector<std::byte>& batch = out[owner(fingerprint)];
      append(batch, fingerprint);
      append(batch, key);
      const std::size_t length_at = batch.size();
      append(batch, std::uint64_t{0});
      encode(next, encoded, a, batch);
      const std::uint64_t length = batch.size() - length_at - sizeof(std::uint64_t);
      std::memcpy(batch.data() + length_at, &length, sizeof(length));
      for (const std::size_t property : obs_.reached) {
        check_index(property);
        reached_key_[property] = std::min(reached_key_[property], key);
      }
      if (!obs_.violated.empty() && key < first_key_) {
        first_key_ = key;
        first_obs_ = obs_;
        first_fp_ = fingerprint;
      }
    }
  }

  static void append(std::vector<std::byte>& out, std::uint64_t x) {
    const auto* bytes = reinterpret_cast<const std::byte*>(&x);
    out.insert(out.end(), bytes, bytes + sizeof(x));
  }
  static std::uint64_t read(const std::byte* at) {
    std::uint64_t x = 0;
    std::memcpy(&x, at, sizeof(x));
    return x;
  }

  // Keeps, per fingerprint not yet visited, the smallest key and one encoding.
  void receive(const std::vector<std::byte>& in) {
    std::size_t at = 0;
    while (at < in.size()) {
      const std::uint64_t fingerprint = read(in.data() + at);
      const std::uint64_t key = read(in.data() + at + 8);
      const std::uint64_t length = read(in.data() + at + 16);
      const std::byte* bytes = in.data() + at + 24;
      at += 24 + length;
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
  std::vector<std::uint64_t> global_positions(const std::vector<std::uint64_t>& keys) const {
    // The parent ids of this level are split into size_ contiguous blocks, one per rank.
    const auto block_of = [&](std::uint64_t key) {
      const std::uint64_t parent = (key >> 16) - level_start_;
      return static_cast<int>(parent * static_cast<std::uint64_t>(size_) / level_size_);
    };
    std::vector<std::vector<std::uint64_t>> out(size_);
    for (const std::uint64_t key : keys) {
      out[block_of(key)].push_back(key);
    }
    std::vector<std::size_t> from;
    const std::vector<std::uint64_t> in = exchange(out, from);
    // Every key is unique over the ranks: its position in the block is its rank in `in`.
    std::vector<std::uint64_t> sorted = in;
    std::sort(sorted.begin(), sorted.end());
    std::uint64_t total = sorted.size();
    std::uint64_t offset = 0;
    MPI_Exscan(&total, &offset, 1, MPI_UINT64_T, MPI_SUM, comm_);
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
    std::vector<std::uint64_t> positions_by_block = exchange(back, unused);
    // Replies arrive by block, and within a block in the order the keys were sent; keys
    // were sent in ascending order and blocks ascend with keys, so this is `keys`' order.
    return positions_by_block;
  }

  // Ends the level: numbers the new states, finds where the sequential search stops in it,
  // records everything before that point. Returns whether the search goes on.
  bool commit() {
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
    const std::uint64_t total = all_sum(entries.size());

    // The step that ends the search in this level, if any.
    const std::uint64_t first = all_min(first_key_);
    std::uint64_t bound = first == kNoKey ? kNoKey : first + 1;
    bool max_states = false;
    if (count_ + total > capacity_) {
      std::uint64_t local_cut = kNoKey;
      for (std::size_t i = 0; i < entries.size(); ++i) {
        if (count_ + positions[i] >= capacity_) {
          local_cut = std::min(local_cut, entries[i].key);
        }
      }
      const std::uint64_t cut = all_min(local_cut);
      if (cut < bound) {
        bound = cut;
        max_states = true;
      }
    }
    const auto admitted = static_cast<std::size_t>(
        std::lower_bound(keys.begin(), keys.end(), bound) - keys.begin());
    const std::uint64_t admitted_total = all_sum(admitted);
    const std::uint64_t steps = all_sum(local_steps_below(bound));
    const bool go_on = bound == kNoKey;

    // Store the admitted states and the next frontier.
    Frontier next;
    visited_.reserve(admitted);
    for (std::size_t r = 0; r < admitted; ++r) {
      const Entry& e = entries[r];
      const auto id = static_cast<std::uint32_t>(count_ + positions[r]);
      visited_.add(e.fingerprint);
      ids_.push_back(id);
      parent_.push_back(static_cast<std::uint32_t>(e.key >> 16));
      action_.push_back(static_cast<std::uint16_t>(e.key & 0xffff));
      if (go_on) {
        next.push({level_bytes_.data() + e.candidate->at, e.candidate->length}, id);
      }
    }
    candidates_.clear();
    level_bytes_.clear();
    level_bytes_.shrink_to_fit();

    // Witnesses below the bound.
    for (std::size_t p = 0; p < reached_key_.size(); ++p) {
      if (all_min(reached_key_[p]) < bound) {
        result_.reached[p] = true;
      }
    }
    if (first != kNoKey && first < bound) {
      result_.violation = pick_violation(first);
      result_.violating_states.push_back(result_.violation->state);
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
  std::uint64_t local_steps_below(std::uint64_t key) const {
    std::uint64_t steps = 0;
    const std::uint64_t parent = key == kNoKey ? kNoKey : key >> 16;
    for (std::size_t i = 0; i < frontier_.size(); ++i) {
      if (frontier_.ids[i] < parent) {
        steps += succ_[i];
      } else if (frontier_.ids[i] == parent) {
        steps += std::min<std::uint64_t>(key & 0xffff, succ_[i]);
      }
    }
    return steps;
  }

  // The counterexample of the smallest violating step `key`, the same on every rank.
  Violation<Action> pick_violation(std::uint64_t key) {
    const int holder = static_cast<int>(all_min(
        first_key_ == key ? static_cast<std::uint64_t>(rank_)
                          : std::numeric_limits<std::uint64_t>::max()));
    std::uint64_t fingerprint = first_fp_;
    MPI_Bcast(&fingerprint, 1, MPI_UINT64_T, holder, comm_);
    Observation obs;
    const std::string messages = broadcast(encode_observation(first_obs_), holder);
    decode_observation(messages, obs);
    const std::uint32_t found = owner(fingerprint) == rank_ ? visited_.find(fingerprint)
                                                            : VisitedSet::kNoId;
    const auto state = static_cast<std::uint32_t>(
        all_min(found == VisitedSet::kNoId ? kNoKey : ids_[found]));
    const std::uint64_t transition = transitions_ + all_sum(local_steps_below(key));
    std::vector<Action> path =
        path_through(static_cast<std::uint32_t>(key >> 16), static_cast<std::size_t>(key & 0xffff));
    return make_violation(obs, std::move(path), state, transition);
  }

  static std::string encode_observation(const Observation& obs) {
    std::string out;
    for (const auto& [property, message] : obs.violated) {
      out += std::to_string(property);
      out += ' ';
      out += std::to_string(message.size());
      out += ' ';
      out += message;
    }
    return out;
  }
  static void decode_observation(const std::string& text, Observation& obs) {
    std::size_t at = 0;
    while (at < text.size()) {
      const std::size_t space = text.find(' ', at);
      const std::size_t property = std::stoull(text.substr(at, space - at));
      const std::size_t space2 = text.find(' ', space + 1);
      const std::size_t length = std::stoull(text.substr(space + 1, space2 - space - 1));
      obs.violate(property, text.substr(space2 + 1, length));
      at = space2 + 1 + length;
    }
  }

  // The actions from the initial state to state `id` and then its action number `last`:
  // the parent links are walked across the ranks, then the model re-run along them.
  std::vector<Action> path_through(std::uint32_t id, std::size_t last) const {
    struct Link {
      std::uint64_t fingerprint;
      std::uint16_t action;
    };
    std::vector<Link> links;
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
      MPI_Allreduce(mine, found, 3, MPI_UINT64_T, MPI_MAX, comm_);
      links.push_back({found[2], static_cast<std::uint16_t>(found[1])});
      x = static_cast<std::uint32_t>(found[0]);
    }
    std::vector<Action> path;
    std::vector<Action> actions;
    Observation obs;
    State state = model_.initial_state();
    for (auto it = links.rbegin(); it != links.rend(); ++it) {
      actions.clear();
      model_.enabled_actions(state, actions);
      if (it->action >= actions.size()) {
        throw std::logic_error("model is not deterministic: a recorded action is gone");
      }
      path.push_back(actions[it->action]);
      obs.clear();
      state = model_.next_state(state, actions[it->action], obs);
      if (model_.fingerprint(state) != it->fingerprint) {
        throw std::logic_error("model is not deterministic: a re-run reached another state");
      }
    }
    actions.clear();
    model_.enabled_actions(state, actions);
    if (last >= actions.size()) {
      throw std::logic_error("model is not deterministic: a recorded action is gone");
    }
    path.push_back(actions[last]);
    return path;
  }

  Violation<Action> make_violation(const Observation& obs, std::vector<Action> path,
                                   std::uint32_t state,
                                   std::optional<std::uint64_t> transition) const {
    Violation<Action> violation;
    static_cast<Verdict&>(violation) = make_verdict(obs, result_.properties);
    violation.path = std::move(path);
    violation.state = state;
    violation.transition = transition;
    return violation;
  }

  void check_index(std::size_t property) const {
    if (property >= result_.properties.size()) {
      throw_unknown_property(property, result_.properties.size());
    }
  }

  std::uint64_t memory_bytes() const {
    return visited_.bytes() + ids_.capacity() * sizeof(std::uint32_t) + parent_.bytes() +
           action_.bytes() + frontier_.memory() + level_bytes_.capacity() +
           candidates_.size() * (sizeof(Candidate) + 4 * sizeof(void*));
  }

  double elapsed() const {
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }

  Result<Action> finish() {
    if (result_.violation) {
      result_.outcome = Outcome::kViolated;
    } else if (!result_.limit.empty()) {
      result_.outcome = Outcome::kLimitReached;
    } else {
      result_.outcome = Outcome::kHolds;
    }
    auto& violating = result_.violating_states;
    std::sort(violating.begin(), violating.end());
    violating.erase(std::unique(violating.begin(), violating.end()), violating.end());
    const std::uint64_t memory = all_max(memory_bytes());
    result_.stats = make_stats(
        count_, transitions_,
        result_.level_starts.empty()
            ? 0
            : static_cast<std::uint32_t>(result_.level_starts.size() - 1),
        elapsed());
    result_.stats.memory_bytes = memory;
    return std::move(result_);
  }

  const M& model_;
  const Limits& limits_;
  const ExploreOptions<Action>& opts_;
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
  const std::uint64_t capacity_;
  const Clock::time_point start_;

  // This rank's states: local index -> fingerprint (visited_), global id, parent, action.
  VisitedSet visited_;
  std::vector<std::uint32_t> ids_;  // ascending
  ChunkedArray<std::uint32_t> parent_;
  ChunkedArray<std::uint16_t> action_;
  Frontier frontier_;
  std::uint64_t frontier_total_ = 0;  // frontier states over all ranks
  std::uint64_t count_ = 0;           // states over all ranks
  std::uint64_t transitions_ = 0;
  double next_progress_ = opts_.progress_interval_seconds;
  std::string error_;  // this rank's failure, if any
  bool oom_ = false;

  // The level being expanded.
  std::uint64_t level_start_ = 0;
  std::uint64_t level_size_ = 0;
  std::vector<std::uint32_t> succ_;  // succ_[i]: steps out of local frontier state i
  std::unordered_map<std::uint64_t, Candidate> candidates_;
  std::vector<std::byte> level_bytes_;
  std::uint64_t first_key_ = kNoKey;
  Observation first_obs_;
  std::uint64_t first_fp_ = 0;
  std::vector<std::uint64_t> reached_key_;
  std::vector<Action> actions_;
  Observation obs_;

  Result<Action> result_;
};

}  // namespace detail
}  // namespace preemptcheck::checker
