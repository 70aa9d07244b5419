// The command line on CLI11: the App, each command's options, the strict numbers, help text
// generated from the tables in impl/ and spec/, and the dispatch with JSON errors.
#include "cli/args.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <memory>
#include <ostream>
#include <sstream>

#include "cli/graph_command.h"
#include "cli/json.h"
#include "cli/replay_command.h"
#include "cli/search_command.h"
#include "cli/version.h"
#include "impl/mechanisms.h"
#include "impl/world.h"

namespace preemptcheck::cli {

std::optional<std::uint64_t> parse_whole(std::string_view text, std::uint64_t max) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) {
        return c >= '0' && c <= '9';
      })) {
    return std::nullopt;
  }
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n > max) return std::nullopt;
  return n;
}

std::optional<double> parse_seconds(std::string_view text) {
  const auto dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  auto digits = [](std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (!digits(whole) || (dot != std::string_view::npos && !digits(fraction))) return std::nullopt;
  double out = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out,
                                         std::chars_format::fixed);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return out;
}

namespace {

constexpr std::uint64_t kNoMax = ~std::uint64_t{0};

// What an option's callback records beyond the options struct.
struct ParseState {
  bool properties_named = false;
};

// A whole-number option under parse_whole's rule, from `min` to `max`; `expects` completes
// "FLAG expects ..." in the error.
template <class T>
void whole_option(CLI::App& app, const std::string& flag, T& into, std::uint64_t min,
                  std::uint64_t max, std::string expects, const std::string& help) {
  app.add_option_function<std::string>(
         flag,
         [&into, flag, min, max, expects](const std::string& v) {
           const auto n = parse_whole(v, max);
           if (!n || *n < min) {
             throw CLI::ValidationError(fmt::format("{} expects {}, got '{}'", flag, expects, v));
           }
           into = static_cast<T>(*n);
         },
         help)
      ->type_name("N");
}

std::string joined(const std::vector<std::string_view>& words, std::string_view separator) {
  std::string out;
  for (std::string_view w : words) out += fmt::format("{}{}", out.empty() ? "" : separator, w);
  return out;
}

// The safety properties' names, from spec/'s table.
std::vector<std::string_view> safety_names() {
  std::vector<std::string_view> out;
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (!d.is_witness) out.push_back(d.name);
  }
  return out;
}

// --profile and one --NAME=VALUE option per mechanism of impl/'s table. Switches apply on
// top of the profile whatever their order on the command line, in the order given.
void mechanism_options(CLI::App& app, MechanismChoice& choice) {
  app.add_option_function<std::string>(
         "--profile",
         [&choice](const std::string& v) {
           if (!profile(v)) {
             throw CLI::ValidationError(fmt::format("unknown profile '{}'; expected one of: {}",
                                                    v, joined(profile_names(), ", ")));
           }
           if (choice.profile && *choice.profile != v) {
             throw CLI::ValidationError(fmt::format(
                 "--profile given twice ('{}', then '{}'); name one profile", *choice.profile, v));
           }
           choice.profile = v;
         },
         fmt::format("The mechanisms' starting point, one of: {} (default: the scenario's, "
                     "else reference); switches apply on top of it, before or after it",
                     joined(profile_names(), ", ")))
      ->type_name("P")
      ->trigger_on_parse();
  for (std::string_view name : mechanism_names()) {
    const std::string flag = fmt::format("--{}", name);
    app.add_option_function<std::string>(
           flag,
           [&choice, n = std::string(name)](const std::string& v) {
             Mechanisms probe;
             if (auto e = set_mechanism(probe, n, v)) throw CLI::ValidationError(*e);
             choice.switches.emplace_back(n, v);
           },
           fmt::format("One of: {}", joined(mechanism_values(name), ", ")))
        ->type_name(joined(mechanism_values(name), "|"))
        ->group("Mechanism switches (on top of the profile, in order)")
        ->trigger_on_parse();
  }
}

