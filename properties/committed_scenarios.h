// The scenarios committed to the repository, for the suites that run every one of them.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace preemptcheck {

/// The paths of the `.yaml` files in `dir` (the repository's `scenarios/` by default, the
/// tests' working directory being the source tree), sorted.
inline std::vector<std::string> committed_scenarios(const std::string& dir = "scenarios") {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".yaml")
      out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace preemptcheck
