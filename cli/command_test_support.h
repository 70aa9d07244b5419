// Helpers shared by the command tests: scratch folders, files, and generated counterexamples.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/check_command.h"

namespace preemptcheck::cli::testing {

/// A path inside the source tree (the tests run there; PREEMPTCHECK_SOURCE_DIR says where).
inline std::string source_path(const std::string& relative) {
  const char* root = std::getenv("PREEMPTCHECK_SOURCE_DIR");
  return root == nullptr ? relative : (std::filesystem::path(root) / relative).string();
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

inline std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

inline std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines)
    out += l + "\n";
  return out;
}

/// The whole number right after the first `prefix` in `text`, or nothing. (Not std::regex:
/// GCC 12 warns inside it under the sanitize preset's -O1.)
inline std::optional<unsigned long> number_after(const std::string& text,
                                                 const std::string& prefix) {
  const auto at = text.find(prefix);
  if (at == std::string::npos)
    return std::nullopt;
  std::size_t end = at + prefix.size();
  while (end < text.size() && text[end] >= '0' && text[end] <= '9')
    ++end;
  if (end == at + prefix.size())
    return std::nullopt;
  return std::stoul(text.substr(at + prefix.size(), end - at - prefix.size()));
}

/// How many times `needle` occurs in `text`.
inline std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

/// What a command printed, and its exit code.
struct Ran {
  int rc = -1;
  std::string out;
  std::string err;
};

/// Runs `preemptcheck ARGS` in this process, as main does.
inline Ran run_command(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  Ran r;
  r.rc = run_main(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

/// `preemptcheck check ARGS --quiet`.
inline Ran run_check_quiet(std::vector<std::string> args) {
  args.insert(args.begin(), "check");
  args.push_back("--quiet");
  return run_command(args);
}

/// A fresh folder for one test, removed with it.
class ScratchDir {
 public:
  ScratchDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("preemptcheck-" + std::to_string(::getpid()) + "-" + info->test_suite_name() + "-" +
             info->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

  /// The .yaml files in the folder.
  std::vector<std::string> yaml_files() const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(path_)) {
      if (e.path().extension() == ".yaml")
        out.push_back(e.path().string());
    }
    return out;
  }

 private:
  std::filesystem::path path_;
};

/// Runs `check` with `--out dir.path()`; returns its exit code, its output in `out`.
inline int check_to(const ScratchDir& dir, const std::string& scenario,
                    std::vector<std::pair<std::string, std::string>> switches, std::string& out,
                    std::optional<std::string> profile = std::nullopt, bool stop_at_first = true) {
  CheckOptions o;
  o.scenario_path = scenario.empty() ? std::string() : source_path(scenario);
  o.mechanisms.profile = std::move(profile);
  o.mechanisms.switches = std::move(switches);
  o.out_dir = dir.path().string();
  o.stop_at_first = stop_at_first;
  o.quiet = true;
  std::ostringstream text;
  std::ostringstream err;
  const int rc = run_check(o, text, err);
  out = text.str() + err.str();
  return rc;
}

}  // namespace preemptcheck::cli::testing