void property_option(CLI::App& app, std::bitset<spec::kPropertyCount>& checked,
                     const std::shared_ptr<ParseState>& state) {
  app.add_option_function<std::string>(
         "--property",
         [&checked, state](const std::string& v) {
           const auto p = spec::find_property(v);
           if (!p || spec::property_def(*p).is_witness) {
             throw CLI::ValidationError(fmt::format("unknown property '{}'", v));
           }
           if (!state->properties_named) checked.reset();
           state->properties_named = true;
           checked.set(static_cast<std::size_t>(*p));
         },
         fmt::format("Check only the named properties (repeatable): {}",
                     joined(safety_names(), ", ")))
      ->type_name("NAME")
      ->trigger_on_parse();
}

void check_options(CLI::App& app, CheckOptions& o, const std::shared_ptr<ParseState>& state) {
  app.add_option("SCENARIO", o.scenario_path,
                 "The scenario YAML file (default: the embedded scenarios/default.yaml)")
      ->type_name("SCENARIO.yaml");
  mechanism_options(app, o.mechanisms);
  whole_option(app, "--max-states", o.limits.max_states, 0, kNoMax, "a whole number",
               fmt::format("Stop after N distinct states (default {}); exit 3", kDefaultMaxStates));
  whole_option(app, "--max-depth", o.limits.max_depth, 0, std::numeric_limits<std::uint32_t>::max(),
               "a whole number", "Explore at most D steps deep; exit 3 when that stops it");
  app.add_option_function<std::string>(
         "--time-limit",
         [&o](const std::string& v) {
           const auto s = parse_seconds(v);
           if (!s) throw CLI::ValidationError(fmt::format("--time-limit expects seconds, got '{}'", v));
           o.limits.time_limit_seconds = *s;
         },
         "Stop after S seconds (digits, optional fraction: 5, 0.5); exit 3")
      ->type_name("S");
  property_option(app, o.checked, state);
  app.add_flag("--json", o.json, "Print one JSON document instead of the text");
  app.add_option("--out", o.out_dir,
                 "Write each violated property's shortest counterexample to DIR as a YAML file, "
                 "and print the line that replays it")
      ->type_name("DIR");
  whole_option(app, "--threads", o.threads, 1, 256, "a whole number from 1 to 256",
               "Worker threads (default: the machine's cores); every result is the same for "
               "every N");
  app.add_option_function<std::string>(
         "--max-memory",
         [&o](const std::string& v) {
           const auto bytes = parse_memory_size(v);
           if (!bytes) {
             throw CLI::ValidationError(fmt::format(
                 "--max-memory expects a size such as 200M, 2G or 512Mi, got '{}'", v));
           }
           o.max_memory = *bytes;
         },
         "Stop with exit 3 before the search holds more than SIZE (200M, 2G, 512Mi; default: "
         "80% of physical memory)")
      ->type_name("SIZE");
  app.add_flag("--quiet", o.quiet, "No progress line on stderr");
  app.add_flag("--stop-at-first", o.stop_at_first,
               "Stop at the first violation instead of finding every property's own shortest "
               "counterexample");
}

void replay_options(CLI::App& app, ReplayOptions& o) {
  app.add_option("FILE", o.file, "The counterexample file")->type_name("FILE");
  app.add_flag("--full", o.full, "Print the whole state after every step, not what changed");
  mechanism_options(app, o.mechanisms);
  app.add_flag("--json", o.json, "Print one JSON document instead of the text");
}

void graph_options(CLI::App& app, GraphOptions& o) {
  app.add_option("SCENARIO", o.scenario_path, "The scenario (default: the embedded one)")
      ->type_name("SCENARIO.yaml");
  app.add_option("--dot", o.dot_path, "Write the DOT text to FILE (- for standard output)")
      ->type_name("FILE");
  app.add_option("--svg", o.svg_path, "Render it to FILE with Graphviz's dot")->type_name("FILE");
  whole_option(app, "--max-states", o.max_states, 1, kNoMax, "a positive whole number",
               fmt::format("Refuse (exit 3) a space of more than N states (default {})",
                           kDefaultGraphStates));
  mechanism_options(app, o.mechanisms);
}

