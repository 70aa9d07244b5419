// The counterexample of a breadth-first check's violation: its path replayed on a fresh World
// for the fingerprints and the comments.
#include "cli/counterexample.h"

#include <memory>

#include "impl/cluster.h"
#include "impl/show.h"
#include "impl/world.h"

namespace preemptcheck::cli {

Counterexample make_counterexample(const Scenario& scenario,
                                   const checker::Result<Action>& result,
                                   const std::bitset<spec::kPropertyCount>& checked,
                                   std::string command) {
  const auto& v = *result.violation;
  Counterexample cx;
  cx.property = v.name;
  cx.message = v.message;
  cx.also = v.also_violated;
  cx.found_by.states = result.stats.states;
  cx.found_by.depth = static_cast<std::uint32_t>(v.path.size());
  if (!checked.all()) {
    for (const spec::PropertyDef& d : spec::property_table()) {
      if (!d.is_witness && checked.test(static_cast<std::size_t>(d.id))) {
        cx.found_by.properties.emplace_back(d.name);
      }
    }
  }
  cx.scenario = scenario;
  cx.command = std::move(command);
  auto cluster = std::make_shared<const Cluster>(scenario);
  World w(*cluster);
  for (const Action& a : v.path) {
    const World before = w;
    const StepReport report = w.apply(a);
    CounterexampleStep step;
    step.action = a;
    step.text = format_action(a, *cluster);
    step.fingerprint = w.fingerprint();
    step.comment = describe_step(before, report, w);
    cx.steps.push_back(std::move(step));
  }
  return cx;
}

}  // namespace preemptcheck::cli
