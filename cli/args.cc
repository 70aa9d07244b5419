// The command line on CLI11: the App of every command (their options are in options.cc), the
// strict numbers, parsing, help, and the dispatch with JSON errors.
#include "cli/args.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <memory>
#include <ostream>
#include <sstream>

#include "cli/graph_command.h"
#include "cli/import_command.h"
#include "cli/interrupt_signals.h"
#include "cli/options.h"
#include "cli/profiles_command.h"
#include "cli/replay_command.h"
#include "cli/search_command.h"
#include "impl/mechanisms.h"
#include "impl/world.h"
#include "properties/ranks.h"
#include "report/json.h"
#include "report/print.h"
#include "report/version.h"

namespace preemptcheck::cli {

std::optional<std::uint64_t> parse_whole(std::string_view text, std::uint64_t max) {
  if (text.empty() ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n > max)
    return std::nullopt;
  return n;
}

std::optional<double> parse_seconds(std::string_view text) {
  const auto dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  auto digits = [](std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (!digits(whole) || (dot != std::string_view::npos && !digits(fraction)))
    return std::nullopt;
  double out = 0;
  const auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), out, std::chars_format::fixed);
  if (ec != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return out;
}

namespace {

// What is checked after parsing, with the messages of the checks CLI11 cannot express.
std::optional<std::string> finish(const ReplayOptions& o) {
  if (o.file.empty())
    return "expected a counterexample file, as in: preemptcheck replay FILE.yaml";
  return std::nullopt;
}

std::optional<std::string> finish(const GraphOptions& o) {
  if (o.dot_path.empty()) {
    return "expected --dot FILE, as in: preemptcheck graph SCENARIO.yaml --dot graph.dot";
  }
  if (!o.svg_path.empty() && o.dot_path == "-") {
    return "--svg renders the DOT file, so it needs --dot FILE rather than --dot -";
  }
  if (!o.around_path.empty() && !o.scenario_path.empty()) {
    return "--around reads the scenario from the counterexample file; leave out SCENARIO";
  }
  return std::nullopt;
}

std::optional<std::string> finish(const SearchCommandOptions& o) {
  if (o.stateful && o.differential) {
    return "--differential compares exhaustive searches; it does not apply to --stateful";
  }
  if (o.differential) {
    Scenario with;
    Scenario alone;
    MechanismChoice profile_only;
    profile_only.profile = o.mechanisms.profile;
    if (!apply_choice(with, o.mechanisms) && !apply_choice(alone, profile_only) &&
        with.mechanisms == alone.mechanisms) {
      return fmt::format(
          "--differential compares the switches against profile {} alone, and {}; add the "
          "switches to compare (as in --profile kubernetes --gate=release-before-last), or "
          "leave out --differential",
          alone.profile,
          o.mechanisms.switches.empty() ? "there are none" : "they change none of its mechanisms");
    }
  }
  return std::nullopt;
}

std::optional<std::string> finish(const CheckOptions&) { return std::nullopt; }

std::optional<std::string> finish(const ImportOptions& o) {
  if (o.files.empty()) {
    return "expected kubectl YAML files, as in: kubectl get nodes,pods,pdb,priorityclasses -A "
           "-o yaml > cluster.yaml; preemptcheck import cluster.yaml -o scenario.yaml";
  }
  return std::nullopt;
}

// The first word a command's App did not take, as the error of the hand-written parser
// that preceded CLI11 worded it.
std::optional<std::string> leftover(const CLI::App& app) {
  const std::vector<std::string> extra = app.remaining();
  if (extra.empty())
    return std::nullopt;
  return extra.front().starts_with("-") ? fmt::format("unknown option '{}'", extra.front())
                                        : fmt::format("unexpected argument '{}'", extra.front());
}

// Parses `args` (the words after the command) into an App built by `add`.
template <class Options, class Add>
std::optional<Options> parse_into(std::string_view name, const std::vector<std::string>& args,
                                  std::string& error, Add add) {
  Options o;
  CLI::App app{"", std::string(name)};
  add(app, o);
  app.allow_extras();
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    error = e.what();
    return std::nullopt;
  }
  if (auto e = leftover(app)) {
    error = *e;
    return std::nullopt;
  }
  if (auto e = finish(o)) {
    error = *e;
    return std::nullopt;
  }
  return o;
}

constexpr const char* kFooter = R"(
exit codes:  0 every property holds   1 a property is violated
             2 bad input or usage     3 a limit stopped the search; nothing is proven
Every number is decimal digits only: no sign, blanks, base prefix or exponent.)";