void search_options(CLI::App& app, SearchCommandOptions& o,
                    const std::shared_ptr<ParseState>& state) {
  whole_option(app, "--runs", o.runs, 1, 100'000'000, "a whole number from 1 to 100000000",
               "Clusters (or --stateful runs) to generate (default 100)");
  app.add_option_function<std::string>(
         "--seed",
         [&o](const std::string& v) {
           const auto n = parse_whole(v, kNoMax);
           if (!n) throw CLI::ValidationError(fmt::format("--seed expects a whole number, got '{}'", v));
           o.seed = *n;
         },
         "RapidCheck's seed (default: a fresh one, printed)")
      ->type_name("S");
  whole_option(app, "--max-nodes", o.max_nodes, 1, kMaxNodes,
               fmt::format("a whole number from 1 to {}", kMaxNodes),
               "Nodes per generated cluster, at most (default 3)");
  whole_option(app, "--max-pods", o.max_pods, 1, kMaxPods,
               fmt::format("a whole number from 1 to {}", kMaxPods),
               "Pods per generated cluster, at most (default 9)");
  whole_option(app, "--max-faults", o.max_faults, 0, 3, "0, 1, 2 or 3",
               "Each fault budget of a cluster is 0..F (default 1)");
  whole_option(app, "--max-states", o.max_states, 1, kNoMax, "a positive whole number",
               fmt::format("Cut a cluster whose search reaches N states (default {})",
                           kDefaultClusterMaxStates));
  mechanism_options(app, o.mechanisms);
  property_option(app, o.checked, state);
  app.add_option("--out", o.out_dir, "Write a counterexample to DIR")->type_name("DIR");
  whole_option(app, "--threads", o.threads, 1, 256, "a whole number from 1 to 256",
               "Worker threads of each cluster's search (default: the machine's cores); the "
               "result is the same for every N");
  app.add_flag("--differential",
               o.differential,
               "Fail a cluster only when the profile alone, without the switches, holds on it");
  app.add_flag("--stateful", o.stateful, "Random walks on larger clusters (3-4 nodes, 9-12 pods)");
  whole_option(app, "--max-steps", o.max_steps, 1, 100'000, "a whole number from 1 to 100000",
               "--stateful: steps per walk, at most (default 150)");
  app.add_flag("--json", o.json, "Print one JSON document instead of the text");
}

// What is checked after parsing, with the messages of the checks CLI11 cannot express.
std::optional<std::string> finish(const ReplayOptions& o) {
  if (o.file.empty()) return "expected a counterexample file, as in: preemptcheck replay FILE.yaml";
  return std::nullopt;
}

