// Output files are written whole or not at all: a write that fails (a full disk, simulated by
// the test-only fault, a missing directory, a path that is a directory, a name too long) leaves
// neither the final file nor its temporary one, and says why with the system's words; long
// names are shortened deterministically; the output directory is judged before a search.
#include "files/output_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace preemptcheck {
namespace {

namespace fs = std::filesystem;

// A fresh folder for one test, removed with it.
class Scratch {
 public:
  Scratch() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() /
            ("preemptcheck-output-" + std::to_string(::getpid()) + "-" + info->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  std::string file(const std::string& name) const { return (path_ / name).string(); }

  // Every entry of the folder, hidden ones included.
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(path_))
      out.push_back(e.path().filename().string());
    return out;
  }

 private:
  fs::path path_;
};

// Sets the write fault for the test's scope.
class ScopedWriteFault {
 public:
  explicit ScopedWriteFault(const char* bytes) { setenv(kWriteFaultVariable, bytes, 1); }
  ~ScopedWriteFault() { unsetenv(kWriteFaultVariable); }
  ScopedWriteFault(const ScopedWriteFault&) = delete;
  ScopedWriteFault& operator=(const ScopedWriteFault&) = delete;
};

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(OutputFile, WritesTheWholeTextAndReplacesAnOldFile) {
  const Scratch dir;
  const std::string path = dir.file("out.yaml");
  EXPECT_EQ(write_file_atomically(path, "first version\n"), std::nullopt);
  EXPECT_EQ(read_text(path), "first version\n");
  EXPECT_EQ(write_file_atomically(path, "second\n"), std::nullopt);
  EXPECT_EQ(read_text(path), "second\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.yaml"});
  // The mode is what the process's umask gives a new file, not the temporary file's.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0666 & ~mask);
}

TEST(OutputFile, AFullDiskLeavesNoFileAndSaysWhy) {
  const Scratch dir;
  const std::string path = dir.file("out.yaml");
  {
    const ScopedWriteFault fault("5");
    const auto error = write_file_atomically(path, "more than five bytes\n");
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(*error, "cannot write '" + path + "': No space left on device");
  }
  EXPECT_TRUE(dir.entries().empty());
  // An old file stays as it was.
  ASSERT_EQ(write_file_atomically(path, "old\n"), std::nullopt);
  {
    const ScopedWriteFault fault("0");
    EXPECT_TRUE(write_file_atomically(path, "new text\n").has_value());
  }
  EXPECT_EQ(read_text(path), "old\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.yaml"});
}

TEST(OutputFile, AnUncommittedFileIsRemoved) {
  const Scratch dir;
  std::string error;
  {
    std::optional<OutputFile> file = OutputFile::create(dir.file("out.dot"), error);
    ASSERT_TRUE(file.has_value()) << error;
    ASSERT_TRUE(file->write("digraph {}\n", error)) << error;
    EXPECT_EQ(dir.entries().size(), 1U);
    EXPECT_TRUE(dir.entries()[0].starts_with(".out.dot.tmp-")) << dir.entries()[0];
  }
  EXPECT_TRUE(dir.entries().empty());
}

TEST(OutputFile, UnwritablePathsAreRefusedWithTheSystemsReason) {
  const Scratch dir;
  fs::create_directories(dir.file("a-directory"));
  const auto is_directory = write_file_atomically(dir.file("a-directory"), "x");
  ASSERT_TRUE(is_directory.has_value());
  EXPECT_TRUE(contains(*is_directory, "Is a directory")) << *is_directory;
  const auto missing = write_file_atomically(dir.file("missing/out.yaml"), "x");
  ASSERT_TRUE(missing.has_value());
  EXPECT_TRUE(contains(*missing, "No such file or directory")) << *missing;
  EXPECT_TRUE(contains(*missing, dir.file("missing/out.yaml"))) << *missing;
  const std::string long_name(300, 'n');
  const auto too_long = write_file_atomically(dir.file(long_name), "x");
  ASSERT_TRUE(too_long.has_value());
  EXPECT_TRUE(contains(*too_long, "File name too long")) << *too_long;
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"a-directory"});
  EXPECT_TRUE(fs::is_empty(dir.file("a-directory")));
}

