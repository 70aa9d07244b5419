// swimlanes_page: writes the swimlane page of a counterexample file, for the browser test
// and for regenerating docs/img/swimlanes.png, until `replay --html` does it. The one part
// of report/ that reads files: it loads the counterexample and renders states with cli/.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <fstream>
#include <iostream>

#include "files/counterexample_yaml.h"
#include "impl/show.h"
#include "report/swimlanes_html.h"
#include "report/timeline.h"

namespace {

// "queue: p-high" style lines, keys padded to one width so the page's state reads as a table.
std::vector<std::string> page_state_lines(const preemptcheck::World& w) {
  const auto lines = preemptcheck::state_lines(w);
  std::size_t width = 0;
  for (const auto& line : lines) width = std::max(width, line.first.size());
  std::vector<std::string> out;
  out.reserve(lines.size());
  for (const auto& [key, value] : lines) {
    out.push_back(fmt::format("{:<{}}  {}", key, width, value));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace preemptcheck;
  if (argc != 3) {
    fmt::print(std::cerr, "usage: swimlanes_page COUNTEREXAMPLE.yaml OUT.html\n");
    return 2;
  }
  const std::string file = argv[1];
  Counterexample cx;
  try {
    cx = load_counterexample_file(file);
  } catch (const std::exception& e) {
    fmt::print(std::cerr, "swimlanes_page: {}\n", e.what());
    return 2;
  }
  report::TimelineSource source;
  source.property = cx.property;
  source.message = cx.message;
  source.scenario = cx.scenario;
  for (const CounterexampleStep& s : cx.steps) source.actions.push_back(s.action);
  source.found_by = fmt::format("{}{}, {} step{}", cx.found_by.method,
                                cx.found_by.shortest ? " (shortest)" : "", cx.steps.size(),
                                cx.steps.size() == 1 ? "" : "s");
  if (cx.found_by.states > 0) {
    source.found_by += fmt::format(", {} states searched", cx.found_by.states);
  }
  if (cx.found_by.seed) source.found_by += fmt::format(", seed {}", *cx.found_by.seed);
  if (!cx.found_by.shrunk.empty()) {
    source.found_by += fmt::format(", shrunk {}", cx.found_by.shrunk);
  }
  source.reproduce = fmt::format("preemptcheck replay {}", file);

  std::string error;
  const auto timeline = report::make_timeline(source, page_state_lines, error);
  if (!timeline) {
    fmt::print(std::cerr, "swimlanes_page: {}: {}\n", file, error);
    return 2;
  }
  std::ofstream out(argv[2], std::ios::binary);
  out << report::render_swimlanes_html(*timeline);
  if (!out) {
    fmt::print(std::cerr, "swimlanes_page: cannot write {}\n", argv[2]);
    return 2;
  }
  return 0;
}
