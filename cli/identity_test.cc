// Files the tool writes do not depend on the machine: run from a scratch working directory
// with an absolute scenario path, `check --out` and `--junit` (relative and absolute, safety
// and liveness) and `search --out` write no absolute path — neither the working directory nor the
// source tree's — and the JUnit class name is the scenario, profile and switches, with no '.' but
// the one after "preemptcheck". `check --out` warns, naming the file, when it replaces a file that
// held a different counterexample, and says nothing when it writes the same one again.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/command_test_support.h"

namespace preemptcheck::cli {
namespace {

using testing::count_of;
using testing::read_text;
using testing::ScratchDir;
using testing::source_path;

using Outcome = testing::Ran;

Outcome check(std::vector<std::string> args) { return testing::run_check_quiet(std::move(args)); }

// Runs the test's body in `dir` and goes back to where it was.
class InDirectory {
 public:
  explicit InDirectory(const std::filesystem::path& dir)
      : before_(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~InDirectory() { std::filesystem::current_path(before_); }
  InDirectory(const InDirectory&) = delete;
  InDirectory& operator=(const InDirectory&) = delete;

 private:
  std::filesystem::path before_;
};

TEST(cliIdentity, NoWrittenFileNamesTheWorkingDirectoryOrTheSourceTree) {
  const ScratchDir scratch;
  const std::filesystem::path work = std::filesystem::canonical(scratch.path()) / "work";
  std::filesystem::create_directories(work);
  const std::string g1 = std::filesystem::absolute(source_path("scenarios/g1-basic.yaml"));
  const std::string returning =
      std::filesystem::absolute(source_path("scenarios/returning-victim.yaml"));
  const std::string source_root = std::filesystem::path(g1).parent_path().parent_path().string();
  {
    const InDirectory in(work);
    EXPECT_EQ(
        check({g1, "--profile", "kubernetes", "--out", "found", "--junit", "junit.xml",
               "--expect-violated", "no-double-victim", "--expect-violated", "no-lost-wakeup"})
            .rc,
        kExitHolds);
    EXPECT_EQ(check({g1, "--profile", "kubernetes", "--inflight=off", "--out",
                     (work / "absolute").string(), "--junit", (work / "absolute.xml").string()})
                  .rc,
              kExitViolated);
    EXPECT_EQ(check({returning, "--profile", "kubernetes-1.35", "--liveness", "--unfair", "--out",
                     (work / "lasso").string(), "--junit", (work / "lasso.xml").string()})
                  .rc,
              kExitViolated);
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(run_main({"search", "--seed", "9", "--runs", "100", "--nomination=async", "--out",
                        (work / "searched").string()},
                       out, err),
              kExitViolated)
        << out.str() << err.str();
  }
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(work)) {
    if (e.is_regular_file())
      files.push_back(e.path().string());
  }
  EXPECT_GE(files.size(), 8U);  // 2 + 3 + 1 counterexamples (one a lasso), 3 reports
  for (const std::string& f : files) {
    const std::string text = read_text(f);
    EXPECT_EQ(text.find(work.string()), std::string::npos) << f << "\n" << text;
    EXPECT_EQ(text.find(scratch.path().string()), std::string::npos) << f;
    EXPECT_EQ(text.find(source_root), std::string::npos) << f << "\n" << text;
  }
  // The header records the scenario by its file name and the directory as it was given.
  const std::string found =
      read_text((work / "found" / "no-lost-wakeup--g1-basic--kubernetes.yaml").string());
  EXPECT_NE(found.find("# Found by:  preemptcheck check g1-basic.yaml --profile kubernetes --out "
                       "found\n"),
            std::string::npos)
      << found;
  EXPECT_NE(found.find("# Replay:    preemptcheck replay "
                       "found/no-lost-wakeup--g1-basic--kubernetes.yaml\n"),
            std::string::npos)
      << found;

  // JUnit: the scenario, profile and differing switches; one '.', after "preemptcheck".
  const std::string junit = read_text((work / "junit.xml").string());
  EXPECT_NE(junit.find("classname=\"preemptcheck.g1-basic--kubernetes\""), std::string::npos)
      << junit;
  const std::string off = read_text((work / "absolute.xml").string());
  EXPECT_NE(off.find("classname=\"preemptcheck.g1-basic--kubernetes--inflight-off\""),
            std::string::npos)
      << off;
  const std::string lasso = read_text((work / "lasso.xml").string());
  EXPECT_NE(lasso.find("classname=\"preemptcheck.returning-victim--kubernetes-1_35--unfair\" "
                       "name=\"no-starvation holds\""),
            std::string::npos)
      << lasso;
  for (const std::string& xml : {junit, off, lasso}) {
    for (auto at = xml.find("classname=\""); at != std::string::npos;
         at = xml.find("classname=\"", at + 1)) {
      const auto begin = at + 11;
      const std::string name = xml.substr(begin, xml.find('"', begin) - begin);
      EXPECT_EQ(count_of(name, "."), 1U) << name;
    }
  }
}

TEST(cliIdentity, OutWarnsWhenItReplacesADifferentFileAndOnlyThen) {
  const ScratchDir dir;
  const std::string g1 = source_path("scenarios/g1-basic.yaml");
  const std::string file =
      (dir.path() / "no-lost-wakeup--g1-basic--kubernetes.yaml").lexically_normal().string();
  const Outcome first = check({g1, "--profile", "kubernetes", "--out", dir.path().string()});
  ASSERT_EQ(first.rc, kExitViolated) << first.out << first.err;
  EXPECT_EQ(first.err.find("warning"), std::string::npos) << first.err;
  const std::string before = read_text(file);
  // The same check again writes the same files: nothing to warn of.
  const Outcome again = check({g1, "--profile", "kubernetes", "--out", dir.path().string()});
  EXPECT_EQ(again.err.find("warning"), std::string::npos) << again.err;
  // Another check whose file has the same name and other content: warned, naming the file.
  const Outcome other = check({g1, "--profile", "kubernetes", "--property", "no-lost-wakeup",
                               "--out", dir.path().string()});
  ASSERT_EQ(other.rc, kExitViolated) << other.out << other.err;
  EXPECT_NE(read_text(file), before);
  EXPECT_NE(other.err.find("preemptcheck: warning: '"), std::string::npos) << other.err;
  EXPECT_NE(other.err.find("no-lost-wakeup--g1-basic--kubernetes.yaml' held a different "
                           "counterexample; it was replaced"),
            std::string::npos)
      << other.err;
}

}  // namespace
}  // namespace preemptcheck::cli
