// WorldModel: the reference scheduler as a checker::Model — states of a World and the
// spec's ledger (what the monitors remember of the path), Action steps, and the spec's
// monitors as property verdicts.
#pragma once

#include <atomic>
#include <bitset>
#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "checker/model.h"
#include "impl/world.h"
#include "properties/symmetry.h"
#include "spec/monitor.h"
#include "spec/round_trips.h"

namespace preemptcheck {

/// One state of the explorer: the cluster and scheduler, and the monitors' memory of the
/// path that reached them. Two paths to the same World with different memories are two
/// states, since the decision checks may judge their next steps differently.
struct WorldState {
  World world;
  spec::Ledger ledger;

  friend bool operator==(const WorldState&, const WorldState&) = default;
};

static_assert(std::is_trivially_copyable_v<WorldState>, "a state is copied as flat bytes");
static_assert(std::has_unique_object_representations_v<WorldState>,
              "a state has no padding bytes: equal states have equal bytes");

class WorldModel {
 public:
  using State = WorldState;
  using Action = preemptcheck::Action;

  /// Checks every property of the table.
  explicit WorldModel(std::shared_ptr<const Cluster> cluster);
  /// Checks only the safety properties in `checked` (witnesses are always tracked).
  WorldModel(std::shared_ptr<const Cluster> cluster, std::bitset<spec::kPropertyCount> checked);

  /// The scenario's initial state, or the state given to start_from().
  WorldState initial_state() const {
    return start_ ? *start_ : WorldState{World(*cluster_), spec::Ledger(*cluster_)};
  }
  /// The search starts at `s` (a state of this model's cluster, with the monitors' memory of
  /// the path that reached it) instead of the scenario's initial state: `explore` searches
  /// from the state a person stepped to. The states' encoding is unchanged.
  void start_from(const WorldState& s) { start_ = std::make_shared<const WorldState>(s); }
  void enabled_actions(const WorldState& s, std::vector<Action>& out) const {
    s.world.enabled_actions(out);
  }
  WorldState next_state(const WorldState& s, const Action& a, checker::Observation& obs) const;
  void check_initial(const WorldState& s, checker::Observation& obs) const;
  /// Covers the World and the ledger both.
  /// With a reduction (reduce()), the fingerprint of the state's representative.
  std::uint64_t fingerprint(const WorldState& s) const {
    if (symmetry_)
      return symmetry_->fingerprint(s.world, s.ledger);
    return s.ledger.fingerprint(s.world.fingerprint());
  }
  /// Applies reduction `r` from now on (SPEC §8): when it includes symmetry, states whose
  /// interchangeable pods are renamed share one fingerprint. `options` choose the classes
  /// (the default is the sound relation).
  void reduce(Reduction r, Symmetry::Options options = {});
  /// The informer's delivery order from now on, whatever the reduction: reduce() sets kCausal
  /// when the reduction includes the watch order, kFifo otherwise; the soundness tests set the
  /// unsound kPerObject. The model's cluster becomes a copy with that order (cluster()).
  void set_watch_order(WatchOrder order);
  Reduction reduction() const { return reduction_; }
  /// The schedule of the FIFO model that a path of this model stands for: the path itself,
  /// or under the causal watch order its serialization (impl/watch_order.h).
  std::vector<Action> fifo_schedule(const std::vector<Action>& path) const;
  /// Whether two different states may share a fingerprint (checker::merges_states).
  bool merges_states() const { return symmetry_ && symmetry_->reduces(); }
  const std::vector<checker::PropertyInfo>& properties() const { return properties_; }

  /// The packed encoding the explorer's frontier stores: the state's bytes XORed with the
  /// initial state's (a state has no padding, so its bytes are its value), read as 8-byte
  /// words in blocks of eight — a bitmap of the blocks holding a nonzero word, then per such
  /// block a mask of its nonzero words, per such word a mask of its nonzero bytes, and last
  /// the nonzero bytes. Most of a World is its initial value (unused pod slots, empty queue
  /// slots, untouched pods), so a state packs to a small part of sizeof(WorldState), 2,720
  /// bytes. Only the blocks the World marks as changeable (World::changeable_blocks) are read.
  void pack(const WorldState& s, std::vector<std::byte>& out) const;
  /// The state whose encoding is exactly `in` (an output of pack()).
  WorldState unpack(std::span<const std::byte> in) const;

  const Cluster& cluster() const { return *cluster_; }
  /// The most any preemption cycle explored so far blocks kube-scheduler's scheduling thread,
  /// under deletion=sync and under deletion=async (spec/round_trips.h); the same for every
  /// thread count once the exploration is complete.
  spec::BlockingRoundTrips peak_round_trips() const {
    return {peaks_->sync.load(), peaks_->async.load()};
  }

 private:
  void report(const spec::Findings& v, checker::Observation& obs) const;
  /// The blocks of a WorldState that hold the ledger.
  static std::uint64_t ledger_blocks();

  std::shared_ptr<const Cluster> cluster_;
  WorldState reference_;  ///< the initial state, which pack() encodes against
  /// Blocks pack() always looks at: the reference's changeable ones and the ledger's.
  std::uint64_t fixed_blocks_ = 0;
  std::bitset<spec::kPropertyCount> checked_;
  std::vector<checker::PropertyInfo> properties_;
  Reduction reduction_ = Reduction::kNone;
  std::shared_ptr<const Symmetry> symmetry_;  ///< set when the reduction includes symmetry
  std::shared_ptr<const WorldState> start_;   ///< set by start_from()
  struct Peaks {
    std::atomic<std::uint32_t> sync{0};
    std::atomic<std::uint32_t> async{0};
  };
  std::shared_ptr<Peaks> peaks_ = std::make_shared<Peaks>();
};

static_assert(checker::Model<WorldModel>);
static_assert(checker::PackedModel<WorldModel>);

}  // namespace preemptcheck
