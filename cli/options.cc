// The options of each command on CLI11: strict whole numbers and seconds, the mechanism
// switches and --property from the tables in impl/ and spec/, and the help footer's lists.
#include "cli/options.h"

#include <fmt/format.h>
#include <algorithm>

#include <limits>

#include "cli/args.h"
#include "files/limits.h"
#include "impl/mechanisms.h"
#include "properties/simulate.h"
#include "spec/liveness.h"

namespace preemptcheck::cli {
namespace {

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

// --threads: worker threads, 1 to 256; `help` says what they run.
void threads_option(CLI::App& app, unsigned& threads, const std::string& help) {
  whole_option(app, "--threads", threads, 1, 256, "a whole number from 1 to 256", help);
}

// The safety properties' names, from spec/'s table.
std::vector<std::string_view> safety_names() {
  std::vector<std::string_view> out;
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (!d.is_witness)
      out.push_back(d.name);
  }
  return out;
}

// "kubernetes-1.33 = kubernetes, kubernetes-1.34 = kubernetes"
std::string alias_words() {
  std::string out;
  for (const ProfileAlias& a : profile_aliases())
    out += fmt::format("{}{} = {}", out.empty() ? "" : ", ", a.name, a.profile);
  return out;
}

// --seed S: a whole number under parse_whole's rule, into `into`.
CLI::Option* seed_option(CLI::App& app, std::optional<std::uint64_t>& into,
                         const std::string& help) {
  return app
      .add_option_function<std::string>(
          "--seed",
          [&into](const std::string& v) {
            const auto n = parse_whole(v, kNoMax);
            if (!n)
              throw CLI::ValidationError(fmt::format("--seed expects a whole number, got '{}'", v));
            into = *n;
          },
          help)
      ->type_name("S");
}

// --profile and one --NAME=VALUE option per mechanism of impl/'s table. Switches apply on
// top of the profile whatever their order on the command line, in the order given.
void mechanism_options(CLI::App& app, MechanismChoice& choice) {
  app.add_option_function<std::string>(
         "--profile",
         [&choice](const std::string& v) {
           const bool alias = std::any_of(profile_aliases().begin(), profile_aliases().end(),
                                          [&v](const ProfileAlias& a) { return a.name == v; });
           if (!profile(v) && !alias) {
             throw CLI::ValidationError(
                 fmt::format("unknown profile '{}'; expected one of: {} (or {})", v,
                             joined_words(profile_names(), ", "), alias_words()));
           }
           if (choice.profile && *choice.profile != v) {
             throw CLI::ValidationError(fmt::format(
                 "--profile given twice ('{}', then '{}'); name one profile", *choice.profile, v));
           }
           choice.profile = v;
         },
         fmt::format("The mechanisms' starting point, one of: {} (or {}; default: the "
                     "scenario's, else reference); switches apply on top of it, before or after it",
                     joined_words(profile_names(), ", "), alias_words()))
      ->type_name("P")
      ->trigger_on_parse();
  for (std::string_view name : mechanism_names()) {
    const std::string flag = fmt::format("--{}", name);
    app.add_option_function<std::string>(
           flag,
           [&choice, n = std::string(name)](const std::string& v) {
             Mechanisms probe;
             if (auto e = set_mechanism(probe, n, v))
               throw CLI::ValidationError(*e);
             for (const auto& [given, value] : choice.switches) {
               if (given == n && value != v) {
                 throw CLI::ValidationError(fmt::format(
                     "--{} given twice ('{}', then '{}'); name one value", n, value, v));
               }
             }
             choice.switches.emplace_back(n, v);
           },
           fmt::format("One of: {}", joined_words(mechanism_values(name), ", ")))
        ->type_name(joined_words(mechanism_values(name), "|"))
        ->group("Mechanism switches (on top of the profile, in order)")
        ->trigger_on_parse();
  }
}

// The safety property `name` names; a usage error listing the names otherwise.
spec::Property safety_property_named(const std::string& name) {
  if (name == spec::kNoStarvation) {
    throw CLI::ValidationError(
        "no-starvation is a liveness property: check it with --liveness (which checks it alone), "
        "not --property");
  }
  const auto p = spec::find_property(name);
  if (!p || spec::property_def(*p).is_witness) {
    throw CLI::ValidationError(fmt::format("unknown property '{}'; expected one of: {}", name,
                                           joined_words(safety_names(), ", ")));
  }
  return *p;
}

void property_option(CLI::App& app, std::bitset<spec::kPropertyCount>& checked,
                     const std::shared_ptr<ParseState>& state) {
  app.add_option_function<std::string>(
         "--property",
         [&checked, state](const std::string& v) {
           const spec::Property p = safety_property_named(v);
           if (!state->properties_named)
             checked.reset();
           state->properties_named = true;
           checked.set(static_cast<std::size_t>(p));
         },
         fmt::format("Check only the named properties (repeatable): {}",
                     joined_words(safety_names(), ", ")))
      ->type_name("NAME")
      ->trigger_on_parse();
}

}  // namespace

