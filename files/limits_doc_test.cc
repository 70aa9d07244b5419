// docs/scenario.md is the reference for every input bound; files/limits.h (and impl/scenario.h's
// kMaxNodes, kMaxPods) define them. This test parses both: every constant declared in
// files/limits.h must have a check here, and each check reads the bound from the documentation's
// tables and compares it with the constant.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "files/limits.h"
#include "files/quantity.h"
#include "impl/scenario.h"

namespace preemptcheck {
namespace {

std::string source_file(const std::string& relative) {
  const char* dir = std::getenv("PREEMPTCHECK_SOURCE_DIR");
  std::ifstream in(std::filesystem::path(dir != nullptr ? dir : ".") / relative);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every table row of docs/scenario.md as (section heading, first cell without backticks) →
// the whole row.
std::map<std::pair<std::string, std::string>, std::string> doc_rows() {
  std::map<std::pair<std::string, std::string>, std::string> rows;
  std::istringstream in(source_file("docs/scenario.md"));
  std::string section;
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("## "))
      section = line.substr(3);
    if (!line.starts_with("| "))
      continue;
    std::string key = line.substr(2, line.find(" |", 2) - 2);
    std::erase(key, '`');
    rows[{section, key}] = line;
  }
  return rows;
}

// The names of the constants files/limits.h declares: `k...` in each
// "inline constexpr TYPE kName =". (Not std::regex: GCC 12 warns inside <regex> under the
// sanitize preset's -O1.)
std::set<std::string> limit_names() {
  std::set<std::string> names;
  const std::string text = source_file("files/limits.h");
  const std::string decl = "inline constexpr ";
  for (auto at = text.find(decl); at != std::string::npos; at = text.find(decl, at + 1)) {
    const auto type_end = text.find(' ', at + decl.size());
    if (type_end == std::string::npos)
      break;
    const auto name_end = text.find(' ', type_end + 1);
    if (name_end == std::string::npos)
      break;
    const std::string name = text.substr(type_end + 1, name_end - type_end - 1);
    if (name.size() > 1 && name[0] == 'k' && text.compare(name_end, 2, " =") == 0) {
      names.insert(name);
    }
  }
  return names;
}

// The run of characters of `row` from `at` that satisfy `keep`.
template <class Keep>
std::string run_of(const std::string& row, std::size_t at, Keep keep) {
  std::size_t end = at;
  while (end < row.size() && keep(static_cast<unsigned char>(row[end])))
    ++end;
  return row.substr(at, end - at);
}

// "A to B" in a row (the documentation writes a minus sign as U+2212), as two integers.
std::pair<std::int64_t, std::int64_t> range_in(const std::string& row) {
  const std::string minus = "\xe2\x88\x92";
  for (auto to = row.find(" to "); to != std::string::npos; to = row.find(" to ", to + 1)) {
    std::size_t begin = to;
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(row[begin - 1])) != 0)
      --begin;
    const std::string high =
        run_of(row, to + 4, [](unsigned char c) { return std::isdigit(c) != 0; });
    if (begin == to || high.empty())
      continue;
    std::string low = row.substr(begin, to - begin);
    if (begin >= 1 && row[begin - 1] == '-') {
      low = "-" + low;
    } else if (begin >= minus.size() &&
               row.compare(begin - minus.size(), minus.size(), minus) == 0) {
      low = "-" + low;
    }
    return {std::stoll(low), std::stoll(high)};
  }
  ADD_FAILURE() << "no 'A to B' range in: " << row;
  return {-1, -1};
}

// "at most X" in a row: X as written (backticks removed).
std::string at_most_in(const std::string& row) {
  const std::string phrase = "at most ";
  const auto at = row.find(phrase);
  if (at != std::string::npos) {
    std::size_t from = at + phrase.size();
    if (from < row.size() && row[from] == '`')
      ++from;
    const std::string value =
        run_of(row, from, [](unsigned char c) { return std::isalnum(c) != 0; });
    if (!value.empty())
      return value;
  }
  ADD_FAILURE() << "no 'at most X' in: " << row;
  return {};
}