// Every command's options, bound to one struct each, in one App.
struct Commands {
  CheckOptions check;
  ReplayOptions replay;
  GraphOptions graph;
  SearchCommandOptions search;
  ImportOptions import;
  ExploreOptions explore;
  std::shared_ptr<ParseState> check_state = std::make_shared<ParseState>();
  std::shared_ptr<ParseState> search_state = std::make_shared<ParseState>();
  CLI::App app{"A model-checked reference of kube-scheduler's asynchronous preemption.",
               "preemptcheck"};

  Commands() {
    app.footer(switches_text() + kFooter);
    app.set_version_flag("--version", [] { return version_text(); });
    app.require_subcommand(0, 1);
    auto* c = app.add_subcommand(
        "check",
        "Explore every interleaving of the scenario and check every property; the shortest "
        "counterexample of a violation is printed");
    check_options(*c, check, check_state);
    auto* r = app.add_subcommand(
        "replay",
        "Re-run a counterexample file's steps, showing what each changed and where each "
        "property breaks; every fingerprint is compared unless a profile or switch overrides "
        "the file's mechanisms");
    replay_options(*r, replay);
    auto* g = app.add_subcommand(
        "graph",
        "Write the whole state graph as Graphviz DOT with a legend; refuse (exit 3) above "
        "--max-states. With --around, a counterexample's neighbourhood instead");
    graph_options(*g, graph);
    auto* s = app.add_subcommand(
        "search",
        "Generate small clusters with RapidCheck and explore each exhaustively; shrink a "
        "failing one. Prints its seed and a reproduce line on every run");
    search_options(*s, search, search_state);
    auto* i = app.add_subcommand(
        "import",
        "Turn kubectl YAML (nodes, pods, PDBs, PriorityClasses) into a scenario; list on "
        "standard error what the scenario leaves out");
    import_options(*i, import);
    auto* e = app.add_subcommand(
        "explore",
        "Serve a page on 127.0.0.1 that walks the scenario's state graph step by step: every "
        "step that could come next and why the others cannot, the properties on the way, the "
        "shortest violation from there, and the path as a counterexample file");
    explore_options(*e, explore);
    auto* p = app.add_subcommand(
        "profiles",
        "List each profile: what it is, which kube-scheduler versions it stands for, and its "
        "switches");
    for (CLI::App* sub : {c, r, g, s, i, e, p})
      sub->allow_extras();
  }

  CLI::App* command(std::string_view name) { return app.get_subcommand(std::string(name)); }
};

bool wants_json(const std::vector<std::string>& args) {
  return std::find(args.begin(), args.end(), "--json") != args.end();
}

}  // namespace

std::optional<CheckOptions> parse_check_args(const std::vector<std::string>& args,
                                             std::string& error) {
  auto state = std::make_shared<ParseState>();
  return parse_into<CheckOptions>(
      "check", args, error, [&](CLI::App& app, CheckOptions& o) { check_options(app, o, state); });
}

std::optional<ReplayOptions> parse_replay_args(const std::vector<std::string>& args,
                                               std::string& error) {
  return parse_into<ReplayOptions>("replay", args, error, replay_options);
}

std::optional<GraphOptions> parse_graph_args(const std::vector<std::string>& args,
                                             std::string& error) {
  return parse_into<GraphOptions>("graph", args, error, graph_options);
}

std::optional<SearchCommandOptions> parse_search_args(const std::vector<std::string>& args,
                                                      std::string& error) {
  auto state = std::make_shared<ParseState>();
  return parse_into<SearchCommandOptions>(
      "search", args, error,
      [&](CLI::App& app, SearchCommandOptions& o) { search_options(app, o, state); });
}

std::optional<ImportOptions> parse_import_args(const std::vector<std::string>& args,
                                               std::string& error) {
  return parse_into<ImportOptions>("import", args, error, import_options);
}

std::string usage_text() {
  Commands c;
  return c.app.help("", CLI::AppFormatMode::All);
}

std::string command_help(std::string_view command) {
  Commands c;
  return c.command(command)->help();
}

