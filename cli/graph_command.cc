// The `graph` command: explore a small scenario completely and draw it, or draw a
// counterexample's neighbourhood.
#include "cli/graph_command.h"

#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bitset>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <ostream>
#include <sstream>

#include "checker/graph.h"
#include "files/counterexample_yaml.h"
#include "files/output_file.h"
#include "files/scenario_yaml.h"
#include "impl/show.h"
#include "properties/recorded.h"
#include "properties/replay_run.h"
#include "properties/schedule.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"
#include "report/graph_report.h"
#include "report/json.h"
#include "report/print.h"
#include "spec/property.h"

extern char** environ;

namespace preemptcheck::cli {
namespace {

// Runs `dot -Tsvg -o temp dot_file`; returns an error message naming `svg` on failure.
std::optional<std::string> render_svg(const std::string& dot, const std::string& dot_file,
                                      const std::string& temp, const std::string& svg) {
  std::vector<std::string> words = {dot, "-Tsvg", "-o", temp, dot_file};
  std::vector<char*> argv;
  for (std::string& w : words)
    argv.push_back(w.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int rc = posix_spawn(&pid, dot.c_str(), nullptr, nullptr, argv.data(), environ);
      rc != 0) {
    return fmt::format("cannot run {}: {}", dot, std::strerror(rc));
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0)
    return fmt::format("cannot wait for {}: {}", dot, std::strerror(errno));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return fmt::format("'dot -Tsvg' failed (status {}) rendering {} to {}", status, dot_file, svg);
  }
  return std::nullopt;
}

// Writes the DOT file (and the SVG when asked), then the summary `lines` (under --json, the
// document `doc` with the figures of `g`).
int write_graph(const checker::StateGraph& g, const GraphOptions& o,
                const std::vector<std::string>& lines, const std::optional<std::string>& dot,
                report::Json doc, std::ostream& out, std::ostream& err);

// The head of `graph --json`'s document: the scenario, its switches, the file drawn around.
report::Json graph_document(const Scenario& scenario, const GraphOptions& o) {
  report::Json doc = report::json_document("graph");
  doc["scenario"] = scenario.name;
  doc["profile"] = scenario.profile;
  doc["mechanisms"] = report::mechanisms_json(scenario.mechanisms);
  doc["around"] = o.around_path.empty() ? report::Json(nullptr) : report::Json(o.around_path);
  return doc;
}

}  // namespace

