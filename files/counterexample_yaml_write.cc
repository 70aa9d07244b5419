// Counterexample files, written: as text (yaml-cpp's emitter cannot write comments), with the
// scenario inline, its digest, and one step per line with its comment and fingerprint.
#include "files/counterexample_yaml.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "files/output_file.h"

namespace preemptcheck {
namespace {

// ---- Writing ---------------------------------------------------------------------------

// A comment must stay on its line.
std::string one_line(std::string_view s) {
  std::string out(s);
  std::replace(out.begin(), out.end(), '\n', ' ');
  std::replace(out.begin(), out.end(), '\r', ' ');
  return out;
}

// A word of a file name: letters, digits, '.', '_' and '-' are kept, the rest become '-'.
std::string file_word(std::string_view s) {
  std::string out;
  for (const char c : s) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '-';
    out += keep ? c : '-';
  }
  return out.empty() ? "unnamed" : out;
}

// The scenario as canonical YAML, without its `profile` and `mechanisms` (the file states
// them at the top level, every switch), indented under `scenario:`.
std::string scenario_block(const Scenario& scenario) {
  std::istringstream in(scenario_to_yaml(scenario));
  std::string out;
  std::string line;
  bool skipping = false;
  while (std::getline(in, line)) {
    const bool top_level = !line.empty() && line[0] != ' ' && line[0] != '#';
    if (top_level) {
      skipping = line.starts_with("profile:") || line.starts_with("mechanisms:");
    }
    if (skipping)
      continue;
    out += line.empty() ? "\n" : fmt::format("  {}\n", line);
  }
  return out;
}

}  // namespace

std::uint64_t scenario_digest(const Scenario& scenario) {
  const std::string text = scenario_to_yaml(scenario);
  return XXH3_64bits(text.data(), text.size());
}

std::string format_fingerprint(std::uint64_t fingerprint) {
  return fmt::format("0x{:016x}", fingerprint);
}

namespace {

// The file name without its ".yaml": property, scenario, profile and switches that differ.
std::string file_stem(std::string_view property, const Scenario& scenario) {
  std::string name = fmt::format("{}--{}", file_word(property), file_word(scenario.name));
  if (scenario.profile != "reference")
    name += "--" + file_word(scenario.profile);
  const Mechanisms base = profile(scenario.profile).value_or(Mechanisms{});
  for (const std::string& d : differences(scenario.mechanisms, base)) {
    // "--gate=release-before-last" → "gate-release-before-last"
    std::string word = d.starts_with("--") ? d.substr(2) : d;
    std::replace(word.begin(), word.end(), '=', '-');
    name += "--" + file_word(word);
  }
  return name;
}

}  // namespace

std::string counterexample_file_name(std::string_view property, const Scenario& scenario) {
  return fit_file_name(file_stem(property, scenario) + ".yaml");
}

std::string counterexample_file_name(const Counterexample& cx) {
  // A lasso found with --unfair (found-by method liveness-unfair, properties/liveness_check.h)
  // may be one weak fairness rules out: it never takes the name a fair lasso would get.
  const bool unfair = cx.loop && cx.found_by.method == "liveness-unfair";
  return fit_file_name(file_stem(cx.property, cx.scenario) + (unfair ? "--unfair" : "") + ".yaml");
}