std::string joined_words(const std::vector<std::string_view>& words, std::string_view separator) {
  std::string out;
  for (std::string_view w : words)
    out += fmt::format("{}{}", out.empty() ? "" : separator, w);
  return out;
}

void check_options(CLI::App& app, CheckOptions& o, const std::shared_ptr<ParseState>& state) {
  CLI::Option* scenario =
      app.add_option("SCENARIO", o.scenario_path,
                     "The scenario YAML file (default: the embedded scenarios/default.yaml)")
          ->type_name("SCENARIO.yaml");
  app.add_option("--scenario-of", o.scenario_of,
                 "Check the inline scenario of a counterexample FILE (its recorded mechanisms "
                 "are the starting point, as a scenario's own are) instead of SCENARIO")
      ->type_name("FILE")
      ->excludes(scenario);
  mechanism_options(app, o.mechanisms);
  whole_option(app, "--max-states", o.limits.max_states, 0, kNoMax, "a whole number",
               "Stop after N distinct states (default: no limit; --max-memory bounds the "
               "search); exit 3");
  whole_option(app, "--max-depth", o.limits.max_depth, 0, std::numeric_limits<std::uint32_t>::max(),
               "a whole number", "Explore at most N steps deep; exit 3 when that stops it");
  app.add_option_function<std::string>(
         "--time-limit",
         [&o](const std::string& v) {
           const auto s = parse_seconds(v);
           if (!s)
             throw CLI::ValidationError(fmt::format("--time-limit expects seconds, got '{}'", v));
           o.limits.time_limit_seconds = *s;
         },
         "Stop after S seconds (digits, optional fraction: 5, 0.5); exit 3")
      ->type_name("S");
  property_option(app, o.checked, state);
  app.add_option_function<std::string>(
         "--expect-violated",
         [&o](const std::string& v) {
           if (v != spec::kNoStarvation)
             safety_property_named(v);
           o.expect_violated.push_back(v);
         },
         "Gate on expectations (repeatable): this property must be violated, every other "
         "checked one must hold; exit 0 when all are met, 1 when one is not, 3 when a limit left "
         "one undecided (with --liveness: no-starvation)")
      ->type_name("NAME")
      ->trigger_on_parse();
  app.add_option("--junit", o.junit_path,
                 "Also write the expectations (every checked property holds, but those of "
                 "--expect-violated) as a JUnit XML report to FILE; the exit code is the gate's")
      ->type_name("FILE");
  app.add_flag("--json", o.json, "Print one JSON document instead of the text");
  app.add_option("--out", o.out_dir,
                 "Write each violated property's shortest counterexample to DIR as a YAML file, "
                 "and print the line that replays it")
      ->type_name("DIR");
  threads_option(app, o.threads,
                 "Worker threads (default: the machine's cores; under mpirun, one per rank); "
                 "every result is the same for every N");
  app.add_option_function<std::string>(
         "--reduce",
         [&o](const std::string& v) {
           const std::optional<Reduction> r = parse_reduction(v);
           if (!r) {
             throw CLI::ValidationError(fmt::format(
                 "--reduce expects none, symmetry, watch-order or watch-order,symmetry, got '{}'",
                 v));
           }
           o.reduce = *r;
         },
         "State-space reduction: none (the default), symmetry (interchangeable pods are "
         "stored once per renaming), watch-order (concurrent writes stored once per order "
         "of the watch stream, counterexamples written as FIFO schedules) or both, "
         "watch-order,symmetry; SPEC §8; "
         "verdicts are the same, and every result is the same for every thread and rank count")
      ->type_name("R");
  app.add_option_function<std::string>(
         "--max-memory",
         [&o](const std::string& v) {
           const auto bytes = parse_memory_size(v);
           if (!bytes) {
             throw CLI::ValidationError(
                 fmt::format("--max-memory expects a size such as 200M, 2G or 512Mi, got '{}'", v));
           }
           o.max_memory = *bytes;
         },
         "Stop with exit 3 before the search holds more than SIZE, its temporary files on a "
         "tmpfs included (200M, 2G, 512Mi; default: 80% of physical memory)")
      ->type_name("SIZE");
  app.add_flag("--quiet", o.quiet, "No progress line on stderr");
  app.add_flag("--stop-at-first", o.stop_at_first,
               "Stop at the first violation instead of finding every property's own shortest "
               "counterexample");
  app.add_flag(
      "--liveness", o.liveness,
      "Check no-starvation instead: the whole state graph (at most --max-states, "
      "default 1000000, and --time-limit, else exit 3), under weak fairness of the scheduler's own "
      "steps; a violation is a lasso, a prefix and a loop");
  app.add_option_function<std::string>(
         "--simulate",
         [&o](const std::string& v) {
           const auto n = parse_whole(v, 1'000'000'000);
           if (!n || *n < 1) {
             throw CLI::ValidationError(fmt::format(
                 "--simulate expects a number of walks from 1 to 1000000000, got '{}'", v));
           }
           o.simulate = *n;
         },
         fmt::format("Take N random walks from the initial state instead of the breadth-first "
                     "search, each at most --simulate-depth steps (default {}), checking every "
                     "property and witness on the way; a violation is shrunk and written as "
                     "--out writes; none: exit 3, nothing is proven",
                     kDefaultSimulateDepth))
      ->type_name("N");
  app.add_option_function<std::string>(
         "--simulate-depth",
         [&o](const std::string& v) {
           const auto n = parse_whole(v, 1'000'000);
           if (!n || *n < 1) {
             throw CLI::ValidationError(fmt::format(
                 "--simulate-depth expects a number of steps from 1 to 1000000, got '{}'", v));
           }
           o.simulate_depth = static_cast<std::uint32_t>(*n);
         },
         "With --simulate: the most steps a walk takes")
      ->type_name("D");
  seed_option(
      app, o.seed,
      "With --simulate: the walks' seed (default: a fresh one, printed); the same seed gives "
      "the same walks on any number of threads");
  app.add_flag("--unfair", o.unfair,
               "With --liveness: count every loop, even one that neglects the scheduler's own "
               "steps");
}

void replay_options(CLI::App& app, ReplayOptions& o) {
  app.add_option("FILE", o.file, "The counterexample file")->type_name("FILE");
  app.add_flag("--full", o.full, "Print the whole state after every step, not what changed");
  mechanism_options(app, o.mechanisms);
  app.add_flag("--json", o.json, "Print one JSON document instead of the text");
  app.add_option("--html", o.html_path, "Also write the schedule's swimlane page to FILE")
      ->type_name("FILE");
  app.add_flag("--allow-unfingerprinted", o.allow_unfingerprinted,
               "Replay a file whose steps carry no fingerprints (the output says so)");
}

void graph_options(CLI::App& app, GraphOptions& o) {
  app.add_option("SCENARIO", o.scenario_path, "The scenario (default: the embedded one)")
      ->type_name("SCENARIO.yaml");
  app.add_option("--dot", o.dot_path, "Write the DOT text to FILE (- for standard output)")
      ->type_name("FILE");
  app.add_option("--svg", o.svg_path, "Render it to FILE with Graphviz's dot")->type_name("FILE");
  app.add_option("--around", o.around_path,
                 "Draw a counterexample's path and each state's other successors (one level), "
                 "not the whole space; the scenario comes from the file")
      ->type_name("COUNTEREXAMPLE.yaml");
  whole_option(app, "--max-states", o.max_states, 1, kNoMax, "a positive whole number",
               fmt::format("Refuse (exit 3) a space of more than N states (default {})",
                           kDefaultGraphStates));
  mechanism_options(app, o.mechanisms);
  app.add_flag("--allow-unfingerprinted", o.allow_unfingerprinted,
               "--around: draw a file with no digest or fingerprints (a schedule written by hand)");
  app.add_flag("--json", o.json, "Print one JSON document instead of the summary");
}

void explore_options(CLI::App& app, ExploreOptions& o) {
  app.add_option("SCENARIO", o.scenario_path, "The scenario (default: the embedded one)")
      ->type_name("SCENARIO.yaml");
  mechanism_options(app, o.mechanisms);
  whole_option(
      app, "--port", o.port, 0, 65535, "a whole number from 0 to 65535",
      fmt::format("Listen on 127.0.0.1:N (default {}; 0: a free port)", kDefaultExplorePort));
  whole_option(app, "--max-states", o.max_states, 1, kNoMax, "a positive whole number",
               "\"Shortest violation from here\" stores at most N states (default 1000000)");
}

void search_options(CLI::App& app, SearchCommandOptions& o,
                    const std::shared_ptr<ParseState>& state) {
  whole_option(app, "--runs", o.runs, 1, 100'000'000, "a whole number from 1 to 100000000",
               "Clusters (or --stateful runs) to generate (default 100)");
  seed_option(app, o.seed, "RapidCheck's seed (default: a fresh one, printed)");
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
  threads_option(app, o.threads,
                 "Worker threads of each cluster's search (default: the machine's cores); the "
                 "result is the same for every N");
  app.add_flag("--differential", o.differential,
               "Fail a cluster only when the profile alone, without the switches, holds on it");
  app.add_flag("--stateful", o.stateful, "Random walks on larger clusters (3-4 nodes, 9-12 pods)");
  whole_option(app, "--max-steps", o.max_steps, 1, 100'000, "a whole number from 1 to 100000",
               "--stateful: steps per walk, at most (default 150)");
  app.add_flag("--json", o.json, "Print one JSON document instead of the text");
}

// The profiles and mechanisms lines, from the tables in impl/, so that they cannot go stale.
void import_options(CLI::App& app, ImportOptions& o) {
  app.add_option("FILE", o.files,
                 fmt::format("kubectl output: `kubectl get nodes,pods,pdb,priorityclasses -A -o "
                             "yaml` (a List, or several YAML documents; at most {} MiB a file); "
                             "several files are read as one cluster, each object once",
                             limits::kMaxKubectlFileBytes >> 20))
      ->type_name("KUBECTL.yaml");
  app.add_option("--nodes", o.nodes, "Keep only these nodes (comma-separated) and their pods")
      ->type_name("A,B")
      ->delimiter(',');
  app.add_option("-o,--output", o.out_path, "Write the scenario to FILE (default: standard output)")
      ->type_name("FILE");
  app.add_flag("--json", o.json, "Print one JSON document (the scenario inside) instead");
}

std::string switches_text() {
  std::string profiles;
  for (std::string_view p : profile_names()) {
    profiles += fmt::format("{}{}{}", profiles.empty() ? "" : ", ", p,
                            p == "reference" ? " (default)" : "");
  }
  std::string out = fmt::format(
      "profiles:    {}\n             {}\n             (`preemptcheck profiles` says which "
      "kube-scheduler versions each stands for)\nmechanisms:",
      profiles, alias_words());
  std::vector<std::string> words;
  for (std::string_view name : mechanism_names()) {
    words.push_back(fmt::format("--{}={}", name, joined_words(mechanism_values(name), "|")));
  }
  // Two columns, the first as wide as its widest entry and two blanks, so no two run together.
  std::size_t width = 0;
  for (size_t i = 0; i < words.size(); i += 2)
    width = std::max(width, words[i].size() + 2);
  for (size_t i = 0; i < words.size(); i += 2) {
    out += i == 0 ? "  " : "\n             ";
    out += i + 1 < words.size() ? fmt::format("{:<{}}{}", words[i], width, words[i + 1]) : words[i];
  }
  return out + fmt::format("\nproperties:  {}", joined_words(safety_names(), ", "));
}

}  // namespace preemptcheck::cli