TEST(OutputFile, ANameOfAtMost255BytesIsWrittenAsItIs) {
  const Scratch dir;
  const std::string name = std::string(250, 'n') + ".yaml";
  ASSERT_EQ(name.size(), kMaxFileNameBytes);
  EXPECT_EQ(write_file_atomically(dir.file(name), "x"), std::nullopt);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{name});
}

TEST(FitFileName, LongNamesAreShortenedDeterministically) {
  const std::string fits = std::string(250, 'a') + ".yaml";
  EXPECT_EQ(fit_file_name(fits), fits);
  const std::string a = std::string(300, 'a') + "-one.yaml";
  const std::string b = std::string(300, 'a') + "-two.yaml";
  const std::string fa = fit_file_name(a);
  EXPECT_EQ(fa.size(), kMaxFileNameBytes);
  EXPECT_TRUE(fa.ends_with(".yaml")) << fa;
  EXPECT_TRUE(fa.starts_with(std::string(200, 'a'))) << fa;
  EXPECT_EQ(fit_file_name(a), fa);
  EXPECT_NE(fit_file_name(b), fa);
  EXPECT_EQ(fit_file_name(fa), fa);
}

TEST(OutputDirectory, AWritableOrCreatableDirectoryHasNoProblem) {
  const Scratch dir;
  EXPECT_EQ(output_directory_problem(dir.file("")), std::nullopt);
  EXPECT_EQ(output_directory_problem(dir.file("new/deeper")), std::nullopt);
  // Judging does not create it, and leaves no probe behind.
  EXPECT_TRUE(dir.entries().empty());
}

TEST(OutputDirectory, AFileInTheWayIsAProblem) {
  const Scratch dir;
  std::ofstream(dir.file("plain")) << "x";
  const auto itself = output_directory_problem(dir.file("plain"));
  ASSERT_TRUE(itself.has_value());
  EXPECT_EQ(*itself, "cannot write in '" + dir.file("plain") + "': Not a directory");
  const auto below = output_directory_problem(dir.file("plain/sub"));
  ASSERT_TRUE(below.has_value());
  EXPECT_TRUE(contains(*below, "Not a directory")) << *below;
  const auto too_long = output_directory_problem(dir.file(std::string(300, 'd')));
  ASSERT_TRUE(too_long.has_value());
  EXPECT_TRUE(contains(*too_long, "File name too long")) << *too_long;
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"plain"});
}

TEST(OutputFile, APathThatCannotTakeAFileIsAProblemBeforeAnythingIsWritten) {
  const Scratch dir;
  EXPECT_EQ(output_file_problem(dir.file("report.xml")), std::nullopt);
  const auto directory = output_file_problem(dir.file(""));
  ASSERT_TRUE(directory.has_value());
  EXPECT_TRUE(contains(*directory, "Is a directory")) << *directory;
  const auto missing = output_file_problem(dir.file("missing/x.xml"));
  ASSERT_TRUE(missing.has_value());
  EXPECT_EQ(*missing, "cannot write '" + dir.file("missing/x.xml") +
                          "': No such file or directory ('" + dir.file("missing") + "')");
  std::ofstream(dir.file("plain")) << "x";
  const auto under_a_file = output_file_problem(dir.file("plain/x.xml"));
  ASSERT_TRUE(under_a_file.has_value());
  EXPECT_TRUE(contains(*under_a_file, "Not a directory")) << *under_a_file;
  // Judging creates nothing and leaves no probe behind.
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"plain"});
}

}  // namespace
}  // namespace preemptcheck
