// The command line: switches and --profile in either order, the strict numbers, notes for
// switches that change nothing, --version, each command's --help, and README's synopsis
// against the options CLI11 knows.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/command_test_support.h"
#include "cli/search_command.h"
#include "impl/mechanisms.h"
#include "impl/world.h"

namespace preemptcheck::cli {
namespace {

using Outcome = testing::Ran;

Outcome run(const std::vector<std::string>& args) { return testing::run_command(args); }

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The mechanisms a parsed check runs under.
std::string mechanisms_of(const std::vector<std::string>& args) {
  std::string error;
  const auto o = parse_check_args(args, error);
  EXPECT_TRUE(o.has_value()) << error;
  Scenario s = load_scenario("");
  EXPECT_FALSE(apply_choice(s, o->mechanisms).has_value());
  return describe(s.mechanisms) + " / " + s.profile;
}

TEST(cliArgs, ASwitchAppliesOnTopOfTheProfileInEitherOrder) {
  const std::string before = mechanisms_of({"--inflight=off", "--profile", "kubernetes"});
  const std::string after = mechanisms_of({"--profile", "kubernetes", "--inflight=off"});
  EXPECT_EQ(before, after);
  EXPECT_TRUE(contains(before, "inflight=off")) << before;
  EXPECT_TRUE(contains(before, "/ kubernetes")) << before;
  EXPECT_NE(before, mechanisms_of({"--profile", "kubernetes"}));
}

TEST(cliArgs, ASecondDifferentProfileIsRefused) {
  const Outcome r = run({"check", "--profile", "kubernetes", "--profile", "reference"});
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_TRUE(contains(r.err, "--profile given twice")) << r.err;
}

TEST(cliArgs, ASwitchGivenTwiceWithTwoValuesIsRefused) {
  const Outcome r = run({"check", "--inflight=off", "--inflight=on"});
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_TRUE(contains(r.err, "--inflight given twice ('off', then 'on')")) << r.err;
  // The same value twice says nothing new, and is accepted.
  EXPECT_EQ(run({"check", "--inflight=off", "--inflight=off", "--quiet"}).rc, kExitViolated);
}

TEST(cliArgs, AnUnknownPropertyListsTheNames) {
  const Outcome r = run({"check", "--property", "no-such"});
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_TRUE(contains(r.err,
                       "unknown property 'no-such'; expected one of: no-double-victim, "
                       "no-double-claim"))
      << r.err;
}

TEST(cliArgs, EveryNumericOptionHasOneStrictRule) {
  for (const std::string bad : {"inf", "nan", "0x10", " 5", "5 ", "+3", "-3", "1e3", ""}) {
    for (const std::vector<std::string>& cmd :
         std::vector<std::vector<std::string>>{{"check", "--time-limit"},
                                               {"check", "--max-states"},
                                               {"check", "--max-depth"},
                                               {"graph", "--dot", "-", "--max-states"},
                                               {"search", "--runs"},
                                               {"search", "--seed"},
                                               {"search", "--max-pods"},
                                               {"search", "--max-states"}}) {
      std::vector<std::string> args = cmd;
      args.push_back(bad);
      const Outcome r = run(args);
      EXPECT_EQ(r.rc, kExitBadInput) << cmd.back() << " '" << bad << "'";
    }
  }
  EXPECT_EQ(parse_seconds("0.5"), 0.5);
  EXPECT_EQ(parse_seconds("5"), 5.0);
  EXPECT_FALSE(parse_seconds("5."));
  EXPECT_FALSE(parse_seconds(".5"));
  EXPECT_EQ(parse_whole("18446744073709551615", ~std::uint64_t{0}), ~std::uint64_t{0});
  EXPECT_FALSE(parse_whole("18446744073709551616", ~std::uint64_t{0}));
  EXPECT_FALSE(parse_whole("11", 10));
  const Outcome r = run({"check", "--time-limit", "inf"});
  EXPECT_TRUE(contains(r.err, "--time-limit expects seconds, got 'inf'")) << r.err;
}

TEST(cliArgs, ASwitchThatChangesNothingGetsANoteNotAnError) {
  const Outcome r = run({"check", "--profile", "reference", "--inflight=on", "--max-states", "10"});
  EXPECT_EQ(r.rc, kExitLimit);
  EXPECT_TRUE(contains(r.err, "note: --inflight=on changes nothing")) << r.err;
}

TEST(cliArgs, DifferentialWithoutAnEffectiveSwitchIsAUsageError) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"search", "--differential", "--seed", "1", "--runs", "1"},
           {"search", "--differential", "--profile", "kubernetes-1.32", "--seed", "1"},
           {"search", "--differential", "--profile", "kubernetes", "--gate=last-victim", "--seed",
            "1"}}) {
    const Outcome r = run(args);
    EXPECT_EQ(r.rc, kExitBadInput) << args[2];
    EXPECT_TRUE(contains(r.err, "--differential compares")) << r.err;
  }
}

