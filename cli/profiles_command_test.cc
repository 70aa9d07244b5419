// `preemptcheck profiles`: every profile of impl/'s table, each described (what it is, which
// kube-scheduler versions it stands for) and with the switches that differ from `reference`,
// as impl/'s table has them.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/command_test_support.h"
#include "impl/mechanisms.h"

namespace preemptcheck::cli {
namespace {

using testing::count_of;
using testing::split_lines;

TEST(cliProfiles, EveryProfileIsDescribedWithItsSwitches) {
  std::ostringstream out;
  std::ostringstream err;
  ASSERT_EQ(run_main({"profiles"}, out, err), kExitHolds) << err.str();
  const std::string text = out.str();
  EXPECT_EQ(text.find("not described"), std::string::npos) << text;
  EXPECT_EQ(count_of(text, "\nwhat       "), profile_names().size()) << text;
  const Mechanisms reference = *profile("reference");
  for (std::string_view name : profile_names()) {
    const auto at = text.find("profile    " + std::string(name) + "\n");
    ASSERT_NE(at, std::string::npos) << name << "\n" << text;
    const std::string block = text.substr(at, text.find("\n\n", at) - at);
    const auto lines = split_lines(block);
    ASSERT_EQ(lines.size(), 4U) << block;
    EXPECT_TRUE(lines[1].starts_with("what       ") && lines[1].size() > 11) << block;
    EXPECT_TRUE(lines[2].starts_with("versions   ") && lines[2].size() > 11) << block;
    // The switches, as impl/'s table has them.
    for (const std::string& d : differences(*profile(name), reference))
      EXPECT_NE(lines[3].find(d.substr(2)), std::string::npos) << d << "\n" << block;
    if (differences(*profile(name), reference).empty()) {
      EXPECT_NE(lines[3].find("none"), std::string::npos) << block;
    }
  }
  // kubernetes-1.35 is kubernetes with the API dispatcher, and says which 1.35.
  const auto k135 = text.find("profile    kubernetes-1.35\n");
  EXPECT_NE(text.find("api-calls=dispatched", k135), std::string::npos);
  EXPECT_NE(text.find("versions   1.35.0", k135), std::string::npos);
}

// kubernetes-1.33 and kubernetes-1.34 are kubernetes, each with the reason and what of the
// version is not modelled: `profiles` lists them, a check under one runs kubernetes and says
// so, and its files record kubernetes.
TEST(cliProfiles, VersionAliasesAreTheirProfileAndSayWhy) {
  const testing::Ran listed = testing::run_command({"profiles"});
  for (const ProfileAlias& a : profile_aliases()) {
    EXPECT_NE(listed.out.find(
                  fmt::format("alias      {} = {}\nwhy        {}\n", a.name, a.profile, a.reason)),
              std::string::npos)
        << listed.out;
    const testing::ScratchDir dir;
    const testing::Ran aliased = testing::run_command(
        {"check", testing::source_path("scenarios/g1-basic.yaml"), "--profile", std::string(a.name),
         "--stop-at-first", "--out", dir.path().string()});
    const testing::Ran direct =
        testing::run_command({"check", testing::source_path("scenarios/g1-basic.yaml"), "--profile",
                              std::string(a.profile), "--stop-at-first"});
    EXPECT_EQ(aliased.rc, direct.rc);
    EXPECT_EQ(testing::number_after(aliased.out, "explored   "),
              testing::number_after(direct.out, "explored   "));
    EXPECT_NE(aliased.err.find(fmt::format("note: profile {} is {} here: ", a.name, a.profile)),
              std::string::npos)
        << aliased.err;
    for (const std::string& file : dir.yaml_files()) {
      EXPECT_NE(testing::read_text(file).find(fmt::format("\nprofile: {}\n", a.profile)),
                std::string::npos)
          << file;
      EXPECT_EQ(testing::run_command({"replay", file}).rc, kExitViolated) << file;
    }
  }
  EXPECT_EQ(testing::run_command({"check", "--profile", "kubernetes-1.31"}).rc, kExitBadInput);
}

// What kubernetes-prebind says of itself: where every pod binds where it is nominated and no
// victim's binding is in flight (g2-single-victim) it explores kubernetes' states; with a
// victim's binding in flight (binding-in-flight) it does not.
TEST(cliProfiles, KubernetesPrebindDiffersOnlyWhereItSaysItDoes) {
  const auto states = [](const std::string& scenario, const std::string& profile) {
    const testing::Ran r =
        testing::run_command({"check", testing::source_path(scenario), "--profile", profile});
    return testing::number_after(r.out, "explored   ");
  };
  for (const std::string scenario :
       {"scenarios/g2-single-victim.yaml", "scenarios/binding-in-flight.yaml"}) {
    const auto k = states(scenario, "kubernetes");
    const auto prebind = states(scenario, "kubernetes-prebind");
    ASSERT_TRUE(k && prebind) << scenario;
    if (scenario.find("g2") != std::string::npos)
      EXPECT_EQ(*k, *prebind) << scenario;
    else
      EXPECT_NE(*k, *prebind) << scenario;
  }
}

}  // namespace
}  // namespace preemptcheck::cli
