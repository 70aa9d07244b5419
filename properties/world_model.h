// WorldModel: the reference scheduler as a checker::Model — World states, Action steps,
// and the spec's monitors as property verdicts.
#pragma once

#include <bitset>
#include <memory>
#include <vector>

#include "checker/model.h"
#include "impl/world.h"
#include "spec/monitor.h"

namespace preemptcheck {

class WorldModel {
 public:
  using State = World;
  using Action = preemptcheck::Action;

  /// Checks every property of the table.
  explicit WorldModel(std::shared_ptr<const Cluster> cluster);
  /// Checks only the safety properties in `checked` (witnesses are always tracked).
  WorldModel(std::shared_ptr<const Cluster> cluster, std::bitset<spec::kPropertyCount> checked);

  World initial_state() const { return World(cluster_); }
  void enabled_actions(const World& s, std::vector<Action>& out) const {
    s.enabled_actions(out);
  }
  World next_state(const World& s, const Action& a, checker::Observation& obs) const;
  void check_initial(const World& s, checker::Observation& obs) const;
  std::uint64_t fingerprint(const World& s) const { return s.fingerprint(); }
  const std::vector<checker::PropertyInfo>& properties() const { return properties_; }

  const Cluster& cluster() const { return *cluster_; }

 private:
  void report(const spec::Verdict& v, checker::Observation& obs) const;

  std::shared_ptr<const Cluster> cluster_;
  std::bitset<spec::kPropertyCount> checked_;
  std::vector<checker::PropertyInfo> properties_;
};

static_assert(checker::Model<WorldModel>);

}  // namespace preemptcheck