std::string counterexample_to_yaml(const Counterexample& cx, std::string_view replay_path) {
  std::string out;
  out += fmt::format(
      "# {} to {}, written by `preemptcheck {} --out`: regenerate it,\n"
      "# never edit it by hand.\n",
      cx.loop ? "Lasso counterexample" : "Counterexample",
      cx.property.empty() ? std::string("no property") : cx.property,
      cx.found_by.seed && cx.found_by.method != "random walk" ? "search" : "check");
  if (!cx.command.empty())
    out += fmt::format("# Found by:  {}\n", one_line(cx.command));
  out += fmt::format("# Replay:    preemptcheck replay {}\n", one_line(replay_path));
  if (!cx.property.empty()) {
    out += fmt::format("property: {}\n", cx.property);
    out += fmt::format("message: {}\n", yaml_quoted(cx.message));
  }
  if (cx.also.empty()) {
    out += "also: []\n";
  } else {
    out += "also:\n";
    for (const auto& m : cx.also) {
      out += fmt::format("  - {{property: {}, message: {}}}\n", m.name, yaml_quoted(m.message));
    }
  }
  out +=
      fmt::format("found-by: {{method: {}, shortest: {}, states: {}, depth: {}", cx.found_by.method,
                  cx.found_by.shortest ? "true" : "false", cx.found_by.states, cx.found_by.depth);
  if (!cx.found_by.properties.empty()) {
    std::string names;
    for (const std::string& p : cx.found_by.properties) {
      names += fmt::format("{}{}", names.empty() ? "" : ", ", p);
    }
    out += fmt::format(", properties: [{}]", names);
  }
  if (cx.found_by.seed)
    out += fmt::format(", seed: {}", *cx.found_by.seed);
  if (!cx.found_by.shrunk.empty()) {
    out += fmt::format(", shrunk: {}", yaml_quoted(cx.found_by.shrunk));
  }
  out += "}\n";
  out += "scenario:\n";
  out += scenario_block(cx.scenario);
  out += fmt::format("profile: {}\n", cx.scenario.profile);
  std::string switches;
  for (std::string_view m : mechanism_names()) {
    if (!mechanism_printed(cx.scenario.mechanisms, m, cx.scenario.profile))
      continue;
    switches += fmt::format("{}{}: {}", switches.empty() ? "" : ", ", m,
                            mechanism_value(cx.scenario.mechanisms, m));
  }
  out += fmt::format("mechanisms: {{{}}}\n", switches);
  // A schedule about no property (written by hand) is not a counterexample the tool wrote,
  // and gets no digest: a digest stands for every key of one.
  if (!cx.property.empty()) {
    out += fmt::format("scenario-digest: \"{}\"  # XXH3 of the scenario and switches above\n",
                       format_fingerprint(scenario_digest(cx.scenario)));
  }
  if (cx.loop) {
    out += *cx.loop == cx.steps.size()
               ? fmt::format(
                     "loop: {}  # the run stops after step {} for good: nothing is "
                     "enabled there\n",
                     *cx.loop, *cx.loop)
               : fmt::format(
                     "loop: {}  # {} forever: after step {} the state is again the "
                     "one after step {}\n",
                     *cx.loop,
                     *cx.loop + 1 == cx.steps.size()
                         ? fmt::format("step {} repeats", cx.steps.size())
                         : fmt::format("steps {}-{} repeat", *cx.loop + 1, cx.steps.size()),
                     cx.steps.size(), *cx.loop);
  }
  if (cx.steps.empty()) {
    out += cx.loop ? "steps: []  # the run stays in the initial state\n"
                   : "steps: []  # the initial state already violates the property\n";
    return out;
  }
  out += "steps:\n";
  std::vector<std::string> entries;
  std::size_t width = 0;
  for (const CounterexampleStep& s : cx.steps) {
    std::string e = fmt::format("  - {{action: {}", yaml_quoted(s.text));
    if (s.fingerprint) {
      e += fmt::format(", fingerprint: \"{}\"", format_fingerprint(*s.fingerprint));
    }
    e += '}';
    width = std::max(width, e.size());
    entries.push_back(std::move(e));
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (cx.loop && *cx.loop == i)
      out += fmt::format("  # ---- the loop: the steps below repeat forever\n");
    out += fmt::format("{:<{}}  # {}\n", entries[i], width, one_line(cx.steps[i].comment));
  }
  return out;
}

std::optional<std::string> write_counterexample(const Counterexample& cx, const std::string& dir,
                                                std::string& error, bool* replaced_other) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    error = fmt::format("cannot create directory '{}': {}", dir, ec.message());
    return std::nullopt;
  }
  const std::string path = (std::filesystem::path(dir) / counterexample_file_name(cx)).string();
  const std::string text = counterexample_to_yaml(cx, recorded_path(path));
  if (replaced_other != nullptr) {
    std::error_code exists_error;
    *replaced_other = false;
    if (std::filesystem::exists(path, exists_error)) {
      std::ifstream in(path, std::ios::binary);
      std::ostringstream held;
      held << in.rdbuf();
      *replaced_other = held.str() != text;
    }
  }
  if (auto failed = write_file_atomically(path, text)) {
    error = std::move(*failed);
    return std::nullopt;
  }
  return path;
}

}  // namespace preemptcheck