std::optional<std::string> finish(const GraphOptions& o) {
  if (o.dot_path.empty()) {
    return "expected --dot FILE, as in: preemptcheck graph SCENARIO.yaml --dot graph.dot";
  }
  if (!o.svg_path.empty() && o.dot_path == "-") {
    return "--svg renders the DOT file, so it needs --dot FILE rather than --dot -";
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

// The first word a command's App did not take, as the error of the hand-written parser
// that preceded CLI11 worded it.
std::optional<std::string> leftover(const CLI::App& app) {
  const std::vector<std::string> extra = app.remaining();
  if (extra.empty()) return std::nullopt;
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

// The profiles and mechanisms lines, from the tables in impl/, so that they cannot go stale.
std::string switches_text() {
  std::string profiles;
  for (std::string_view p : profile_names()) {
    profiles += fmt::format("{}{}{}", profiles.empty() ? "" : ", ", p,
                            p == "reference" ? " (default)" : "");
  }
  std::string out = fmt::format("profiles:    {}\nmechanisms:", profiles);
  std::vector<std::string> words;
  for (std::string_view name : mechanism_names()) {
    words.push_back(fmt::format("--{}={}", name, joined(mechanism_values(name), "|")));
  }
  for (size_t i = 0; i < words.size(); i += 2) {
    out += i == 0 ? "  " : "\n             ";
    out += i + 1 < words.size() ? fmt::format("{:<39}{}", words[i], words[i + 1]) : words[i];
  }
  return out + fmt::format("\nproperties:  {}", joined(safety_names(), ", "));
}

// Every command's options, bound to one struct each, in one App.
struct Commands {
  CheckOptions check;
  ReplayOptions replay;
  GraphOptions graph;
  SearchCommandOptions search;
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
        "graph", "Write the whole state graph as Graphviz DOT; refuse (exit 3) above --max-states");
    graph_options(*g, graph);
    auto* s = app.add_subcommand(
        "search",
        "Generate small clusters with RapidCheck and explore each exhaustively; shrink a "
        "failing one. Prints its seed and a reproduce line on every run");
    search_options(*s, search, search_state);
    for (CLI::App* sub : {c, r, g, s}) sub->allow_extras();
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
  return parse_into<CheckOptions>("check", args, error, [&](CLI::App& app, CheckOptions& o) {
    check_options(app, o, state);
  });
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
  return fmt::format("preemptcheck {}\nfingerprint scheme {}\ngit revision {}", tool_version(),
                     kFingerprintScheme, git_revision());
}

int run_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "help") {
    out << usage_text();
    return args.empty() ? kExitBadInput : kExitHolds;
  }
  const bool known = std::find(std::begin(kCommandNames), std::end(kCommandNames), args[0]) !=
                     std::end(kCommandNames);
  if (!known && !args[0].starts_with("-")) {
    fmt::print(err, "preemptcheck: unknown command '{}'\n{}", args[0], usage_text());
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
    error = fmt::format("expected a command: {}", joined({std::begin(kCommandNames),
                                                          std::end(kCommandNames)}, ", "));
  }
  if (error.empty()) {
    std::optional<std::string> e = leftover(*c.command(command));
    if (!e && command == "replay") {
      e = finish(c.replay);
    } else if (!e && command == "graph") {
      e = finish(c.graph);
    } else if (!e && command == "search") {
      e = finish(c.search);
    }
    if (e) error = *e;
  }
  const std::string prefix = command.empty() ? "preemptcheck" : "preemptcheck " + command;
  if (!error.empty()) {
    fmt::print(err, "{}: {}\n", prefix, error);
    if (json) write_json(json_error(command, error, kExitBadInput), out);
    return kExitBadInput;
  }
  // Under --json, what the command says on its error stream becomes the error document.
  // An error replaces the document the command may have begun.
  std::ostringstream captured;
  std::ostringstream document;
  std::ostream& command_out = json ? document : out;
  std::ostream& command_err = json ? captured : err;
  int rc = kExitBadInput;
  if (command == "check") rc = run_check(c.check, command_out, command_err);
  if (command == "replay") rc = run_replay(c.replay, command_out, command_err);
  if (command == "graph") rc = run_graph(c.graph, command_out, command_err);
  if (command == "search") rc = run_search_command(c.search, command_out, command_err);
  if (json) {
    err << captured.str();
    if (rc != kExitBadInput) {
      out << document.str();
    } else {
      std::string text = captured.str();
      text = text.substr(0, text.find('\n'));
      if (text.starts_with(prefix + ": ")) text = text.substr(prefix.size() + 2);
      if (text.starts_with("preemptcheck: ")) text = text.substr(14);
      write_json(json_error(command, text, rc), out);
    }
  }
  return rc;
}

}  // namespace preemptcheck::cli