std::vector<std::string> option_names(std::string_view command, bool& takes_switches) {
  Commands c;
  takes_switches = false;
  std::vector<std::string> out;
  for (const CLI::Option* opt : c.command(command)->get_options()) {
    for (const std::string& name : opt->get_lnames()) {
      if (!mechanism_values(name).empty()) {
        takes_switches = true;
      } else if (name != "help") {
        out.push_back("--" + name);
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string version_text() {
  return fmt::format("preemptcheck {}\nfingerprint scheme {}\ngit revision {}",
                     report::tool_version(), kFingerprintScheme, report::git_revision());
}

int run_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "help") {
    out << usage_text();
    return args.empty() ? kExitBadInput : kExitHolds;
  }
  const bool known = std::find(std::begin(kCommandNames), std::end(kCommandNames), args[0]) !=
                     std::end(kCommandNames);
  if (!known && !args[0].starts_with("-")) {
    report::print(err, "preemptcheck: unknown command '{}'\n{}", args[0], usage_text());
    return kExitBadInput;
  }
  const std::string command = known ? args[0] : std::string();
  const bool json = known && wants_json(args);
  Commands c;
  std::string error;
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    c.app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << (known ? c.command(command)->help() : usage_text());
    return kExitHolds;
  } catch (const CLI::CallForVersion&) {
    out << version_text() << '\n';
    return kExitHolds;
  } catch (const CLI::ParseError& e) {
    error = e.what();
  }
  if (error.empty() && !known) {
    error = fmt::format("expected a command: {}",
                        joined_words({std::begin(kCommandNames), std::end(kCommandNames)}, ", "));
  }
  if (error.empty()) {
    std::optional<std::string> e = leftover(*c.command(command));
    if (!e && command == "replay") {
      e = finish(c.replay);
    } else if (!e && command == "graph") {
      e = finish(c.graph);
    } else if (!e && command == "search") {
      e = finish(c.search);
    } else if (!e && command == "import") {
      e = finish(c.import);
    }
    if (e)
      error = *e;
  }
  const std::string prefix = command.empty() ? "preemptcheck" : "preemptcheck " + command;
  // Under mpirun every rank runs the command and refuses alike; the lead alone prints an error
  // document.
  const auto lead = [] { return Ranks::of_this_process().is_lead(); };
  if (!error.empty()) {
    report::print(err, "{}: {}\n", prefix, error);
    if (json && lead())
      report::write_json(report::json_error(command, error, kExitBadInput), out);
    return kExitBadInput;
  }
  // Under --json, what the command says on its error stream becomes the error document.
  // An error replaces the document the command may have begun.
  std::ostringstream captured;
  std::ostringstream document;
  std::ostream& command_out = json ? document : out;
  std::ostream& command_err = json ? captured : err;
  // Only `check` and `search` stop at a safe point on SIGINT or SIGTERM, and `explore` stops
  // its server (main() installed the
  // handlers first thing); the other commands end on them as before.
  if (command != "check" && command != "search" && command != "explore")
    InterruptSignals::give_back();
  int rc = kExitBadInput;
  if (command == "check")
    rc = run_check(c.check, command_out, command_err);
  if (command == "replay")
    rc = run_replay(c.replay, command_out, command_err);
  if (command == "graph")
    rc = run_graph(c.graph, command_out, command_err);
  if (command == "search")
    rc = run_search_command(c.search, command_out, command_err);
  if (command == "import")
    rc = run_import(c.import, command_out, command_err);
  if (command == "explore")
    rc = run_explore(c.explore, command_out, command_err);
  if (command == "profiles")
    rc = run_profiles(command_out);
  if (json) {
    err << captured.str();
    // A command that refuses with exit 2 prints no document, and its first error line becomes
    // the error document; one that ran (a replay that diverged) prints its own.
    if (rc != kExitBadInput || !document.str().empty()) {
      out << document.str();
    } else if (lead()) {
      std::string text = captured.str();
      text = text.substr(0, text.find('\n'));
      if (text.starts_with(prefix + ": "))
        text = text.substr(prefix.size() + 2);
      if (text.starts_with("preemptcheck: "))
        text = text.substr(14);
      report::write_json(report::json_error(command, text, rc), out);
    }
  }
  return rc;
}

}  // namespace preemptcheck::cli
