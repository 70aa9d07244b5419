// WorldModel: adapt World and the spec monitors to the generic explorer.
#include "properties/world_model.h"

namespace preemptcheck {
namespace {

void raise_to(std::atomic<std::uint32_t>& peak, std::uint32_t value) {
  std::uint32_t seen = peak.load();
  while (seen < value && !peak.compare_exchange_weak(seen, value)) {
  }
}

}  // namespace

WorldModel::WorldModel(std::shared_ptr<const Cluster> cluster)
    : WorldModel(std::move(cluster), std::bitset<spec::kPropertyCount>().set()) {}

WorldModel::WorldModel(std::shared_ptr<const Cluster> cluster,
                       std::bitset<spec::kPropertyCount> checked)
    : cluster_(std::move(cluster)), checked_(checked) {
  for (const spec::PropertyDef& d : spec::property_table()) {
    properties_.push_back({std::string(d.name),
                           d.is_witness ? checker::PropertyKind::kSometimes
                                        : checker::PropertyKind::kAlways,
                           std::string(d.statement)});
  }
}

void WorldModel::report(const spec::Findings& v, checker::Observation& obs) const {
  for (const auto& [property, message] : v.violated) {
    if (checked_.test(static_cast<size_t>(property))) {
      obs.violate(static_cast<size_t>(property), message);
    }
  }
  for (spec::Property p : v.reached) obs.reach(static_cast<size_t>(p));
}

WorldState WorldModel::next_state(const WorldState& s, const Action& a,
                                  checker::Observation& obs) const {
  WorldState next = s;
  const StepReport step = next.world.apply(a);
  spec::Findings v;
  spec::check_step(s.world, step, next.world, next.ledger, v);
  report(v, obs);
  if (step.cycle) {
    const spec::BlockingRoundTrips trips = spec::blocking_round_trips(s.world, step);
    raise_to(peaks_->sync, trips.sync);
    raise_to(peaks_->async, trips.async);
  }
  return next;
}

void WorldModel::check_initial(const WorldState& s, checker::Observation& obs) const {
  spec::Findings v;
  spec::check_state(s.world, v);
  report(v, obs);
}

}  // namespace preemptcheck
