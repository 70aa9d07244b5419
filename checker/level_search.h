// LevelSearch: the state of the level-synchronous search (checker/level_explorer.h) — its
// limits and options, the stores (checker/store/), the level under way, the findings and the
// result — with the helpers every phase uses: the clock and memory checks, the visited set's
// growth, the threads a phase runs on, and the naming of violating states at the end. The
// phases build on it one class each, one header each: LevelWorkers (checker/level_workers.h)
// expands a level, LevelCommit (checker/level_commit.h) ends it, LevelExplorer runs the levels.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "checker/explore_result.h"
#include "checker/explore_types.h"
#include "checker/level_findings.h"
#include "checker/model.h"
#include "checker/store/chunk_pool.h"
#include "checker/store/chunked_array.h"
#include "checker/store/fingerprint_set.h"
#include "checker/store/frontier_store.h"
#include "checker/store/hash_slots.h"
#include "checker/store/level_table.h"
#include "checker/store/temp_file.h"
#include "checker/store/trace_store.h"
#include "checker/successor_batch.h"
#include "checker/threads.h"
#include "checker/visited_growth.h"

namespace preemptcheck::checker::detail {

/// See the file comment; everything is for the classes derived from it.
template <Model M>
class LevelSearch {
 public:
  using State = typename M::State;
  using Action = typename M::Action;

  LevelSearch(const M& model, const Limits& limits, const ExploreOptions<Action>& opts)
      : model_(model),
        limits_(limits),
        opts_(opts),
        threads_(std::max(1U, opts.threads)),
        capacity_(state_capacity(limits, kMaxIds)),
        merges_(merges_states(model)) {}

 protected:
  static constexpr std::uint64_t kMaxIds = kNoId;
  // Successors looked up together.
  static constexpr std::size_t kBatch = 16;
  // Trace records a thread writes at once at the end of a level.
  static constexpr std::size_t kTraceBlock = 4096;

  // A step whose successor waits in a worker's batch.
  struct BatchedStep {
    std::uint64_t id = 0;  // the parent's
    std::uint64_t fingerprint = 0;
    std::uint32_t index = 0;  // the parent's, in its part
    std::uint32_t action = 0;
  };
  // The chunk pool's bytes in use past which the frontier's filled chunks go to its
  // temporary files (checker/store/frontier_store.h).
  static constexpr std::size_t kFrontierMemory = std::size_t{16} << 20;

  // What one worker found in a level.
  struct Worker {
    Worker(ChunkPool& pool, std::size_t spill_bytes)
        : found(pool, spill_bytes), found_fps(pool), found_keys(pool) {}
    FrontierStore<M> found;                // the states this worker claimed first
    PooledArray<std::uint64_t> found_fps;  // their fingerprints
    // With merges_: also the states whose claim lowered a key another step had set, and
    // each stored state's own step key (the commit keeps those whose key stayed smallest).
    PooledArray<std::uint64_t> found_keys;
    std::vector<Action> actions;
    SuccessorBatch<State, kBatch> next;  // successors waiting to be looked up
    std::array<Observation, kBatch> next_obs;
    std::array<BatchedStep, kBatch> next_step{};
    std::array<std::uint64_t, kBatch> home{};  // their visited-set home slots' values
    std::uint64_t home_keys = 0;
    std::size_t batched = 0;
    LevelFindings findings;  // what its steps found (checker/level_findings.h)
    // Where it left off when the table filled.
    bool pending = false;
    std::size_t unit = 0;
    std::uint32_t index = 0;
    std::size_t action = 0;
    bool full = false;
    std::exception_ptr error;
  };

  // A new state of a level: its step key, and its index among its worker's finds; twelve
  // bytes, the key in two halves.
  struct Entry {
    std::uint32_t key_low;
    std::uint32_t key_high;
    std::uint32_t index;
    std::uint64_t key() const { return std::uint64_t{key_high} << 32 | key_low; }
  };

  // A violation chosen at the end of a level, before its path is rebuilt.
  struct Pick {
    std::uint64_t key = kNoKey;
    const Observation* obs = nullptr;
    std::uint64_t fingerprint = 0;
  };

  bool all_decided() const { return remaining_ == 0 && !decided_.empty(); }

  // Makes room in the visited set for `extra` more states (visited_growth.h).
  void reserve_visited(std::size_t extra) {
    detail::reserve_visited(visited_, trace_, threads_, extra);
  }

  // A table's bulk work on the search's threads (checker/store/hash_slots.h).
  auto on_parts() const { return parts_on_threads(threads_); }

  // A state that a violation entered, named at the end of the search (level_findings.h).
  using Unnamed = detail::Unnamed;
  using UnnamedState = detail::UnnamedState;

