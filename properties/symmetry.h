// Symmetry: pods the model cannot tell apart, and the canonical fingerprint of a state under
// permutations of them (SPEC §8). A state is stored by the fingerprint of a representative of
// its class — the same state with interchangeable pods renamed — so a search visits one state
// of each class; the states it stores and the paths it records stay real ones.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "impl/cluster.h"

namespace preemptcheck {

class World;
namespace spec {
class Ledger;
}

/// The reductions a check may apply (`--reduce`), as bits: kWatchOrder is the causal watch
/// order (Cluster::watch_order(), impl/watch_order.cc), an exact quotient of the model;
/// kSymmetry stores one state per renaming of interchangeable pods; kWatchOrderSymmetry is
/// both, symmetry over the quotient.
enum class Reduction : std::uint8_t {
  kNone = 0,
  kSymmetry = 1,
  kWatchOrder = 2,
  kWatchOrderSymmetry = 3,
};

/// Whether `r` includes symmetry; whether it includes the causal watch order.
constexpr bool has_symmetry(Reduction r) { return (static_cast<unsigned>(r) & 1U) != 0; }
constexpr bool has_watch_order(Reduction r) { return (static_cast<unsigned>(r) & 2U) != 0; }

/// "none", "symmetry", "watch-order" or "watch-order,symmetry".
std::string_view reduction_name(Reduction r);
/// The reduction a `--reduce` value names: "none", or "symmetry" and "watch-order" alone or
/// both, separated by a comma in either order; nullopt for anything else.
std::optional<Reduction> parse_reduction(std::string_view text);

/// The symmetry classes of a cluster and the canonical relabelling of its states.
class Symmetry {
 public:
  /// What the classes compare; every field but `priority` true is the sound relation. The
  /// others exist so that a test can show the soundness comparison catching an unsound one.
  struct Options {
    bool priority = true;        ///< pods of different priority are told apart
    bool starts = true;          ///< start order is normalized (World::normalize_starts)
    bool forget_starts = false;  ///< unsound: every start order forgotten, even where it decides
  };

  explicit Symmetry(const Cluster& cluster) : Symmetry(cluster, Options{}) {}
  Symmetry(const Cluster& cluster, Options options);

  /// The class of pod p: pods of one class are equal in every attribute the model reads.
  std::uint8_t class_of(PodId p) const { return class_[p]; }
  /// Whether some class has two pods or more (otherwise nothing is reduced).
  bool reduces() const { return reduces_; }
  /// The number of classes.
  int class_count() const { return class_count_; }

  /// The fingerprint of the representative of (world, ledger): World::fingerprint extended by
  /// Ledger::fingerprint, of the state with the pods of each class renamed into a canonical
  /// order. Equal for two states one of which is the other with pods of a class renamed
  /// (exactly so when their pods are told apart by what the canonical order reads; otherwise
  /// the two are merely stored twice).
  std::uint64_t fingerprint(const World& world, const spec::Ledger& ledger) const;

  /// The renaming the canonical order applies to (world, ledger): pod p becomes to[p]
  /// (World::renamed, spec::Ledger::renamed).
  std::array<PodId, kMaxPods> canonical_renaming(const World& world,
                                                 const spec::Ledger& ledger) const;

 private:
  Options options_;
  int pod_count_ = 0;
  int class_count_ = 0;
  bool reduces_ = false;
  std::array<std::uint8_t, kMaxPods> class_{};
  /// The members of each class in PodId order.
  std::vector<std::vector<PodId>> members_;
  /// The pods of the classes of two pods or more: the only ones the canonical order sorts.
  PodSet alike_ = 0;
};

}  // namespace preemptcheck