TEST(cliArgs, SearchPrintsItsSeedAndReproduceLineWhenItPasses) {
  const Outcome r = run({"search", "--seed", "3", "--runs", "3"});
  EXPECT_EQ(r.rc, kExitHolds);
  EXPECT_TRUE(contains(r.out, "seed 3")) << r.out;
  EXPECT_TRUE(contains(r.out, "reproduce  preemptcheck search --seed 3 --runs 3")) << r.out;
  const Outcome s = run({"search", "--stateful", "--seed", "3", "--runs", "1", "--max-steps", "5"});
  EXPECT_EQ(s.rc, kExitHolds);
  EXPECT_TRUE(contains(s.out, "reproduce  preemptcheck search --seed 3 --runs 1 --stateful"))
      << s.out;
}

TEST(cliArgs, VersionNamesVersionSchemeAndRevision) {
  const Outcome r = run({"--version"});
  EXPECT_EQ(r.rc, kExitHolds);
  EXPECT_TRUE(contains(r.out, "preemptcheck ")) << r.out;
  EXPECT_TRUE(contains(r.out, "fingerprint scheme " + std::to_string(kFingerprintScheme)));
  EXPECT_TRUE(contains(r.out, "git revision ")) << r.out;
}

TEST(cliArgs, EachCommandHasItsOwnHelp) {
  for (std::string_view command : kCommandNames) {
    const Outcome r = run({std::string(command), "--help"});
    EXPECT_EQ(r.rc, kExitHolds) << command;
    EXPECT_EQ(r.out, command_help(command));
    bool switches = false;
    for (const std::string& name : option_names(command, switches)) {
      EXPECT_TRUE(contains(r.out, name)) << command << " " << name;
    }
  }
  EXPECT_EQ(run({"--help"}).out, usage_text());
  EXPECT_EQ(run({}).rc, kExitBadInput);
  EXPECT_EQ(run({"frobnicate"}).rc, kExitBadInput);
}

// No two entries of --help run together: every option starts after a blank, a bracket, a comma
// or a line's start, in the switches' two columns as everywhere else.
TEST(cliArgs, HelpNeverRunsTwoOptionsTogether) {
  std::vector<std::string> helps{run({"--help"}).out};
  for (std::string_view command : kCommandNames)
    helps.push_back(run({std::string(command), "--help"}).out);
  for (const std::string& help : helps) {
    for (auto at = help.find("--"); at != std::string::npos; at = help.find("--", at + 2)) {
      const char before = at == 0 ? '\n' : help[at - 1];
      EXPECT_TRUE(before == ' ' || before == '\n' || before == '[' || before == ',' ||
                  before == '(' || before == '`' || before == '-' || before == '=')
          << "'" << before << "' right before: " << help.substr(at, 40);
      while (at + 2 < help.size() && help[at + 2] == '-')
        ++at;
    }
  }
}

// README's "Command line" synopsis lists exactly the options each command's --help lists.
TEST(cliArgs, ReadmeSynopsisListsEveryOption) {
  const std::string readme = testing::read_text(testing::source_path("README.md"));
  const auto heading = readme.find("## Command line");
  ASSERT_NE(heading, std::string::npos);
  const auto open = readme.find("```\n", heading);
  const auto close = readme.find("```", open + 4);
  ASSERT_NE(close, std::string::npos);
  std::map<std::string, std::set<std::string>> synopsis;
  std::string command;
  for (const std::string& line : testing::split_lines(readme.substr(open + 4, close - open - 4))) {
    if (line.starts_with("preemptcheck ")) {
      const auto end = line.find(' ', 13);
      command = line.substr(13, end == std::string::npos ? end : end - 13);
    }
    for (auto at = line.find("--"); at != std::string::npos; at = line.find("--", at + 2)) {
      auto end = at + 2;
      while (end < line.size() &&
             (std::islower(static_cast<unsigned char>(line[end])) ||
              std::isupper(static_cast<unsigned char>(line[end])) || line[end] == '-')) {
        ++end;
      }
      synopsis[command].insert(line.substr(at, end - at));
    }
  }
  for (std::string_view c : kCommandNames) {
    bool switches = false;
    std::set<std::string> expected;
    for (const std::string& name : option_names(c, switches))
      expected.insert(name);
    if (switches)
      expected.insert("--MECHANISM");
    EXPECT_EQ(synopsis[std::string(c)], expected) << "README's synopsis of " << c;
  }
  EXPECT_TRUE(synopsis["--version"].contains("--version"));
}

}  // namespace
}  // namespace preemptcheck::cli
