// `check --out`: a directory that cannot be used is refused before the search; a file that
// cannot be written after it (a full disk, by the test-only write fault) costs the file, not
// the verdict — the result is printed in full, the failure named, the exit code the verdict's,
// and no file, partial or temporary, is left; a long scenario name is shortened in the file
// name, and the shortened name is what the output and the file's replay line name. The other
// writers (import -o, replay --html, graph --dot) leave no file on a full disk either.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/check_command.h"
#include "cli/command_test_support.h"
#include "files/output_file.h"

namespace preemptcheck::cli {
namespace {

using testing::check_to;
using testing::read_text;
using testing::ScratchDir;
using testing::source_path;
using testing::write_text;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Every entry of a folder, hidden ones included.
std::vector<std::string> entries(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    out.push_back(e.path().filename().string());
  return out;
}

// Sets the write fault for the test's scope.
class ScopedWriteFault {
 public:
  explicit ScopedWriteFault(const char* bytes) { setenv(kWriteFaultVariable, bytes, 1); }
  ~ScopedWriteFault() { unsetenv(kWriteFaultVariable); }
  ScopedWriteFault(const ScopedWriteFault&) = delete;
  ScopedWriteFault& operator=(const ScopedWriteFault&) = delete;
};

// Runs `preemptcheck ARGS`; its standard output in `out`, its error stream in `err`.
int run_words(const std::vector<std::string>& args, std::string& out, std::string& err) {
  std::ostringstream o;
  std::ostringstream e;
  const int rc = run_main(args, o, e);
  out = o.str();
  err = e.str();
  return rc;
}

TEST(cliCheckOut, ADirectoryThatIsAFileIsRefusedBeforeTheSearch) {
  const ScratchDir dir;
  const std::string file = dir.file("plain");
  write_text(file, "not a directory\n");
  for (const std::string& out_dir : {file, file + "/below"}) {
    std::string out;
    std::string err;
    EXPECT_EQ(run_words({"check", "--inflight=off", "--out", out_dir}, out, err), kExitBadInput);
    EXPECT_TRUE(contains(err, "Not a directory")) << err;
    EXPECT_TRUE(contains(err, out_dir)) << err;
    EXPECT_TRUE(contains(err, "nothing was searched")) << err;
    EXPECT_EQ(out, "");  // no search ran
  }
  EXPECT_EQ(read_text(file), "not a directory\n");
}

TEST(cliCheckOut, AMissingDirectoryIsStillCreatedWhenAFileIsWritten) {
  const ScratchDir dir;
  const std::string out_dir = dir.file("new/deeper");
  std::string out;
  std::string err;
  EXPECT_EQ(run_words({"check", "--inflight=off", "--out", out_dir}, out, err), kExitViolated);
  EXPECT_EQ(entries(out_dir),
            std::vector<std::string>{"no-double-victim--default--inflight-off.yaml"});
}

TEST(cliCheckOut, AFullDiskAfterTheSearchKeepsTheVerdictAndLeavesNoFile) {
  const ScratchDir dir;
  const ScopedWriteFault fault("100");
  for (const bool json : {false, true}) {
    std::vector<std::string> args = {"check", "--inflight=off", "--out", dir.path().string()};
    if (json)
      args.push_back("--json");
    std::string out;
    std::string err;
    EXPECT_EQ(run_words(args, out, err), kExitViolated);
    const std::string path = dir.file("no-double-victim--default--inflight-off.yaml");
    EXPECT_TRUE(contains(err, "cannot write '" + path + "': No space left on device")) << err;
    EXPECT_TRUE(contains(err, "the verdict above stands (exit 1)")) << err;
    if (json) {
      EXPECT_TRUE(contains(out, "\"outcome\":\"violated\"")) << out;
      EXPECT_TRUE(contains(out, "\"write_error\":\"cannot write '" + path)) << out;
      EXPECT_TRUE(contains(out, "\"states\":")) << out;
      EXPECT_FALSE(contains(out, "\"counterexample\"")) << out;
    } else {
      EXPECT_TRUE(contains(out, "explored   ")) << out;
      EXPECT_TRUE(contains(out, "result     VIOLATED no-double-victim")) << out;
      EXPECT_TRUE(contains(out, "4. schedule p-high")) << out;
      EXPECT_TRUE(contains(out, "unwritten  cannot write '" + path)) << out;
      EXPECT_FALSE(contains(out, "replay     ")) << out;
      EXPECT_TRUE(contains(out, "(exit 1)")) << out;
    }
    // Neither the file, nor a 0-byte or partial one, nor its temporary file.
    EXPECT_TRUE(entries(dir.path()).empty());
  }
}

TEST(cliCheckOut, ALongScenarioNameIsShortenedInTheFileName) {
  const ScratchDir dir;
  std::string scenario = read_text(source_path("scenarios/default.yaml"));
  const std::string name = "long-" + std::string(235, 'n');
  ASSERT_TRUE(scenario.starts_with("name: default\n"));
  scenario.replace(0, scenario.find('\n'), "name: " + name);
  const std::string scenario_path = dir.file("long.yaml");
  write_text(scenario_path, scenario);
  const std::string out_dir = dir.file("out");
  std::string out;
  std::string err;
  ASSERT_EQ(run_words({"check", scenario_path, "--inflight=off", "--out", out_dir}, out, err),
            kExitViolated)
      << err;
  const std::vector<std::string> written = entries(out_dir);
  ASSERT_EQ(written.size(), 1U);
  const std::string& file = written[0];
  EXPECT_EQ(file.size(), kMaxFileNameBytes);
  EXPECT_TRUE(file.starts_with("no-double-victim--long-nnn")) << file;
  EXPECT_TRUE(file.ends_with(".yaml")) << file;
  const std::string path = (std::filesystem::path(out_dir) / file).string();
  EXPECT_TRUE(contains(out, "replay     preemptcheck replay " + path + "\n")) << out;
  EXPECT_TRUE(
      contains(read_text(path), "# Replay:    preemptcheck replay " + recorded_path(path) + "\n"));
  // The same run names the same file.
  ASSERT_EQ(run_words({"check", scenario_path, "--inflight=off", "--out", out_dir}, out, err),
            kExitViolated);
  EXPECT_EQ(entries(out_dir), written);
  std::string replayed;
  EXPECT_EQ(run_words({"replay", path}, replayed, err), kExitViolated) << err;
}

TEST(cliOutputFiles, EveryWriterLeavesNoFileOnAFullDisk) {
  const ScratchDir dir;
  const std::string counterexample =
      source_path("counterexamples/no-overcommit--assume-window--assume-off.yaml");
  const std::vector<std::pair<std::vector<std::string>, std::string>> writers = {
      {{"import", source_path("files/testdata/kubectl-cluster.yaml"), "-o", dir.file("s.yaml")},
       dir.file("s.yaml")},
      {{"replay", counterexample, "--html", dir.file("page.html")}, dir.file("page.html")},
      {{"graph", source_path("scenarios/assume-window.yaml"), "--dot", dir.file("g.dot")},
       dir.file("g.dot")},
  };
  for (const auto& [args, path] : writers) {
    std::string out;
    std::string err;
    {
      const ScopedWriteFault fault("10");
      EXPECT_EQ(run_words(args, out, err), kExitBadInput) << args[0];
    }
    EXPECT_TRUE(contains(err, "cannot write '" + path + "': No space left on device")) << err;
    EXPECT_TRUE(entries(dir.path()).empty()) << args[0];
    // With room, the same command writes the whole file.
    EXPECT_NE(run_words(args, out, err), kExitBadInput) << err;
    EXPECT_EQ(entries(dir.path()),
              std::vector<std::string>{std::filesystem::path(path).filename().string()});
    EXPECT_GT(std::filesystem::file_size(path), 10U);
    std::filesystem::remove(path);
  }
}

}  // namespace
}  // namespace preemptcheck::cli
