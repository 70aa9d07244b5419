// Cluster: the parts of a scenario that never change during a check — names, priorities,
// requests, capacities, PDB selectors — indexed by small integers. Every World of one check
// shares one Cluster.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/scenario.h"

namespace preemptcheck {

using PodId = std::uint8_t;
using NodeId = std::uint8_t;
/// A set of pods, one bit per PodId.
using PodSet = std::uint32_t;

inline constexpr NodeId kNoNode = 0xff;
inline constexpr PodId kNoPod = 0xff;

inline constexpr PodSet pod_bit(PodId p) { return PodSet{1} << p; }
inline constexpr bool has_pod(PodSet s, PodId p) { return (s & pod_bit(p)) != 0; }

/// The pods of a set in PodId order, without allocating: `for (PodId p : pods_in(s))`.
class pods_in {
 public:
  class iterator {
   public:
    explicit iterator(PodSet rest) : rest_(rest) {}
    PodId operator*() const { return static_cast<PodId>(std::countr_zero(rest_)); }
    iterator& operator++() {
      rest_ &= rest_ - 1;
      return *this;
    }
    bool operator!=(const iterator& o) const { return rest_ != o.rest_; }

   private:
    PodSet rest_;
  };
  explicit pods_in(PodSet s) : set_(s) {}
  iterator begin() const { return iterator(set_); }
  iterator end() const { return iterator(0); }

 private:
  PodSet set_;
};

/// cpu (millicores) and memory (bytes) of a request or a capacity, in 64 bits. The loader
/// bounds every input (files/limits.h) so that the sum over a node's pods cannot overflow.
struct Resources {
  std::int64_t cpu = 0;
  std::int64_t memory = 0;

  Resources& operator+=(const Resources& o) {
    cpu += o.cpu;
    memory += o.memory;
    return *this;
  }
  /// Whether this request fits within capacity `c`.
  bool fits_in(const Resources& c) const { return cpu <= c.cpu && memory <= c.memory; }
};

/// A later arrival that another one waits for (`arrival-order`): a pod, a node, or none.
struct Arrival {
  enum class Kind : std::uint8_t { kNone, kPod, kNode };
  Kind kind = Kind::kNone;
  std::uint8_t id = 0;  ///< a PodId or a NodeId
};

/// How the informer may deliver the pending watch events (SPEC §8). kFifo: in the one order
/// in which the model's steps wrote them. kCausal: in any order that keeps their
/// happens-before order (impl/watch_order.cc), each state storing one canonical
/// serialization: the exact reduction `--reduce watch-order`. kPerObject: only each object's
/// own events in order, every write otherwise concurrent; unsound, kept so that the
/// soundness tests show it caught (properties/watch_order_test.cc).
enum class WatchOrder : std::uint8_t { kFifo, kCausal, kPerObject };

/// The immutable part of a check.
class Cluster {
 public:
  /// Builds the cluster of a validated scenario (names unique, nodes known, sizes bounded).
  explicit Cluster(Scenario scenario);

  const Scenario& scenario() const { return scenario_; }
  const Mechanisms& mechanisms() const { return scenario_.mechanisms; }
  int pod_count() const { return static_cast<int>(scenario_.pods.size()); }
  int node_count() const { return static_cast<int>(scenario_.nodes.size()); }

  const std::string& pod_name(PodId p) const { return scenario_.pods[p].name; }
  const std::string& node_name(NodeId n) const { return scenario_.nodes[n].name; }
  int priority(PodId p) const { return scenario_.pods[p].priority; }
  const Resources& request(PodId p) const { return requests_[p]; }
  const Resources& capacity(NodeId n) const { return capacities_[n]; }
  bool is_preempt_never(PodId p) const { return scenario_.pods[p].preempt_never; }

  /// Pods each PDB selects.
  const std::vector<PodSet>& pdb_members() const { return pdb_members_; }
  /// The scenario's expected outcome as pod sets.
  PodSet expect_bound() const { return expect_bound_; }
  PodSet expect_not_bound() const { return expect_not_bound_; }

  std::optional<PodId> find_pod(std::string_view name) const;
  std::optional<NodeId> find_node(std::string_view name) const;

  /// What must have been created before pod p's `create` (node n's `create-node`) is enabled:
  /// the arrival listed just before it in `arrival-order`, or Kind::kNone.
  Arrival pod_arrives_after(PodId p) const { return pod_after_[p]; }
  Arrival node_arrives_after(NodeId n) const { return node_after_[n]; }
  /// The running pods the scenario places on node n (at the start, or with its create-node).
  PodSet placed_pods(NodeId n) const { return placed_[n]; }

  /// The order in which the informer may deliver pending watch events (kFifo unless a
  /// reduction chose another: with_watch_order()).
  WatchOrder watch_order() const { return watch_order_; }
  bool is_causal() const { return watch_order_ != WatchOrder::kFifo; }
  /// This cluster with the informer's delivery order `order`.
  Cluster with_watch_order(WatchOrder order) const {
    Cluster c = *this;
    c.watch_order_ = order;
    return c;
  }

 private:
  Scenario scenario_;
  std::vector<Resources> requests_;
  std::vector<Resources> capacities_;
  std::vector<PodSet> pdb_members_;
  std::vector<Arrival> pod_after_;
  std::vector<Arrival> node_after_;
  std::vector<PodSet> placed_;
  PodSet expect_bound_ = 0;
  PodSet expect_not_bound_ = 0;
  WatchOrder watch_order_ = WatchOrder::kFifo;
};

}  // namespace preemptcheck