TEST(LimitsDoc, EveryBoundInLimitsHIsDocumentedWithItsValue) {
  const auto rows = doc_rows();
  auto row = [&](const std::string& section, const std::string& key) {
    const auto it = rows.find({section, key});
    EXPECT_NE(it, rows.end()) << "docs/scenario.md has no row '" << key << "' under '" << section
                              << "'";
    return it == rows.end() ? std::string() : it->second;
  };
  auto quantity = [](const std::string& text, int unit_exponent) {
    return parse_quantity(text, unit_exponent, std::numeric_limits<std::int64_t>::max()).value;
  };
  // One check per constant; a constant added to files/limits.h without one fails below.
  const std::map<std::string, std::function<void()>> checks = {
      {"kMaxFileBytes",
       [&] {
         EXPECT_NE(row("Whole-file rules", "file size").find(std::to_string(limits::kMaxFileBytes)),
                   std::string::npos);
       }},
      {"kMaxKubectlFileBytes",
       [&] {
         const std::string r = row("Whole-file rules", "import file size");
         EXPECT_NE(r.find(std::to_string(limits::kMaxKubectlFileBytes)), std::string::npos) << r;
         EXPECT_NE(r.find(std::to_string(limits::kMaxKubectlFileBytes >> 20) + " MiB"),
                   std::string::npos)
             << r;
       }},
      {"kMaxNesting",
       [&] {
         EXPECT_EQ(at_most_in(row("Whole-file rules", "nesting")),
                   std::to_string(limits::kMaxNesting));
       }},
      {"kMaxAliases",
       [&] {
         EXPECT_EQ(at_most_in(row("Whole-file rules", "aliases")),
                   std::to_string(limits::kMaxAliases));
       }},
      {"kMaxSteps",
       [&] {
         EXPECT_EQ(at_most_in(row("Whole-file rules", "steps in a counterexample file")),
                   std::to_string(limits::kMaxSteps));
       }},
      {"kMaxCpuMillicores",
       [&] {
         EXPECT_EQ(quantity(at_most_in(row("A node", "cpu")), 3), limits::kMaxCpuMillicores);
         EXPECT_EQ(quantity(at_most_in(row("A pod", "cpu")), 3), limits::kMaxCpuMillicores);
       }},
      {"kMaxMemoryBytes",
       [&] {
         EXPECT_EQ(quantity(at_most_in(row("A node", "memory")), 0), limits::kMaxMemoryBytes);
         EXPECT_EQ(quantity(at_most_in(row("A pod", "memory")), 0), limits::kMaxMemoryBytes);
       }},
      {"kMinPriority",
       [&] { EXPECT_EQ(range_in(row("A pod", "priority")).first, limits::kMinPriority); }},
      {"kMaxPriority",
       [&] { EXPECT_EQ(range_in(row("A pod", "priority")).second, limits::kMaxPriority); }},
      {"kMaxFaultBudget",
       [&] {
         for (const char* key : {"faults.eviction-failures", "faults.binding-failures"}) {
           const auto [low, high] = range_in(row("faults and executor", key));
           EXPECT_EQ(low, 0) << key;
           EXPECT_EQ(high, limits::kMaxFaultBudget) << key;
         }
       }},
      {"kMaxWorkers",
       [&] {
         EXPECT_EQ(range_in(row("faults and executor", "executor.workers")),
                   std::make_pair(std::int64_t{0}, limits::kMaxWorkers));
       }},
      {"kMaxMinAvailable",
       [&] {
         EXPECT_EQ(range_in(row("A PDB", "min-available")),
                   std::make_pair(std::int64_t{0}, limits::kMaxMinAvailable));
         EXPECT_EQ(range_in(row("A PDB", "max-unavailable")),
                   std::make_pair(std::int64_t{0}, limits::kMaxMinAvailable));
       }},
  };
  const std::set<std::string> names = limit_names();
  EXPECT_GE(names.size(), 10U) << "files/limits.h could not be parsed";
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const auto it = checks.find(name);
    ASSERT_NE(it, checks.end()) << "files/limits.h declares " << name
                                << ", which docs/scenario.md must document and this test check";
    it->second();
  }
}

TEST(LimitsDoc, NodeAndPodCountsAreDocumented) {
  const auto rows = doc_rows();
  EXPECT_EQ(range_in(rows.at({"Top-level keys", "nodes"})),
            std::make_pair(std::int64_t{1}, std::int64_t{kMaxNodes}));
  EXPECT_EQ(range_in(rows.at({"Top-level keys", "pods"})),
            std::make_pair(std::int64_t{0}, std::int64_t{kMaxPods}));
}

}  // namespace
}  // namespace preemptcheck