std::optional<std::string> find_dot() {
  const char* path = std::getenv("PATH");
  if (path == nullptr)
    return std::nullopt;
  std::string_view rest(path);
  while (true) {
    const auto colon = rest.find(':');
    std::string dir(rest.substr(0, colon));
    if (dir.empty())
      dir = ".";
    const std::string candidate = dir + "/dot";
    if (::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    if (colon == std::string_view::npos)
      return std::nullopt;
    rest.remove_prefix(colon + 1);
  }
}

int run_graph(const GraphOptions& o, std::ostream& out, std::ostream& err) {
  if (o.json && o.dot_path == "-") {
    report::print(err,
                  "preemptcheck graph: --json and --dot - both want standard output: write the DOT "
                  "text to a file\n");
    return kExitBadInput;
  }
  Scenario scenario;
  Counterexample cx;
  try {
    if (o.around_path.empty()) {
      scenario = load_scenario(o.scenario_path);
    } else {
      cx = load_counterexample_file(o.around_path);
      scenario = cx.scenario;
    }
  } catch (const ScenarioError& e) {
    report::print(err, "preemptcheck graph: {}\n", e.what());
    return kExitBadInput;
  }
  if (!o.around_path.empty()) {
    if (const std::string refused = refusal(cx, o.around_path, o.allow_unfingerprinted);
        !refused.empty()) {
      report::print(err, "preemptcheck graph: {}; nothing was written\n", refused);
      return kExitBadInput;
    }
  }
  if (!choose_mechanisms(scenario, o.mechanisms, "graph", "preemptcheck graph", err))
    return kExitBadInput;
  std::optional<std::string> dot;
  if (!o.svg_path.empty()) {
    dot = find_dot();
    if (!dot) {
      report::print(err,
                    "preemptcheck graph: --svg needs Graphviz's 'dot' on PATH, and there is none; "
                    "install Graphviz, or leave out --svg and render the DOT file elsewhere\n");
      return kExitBadInput;
    }
  }
  auto cluster = std::make_shared<const Cluster>(scenario);
  // Around a counterexample only its own property's breaks are filled: another property's
  // violating states would look like the file's.
  std::bitset<spec::kPropertyCount> checked;
  checked.set();
  if (const auto p = spec::find_property(cx.property); p && !o.around_path.empty()) {
    checked.reset();
    checked.set(static_cast<std::size_t>(*p));
  }
  const WorldModel model(cluster, checked);
  if (!o.around_path.empty()) {
    std::vector<Action> path;
    for (const CounterexampleStep& step : cx.steps)
      path.push_back(step.action);
    // The file is verified as `replay` verifies it (not under switches that change its
    // mechanisms): a file that replay calls diverged is not drawn.
    if (scenario.mechanisms == cx.scenario.mechanisms) {
      const Schedule schedule = replay_schedule(scenario, path);
      for (std::size_t i = 0; i < schedule.steps.size(); ++i) {
        if (const std::string d = fingerprint_divergence(cx, schedule, i, o.around_path);
            !d.empty()) {
          report::print(err, "preemptcheck graph: {}; nothing was written\n", d);
          return kExitBadInput;
        }
      }
      // The verdict too: a file whose property does not break as recorded is not drawn as if
      // it did (a step not enabled is named below).
      if (!schedule.blocked && cx.recorded_digest) {
        if (const std::string d =
                cx.loop ? lasso_divergence(cx, schedule) : divergence(cx, schedule);
            !d.empty()) {
          report::print(err, "preemptcheck graph: {}: diverged: {}; nothing was written\n",
                        o.around_path, d);
          return kExitBadInput;
        }
      }
    }
    const checker::NeighbourhoodBuild around = checker::build_neighbourhood(
        model, path, [](const WorldState& s) { return state_label(s.world); },
        [&](const Action& a) { return format_action(a, *cluster); });
    if (around.not_enabled) {
      const CounterexampleStep& step = cx.steps[*around.not_enabled];
      report::print(err,
                    "preemptcheck graph: {}:{}:{}: step {} ({}) is not enabled under {}; nothing "
                    "was written\n",
                    o.around_path, step.line, step.column, *around.not_enabled + 1, step.text,
                    describe(scenario.mechanisms));
      return kExitBadInput;
    }
    return write_graph(
        around.graph, o,
        report::around_summary(scenario, o.around_path, cx.property, path.size(), around.graph),
        dot, graph_document(scenario, o), out, err);
  }
  const checker::GraphBuild build = build_world_graph(
      model, static_cast<std::size_t>(o.max_states),
      [](const WorldState& s) { return state_label(s.world); },
      [&](const Action& a) { return format_action(a, *cluster); });
  if (build.status == checker::GraphStatus::kTooManyStates) {
    report::print(err,
                  "preemptcheck graph: scenario {} under {} has more than {} states (the search "
                  "stopped after finding {}); nothing was written. Raise the limit with "
                  "--max-states N (e.g. --max-states {}), or draw a smaller scenario\n",
                  scenario.name, describe(scenario.mechanisms), o.max_states, build.states,
                  o.max_states * 10);
    if (o.json) {
      report::Json doc = graph_document(scenario, o);
      doc["limit"] = "max-states";
      doc["states"] = build.states;
      doc["exit_code"] = kExitLimit;
      report::write_json(doc, out);
    }
    return kExitLimit;
  }
  return write_graph(build.graph, o, report::graph_summary(scenario, build.graph), dot,
                     graph_document(scenario, o), out, err);
}

namespace {

int write_graph(const checker::StateGraph& g, const GraphOptions& o,
                const std::vector<std::string>& lines, const std::optional<std::string>& dot,
                report::Json doc, std::ostream& out, std::ostream& err) {
  std::ostringstream lines_text;  // under --json the summary goes into the document
  if (o.dot_path == "-") {
    checker::write_dot(g, out);
  } else {
    std::ostringstream text;
    checker::write_dot(g, text);
    if (const auto error = write_file_atomically(o.dot_path, text.str())) {
      report::print(err, "preemptcheck graph: {}\n", *error);
      return kExitBadInput;
    }
  }
  // With --dot - the DOT text owns standard output; the summary goes with the diagnostics.
  std::ostream& summary = o.json ? lines_text : o.dot_path == "-" ? err : out;
  for (const std::string& line : lines)
    report::print(summary, "{}\n", line);
  if (o.dot_path != "-")
    report::print(summary, "dot        {}\n", o.dot_path);
  if (dot) {
    // dot writes a temporary file beside the SVG's path, renamed into place once complete.
    std::string error;
    std::optional<OutputFile> svg = OutputFile::create(o.svg_path, error);
    if (svg) {
      svg->release_descriptor();
      if (auto failed = render_svg(*dot, o.dot_path, svg->temp_path(), o.svg_path))
        error = std::move(*failed);
      else
        svg->commit(error);
    }
    if (!error.empty()) {
      report::print(err, "preemptcheck graph: {}\n", error);
      return kExitBadInput;
    }
    report::print(summary, "svg        {}\n", o.svg_path);
  }
  if (o.json) {
    std::size_t violating = 0;
    std::size_t off_path = 0;
    for (const checker::GraphVertex& v : g.vertices) {
      violating += v.violating ? 1 : 0;
      off_path += v.off_path ? 1 : 0;
    }
    doc["states"] = g.vertices.size();
    doc["steps"] = g.edges.size();
    doc["violating_states"] = violating;
    doc["off_path_states"] = off_path;
    doc["dot"] = o.dot_path;
    doc["svg"] = o.svg_path.empty() ? report::Json(nullptr) : report::Json(o.svg_path);
    report::Json summary_lines = report::Json::array();
    std::istringstream in(lines_text.str());
    for (std::string line; std::getline(in, line);)
      summary_lines.push_back(line);
    doc["summary"] = std::move(summary_lines);
    doc["exit_code"] = kExitHolds;
    report::write_json(doc, out);
  }
  return kExitHolds;
}

}  // namespace

}  // namespace preemptcheck::cli
