// The `import` command end to end: the realistic kubectl fixture becomes a scenario file that
// `check` loads and explores to a verdict; what was dropped goes to standard error; a malformed
// fixture exits 2 naming its file, line and column; and `graph --around` draws a
// counterexample's neighbourhood with a legend.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/command_test_support.h"

namespace preemptcheck::cli {
namespace {

using testing::ScratchDir;
using testing::source_path;

using testing::Ran;

Ran run(const std::vector<std::string>& args) { return testing::run_command(args); }

TEST(cliImport, FixtureImportsAndCheckExploresIt) {
  ScratchDir dir;
  const std::string scenario = dir.file("imported.yaml");
  const Ran imported =
      run({"import", source_path("files/testdata/kubectl-cluster.yaml"), "-o", scenario});
  ASSERT_EQ(imported.rc, kExitHolds) << imported.err;
  EXPECT_NE(imported.out.find("imported 3 nodes, 13 pods (2 pending"), std::string::npos)
      << imported.out;
  EXPECT_NE(imported.err.find("preemptcheck import: dropped finished pods"), std::string::npos)
      << imported.err;
  EXPECT_NE(imported.err.find("preemptcheck import: dropped node spec.taints"), std::string::npos)
      << imported.err;

  // check explores the whole space: a verdict, never bad input or a limit.
  const Ran checked = run({"check", scenario});
  EXPECT_TRUE(checked.rc == kExitHolds || checked.rc == kExitViolated)
      << checked.rc << "\n"
      << checked.out << checked.err;
  const auto states = testing::number_after(checked.out, "explored   ");
  ASSERT_TRUE(states) << checked.out;
  EXPECT_GT(*states, 1u);

  // Without -o the scenario goes to standard output, the same text.
  const Ran to_stdout = run({"import", source_path("files/testdata/kubectl-cluster.yaml")});
  ASSERT_EQ(to_stdout.rc, kExitHolds);
  EXPECT_EQ(to_stdout.out, testing::read_text(scenario));
}

TEST(cliImport, MalformedFixturesExit2WithFileLineColumn) {
  for (const char* name : {"kubectl-malformed-quantity.yaml", "kubectl-malformed-nokind.yaml",
                           "kubectl-malformed-syntax.yaml"}) {
    const std::string path = source_path(std::string("files/testdata/") + name);
    const Ran r = run({"import", path});
    EXPECT_EQ(r.rc, kExitBadInput) << name;
    EXPECT_TRUE(r.out.empty()) << r.out;
    // "preemptcheck import: FILE:LINE:COL: message"
    const std::string prefix = "preemptcheck import: " + path + ":";
    ASSERT_TRUE(r.err.starts_with(prefix)) << r.err;
    const auto line = testing::number_after(r.err, prefix);
    ASSERT_TRUE(line) << r.err;
    EXPECT_GT(*line, 0u) << r.err;
    EXPECT_TRUE(testing::number_after(r.err, prefix + std::to_string(*line) + ":")) << r.err;
  }
  const Ran unknown =
      run({"import", source_path("files/testdata/kubectl-cluster.yaml"), "--nodes", "node-z"});
  EXPECT_EQ(unknown.rc, kExitBadInput);
  EXPECT_NE(unknown.err.find("node-z"), std::string::npos) << unknown.err;
  EXPECT_EQ(run({"import"}).rc, kExitBadInput);
}

// The importer writes no expect: and says so, and says when no pod is pending, on standard
// error and in --json; `check` given the kubectl file itself points to `import`.
TEST(cliImport, NotesAndTheHintFromCheck) {
  const std::string fixture = source_path("files/testdata/kubectl-cluster.yaml");
  const Ran imported = run({"import", fixture});
  ASSERT_EQ(imported.rc, kExitHolds) << imported.err;
  EXPECT_NE(imported.err.find("preemptcheck import: note: the scenario has no 'expect', so "
                              "expected-outcome holds vacuously"),
            std::string::npos)
      << imported.err;
  EXPECT_EQ(imported.err.find("no pod is pending"), std::string::npos) << imported.err;
  const Ran json = run({"import", fixture, "--json"});
  ASSERT_EQ(json.rc, kExitHolds) << json.err;
  EXPECT_NE(json.out.find("\"notes\":[\"the scenario has no 'expect'"), std::string::npos)
      << json.out;

  // A cluster with no pending pod.
  ScratchDir dir;
  const std::string running = dir.file("running.yaml");
  {
    std::ofstream out(running);
    out << "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
           "status: {allocatable: {cpu: \"4\", memory: 4Gi}}\n---\n"
           "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
           "spec: {nodeName: n1, containers: [{name: c}]}\n";
  }
  const Ran idle = run({"import", running});
  ASSERT_EQ(idle.rc, kExitHolds) << idle.err;
  EXPECT_NE(idle.err.find("preemptcheck import: note: no pod is pending, so nothing preempts"),
            std::string::npos)
      << idle.err;

  const Ran checked = run({"check", fixture});
  EXPECT_EQ(checked.rc, kExitBadInput);
  EXPECT_TRUE(checked.out.empty()) << checked.out;
  EXPECT_NE(checked.err.find(fixture + ":1:1: unknown key 'apiVersion' in the scenario: this is "
                                       "a Kubernetes object"),
            std::string::npos)
      << checked.err;
  EXPECT_NE(checked.err.find("`preemptcheck import " + fixture + " -o SCENARIO.yaml`"),
            std::string::npos)
      << checked.err;
}

TEST(cliGraph, AroundDrawsTheNeighbourhoodWithALegend) {
  ScratchDir dir;
  std::string text;
  ASSERT_EQ(testing::check_to(dir, "", {{"inflight", "off"}}, text), kExitViolated) << text;
  const std::vector<std::string> files = dir.yaml_files();
  ASSERT_EQ(files.size(), 1u);
  const std::string dot = dir.file("around.dot");
  const Ran r = run({"graph", "--around", files[0], "--dot", dot});
  ASSERT_EQ(r.rc, kExitHolds) << r.err;
  const std::string drawn = testing::read_text(dot);
  EXPECT_NE(drawn.find("subgraph cluster_legend"), std::string::npos);
  EXPECT_NE(drawn.find("step off the path"), std::string::npos);
  EXPECT_NE(drawn.find("style=dashed"), std::string::npos);
  EXPECT_NE(r.out.find("on the path of"), std::string::npos) << r.out;
  // Under the reference profile the schedule stops being possible: exit 2, nothing drawn.
  const Ran blocked =
      run({"graph", "--around", files[0], "--dot", dir.file("x.dot"), "--profile", "reference"});
  EXPECT_EQ(blocked.rc, kExitBadInput) << blocked.out;
  EXPECT_NE(blocked.err.find("is not enabled"), std::string::npos) << blocked.err;
  // A scenario and --around together are a usage error.
  EXPECT_EQ(run({"graph", "scenarios/g1-basic.yaml", "--around", files[0], "--dot", dot}).rc,
            kExitBadInput);
}

}  // namespace
}  // namespace preemptcheck::cli
