// The words of a `graph` run.
#include "report/graph_report.h"

#include <fmt/format.h>

namespace preemptcheck::report {

std::vector<std::string> graph_summary(const Scenario& scenario, const checker::StateGraph& g) {
  std::size_t violating = 0;
  std::size_t bold = 0;
  for (const checker::GraphVertex& v : g.vertices)
    violating += v.violating ? 1 : 0;
  for (const checker::GraphEdge& e : g.edges)
    bold += e.on_counterexample ? 1 : 0;
  std::vector<std::string> summary = {
      fmt::format("graph      {} ({})", scenario.name, describe(scenario.mechanisms)),
      fmt::format("states     {} states, {} steps, {} violating (filled)", g.vertices.size(),
                  g.edges.size(), violating)};
  if (bold > 0) {
    summary.push_back(fmt::format("shortest   counterexample of {} step{} drawn bold", bold,
                                  bold == 1 ? "" : "s"));
  }
  return summary;
}

std::vector<std::string> around_summary(const Scenario& scenario, std::string_view file,
                                        std::string_view property, std::size_t steps,
                                        const checker::StateGraph& g) {
  std::size_t off_path = 0;
  std::size_t violating = 0;
  for (const checker::GraphVertex& v : g.vertices) {
    off_path += v.off_path ? 1 : 0;
    violating += v.violating ? 1 : 0;
  }
  return {fmt::format("graph      {} around {} ({})", scenario.name, file,
                      describe(scenario.mechanisms)),
          fmt::format("states     {} distinct states on the path of {} step{} (bold), {} other "
                      "successors (dashed), {} steps",
                      g.vertices.size() - off_path, steps, steps == 1 ? "" : "s", off_path,
                      g.edges.size()),
          fmt::format("filled     {} state{} entered by a step that breaks {}", violating,
                      violating == 1 ? "" : "s",
                      property.empty() ? std::string_view("a property") : property)};
}

}  // namespace preemptcheck::report