  // Names the states the violations entered by their ids, with one read of the trace.
  void name_states() {
    if (unnamed_.empty()) {
      return;
    }
    std::unordered_map<std::uint64_t, std::uint32_t> ids;
    for (const UnnamedState& u : unnamed_) {
      ids.emplace(u.fingerprint, kNoId);
    }
    trace_.for_each_fingerprint([&](std::size_t id, std::uint64_t f) {
      if (const auto it = ids.find(f); it != ids.end()) {
        it->second = static_cast<std::uint32_t>(id);
      }
    });
    for (const UnnamedState& u : unnamed_) {
      const std::uint32_t id = ids.at(u.fingerprint);
      if (id == kNoId) {
        throw std::logic_error("a violating state is not in the trace");
      }
      name_state(result_, u, id);
    }
    unnamed_.clear();
  }

  // Frees the level's buffers; the table, the step counts and the pool's chunks are kept
  // for the next level.
  void release() { workers_.clear(); }

  void stop_for(std::string_view limit) {
    release();
    table_.reset();
    frontier_ = LevelFrontier<M>();
    result_.limit = limit;  // short enough for the small-string buffer: no allocation
  }

  std::uint64_t memory_bytes() const {
    std::uint64_t bytes = visited_.bytes() + trace_.bytes() + pool_.bytes() + frontier_.bytes() +
                          succ_.capacity() * sizeof(std::uint32_t) +
                          units_.capacity() * sizeof(FrontierUnit) +
                          before_.capacity() * sizeof(std::uint64_t);
    if (table_) {
      bytes += table_->bytes();
    }
    return bytes + TempFile::bytes_in_memory();
  }

  // Whether `more` bytes fit under the memory bound; sets the limit when not.
  bool fits(std::uint64_t more) {
    if (is_over_memory(limits_, memory_bytes() + more)) {
      result_.limit = kMemoryLimit;
      return false;
    }
    return true;
  }

  // Looks at the clock: time and memory limits, an interrupt, progress; returns false to
  // stop. On the calling thread only.
  bool on_clock(bool level_start) {
    const double seconds = clock_.seconds();
    if (is_time_up(limits_, seconds) || is_interrupted(limits_)) {
      result_.limit = is_time_up(limits_, seconds) ? kTimeLimit : kInterrupted;
      return false;
    }
    if (limits_.max_memory_bytes && (level_start || seconds >= next_rss_)) {
      next_rss_ = seconds + 0.25;
      if (is_over_memory_or_rss(limits_, memory_bytes())) {
        result_.limit = kMemoryLimit;
        return false;
      }
    }
    if (opts_.progress && seconds >= next_progress_) {
      next_progress_ = seconds + opts_.progress_interval_seconds;
      // The counts of the levels committed so far — what the search reports if it stops now —
      // so that they never decrease and never pass max_states; the level under way shows as
      // its discoveries in the queue.
      const std::uint64_t claimed = table_ ? table_->size() : 0;
      opts_.progress(progress_stats(visited_.size(), transitions_, result_, seconds,
                                    frontier_.size() + claimed, memory_bytes()));
    }
    return true;
  }

  const M& model_;
  const Limits& limits_;
  const ExploreOptions<Action>& opts_;
  const FindingsRule rule_{opts_.per_property, opts_.stop_at_violation};
  const unsigned threads_;
  const std::uint64_t capacity_;
  // Two different states may share a fingerprint (checker/model.h): a level stores each
  // state of a fingerprint its steps reach, and keeps the smallest step's.
  const bool merges_;
  const Stopwatch clock_{limits_.clock};

  ChunkPool pool_;  // before everything that takes chunks from it
  FingerprintSet visited_;
  TraceStore trace_;  // by id: the fingerprint, the state it was discovered from, the action
  std::vector<UnnamedState> unnamed_;  // named at the end of the search
  LevelFrontier<M> frontier_;
  std::uint64_t transitions_ = 0;
  std::vector<bool> decided_;  // per property: its own counterexample is recorded
  std::size_t remaining_ = 0;  // `always` properties not yet decided
  double next_progress_ = opts_.progress_interval_seconds;
  double next_rss_ = 0;

  // The level being expanded.
  std::size_t level_size_ = 0;
  std::uint64_t level_start_ = 0;
  std::size_t last_new_ = 0;
  std::unique_ptr<LevelTable> table_;
  std::vector<std::uint32_t> succ_;  // succ_[i]: steps out of the level's state i (by id)
  std::vector<FrontierUnit> units_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<std::vector<Entry>> sorted_;  // per worker, its new states by key
  std::vector<std::uint64_t> before_;       // before_[i]: steps out of the states before i
  std::atomic<std::size_t> next_unit_{0};
  std::atomic<std::uint64_t> stop_parent_{kNoKey};
  std::atomic<bool> abort_{false};
  std::atomic<bool> oom_{false};

  Result<Action> result_;
};

}  // namespace preemptcheck::checker::detail
