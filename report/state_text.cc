// State text: state lines in full or as changes (state_text.h).
#include "report/state_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <string_view>

#include "report/print.h"

namespace preemptcheck::report {

void print_state(const StateLines& lines, std::size_t width, std::ostream& out) {
  for (const auto& [key, value] : lines)
    report::print(out, "    {:<{}}  {}\n", key, width, value);
}

void print_state_changes(const StateLines& before, const StateLines& after, std::size_t width,
                         std::ostream& out) {
  std::map<std::string_view, std::size_t> in_before;
  std::set<std::string_view> in_after;
  for (std::size_t i = 0; i < before.size(); ++i)
    in_before.emplace(before[i].first, i);
  for (const auto& line : after)
    in_after.insert(line.first);
  bool any = false;
  const auto change = [&](std::string_view key, std::string_view old, std::string_view now) {
    report::print(out, "    {:<{}}  {} -> {}\n", key, width, old, now);
    any = true;
  };
  // The lines of `before` from `next` on that `after` lacks, up to (not including) `end`.
  std::size_t next = 0;
  const auto removed_until = [&](std::size_t end) {
    for (; next < end; ++next) {
      if (!in_after.contains(before[next].first))
        change(before[next].first, before[next].second, "-");
    }
  };
  for (const auto& [key, value] : after) {
    const auto it = in_before.find(key);
    if (it == in_before.end()) {
      change(key, "-", value);
      continue;
    }
    removed_until(it->second);
    next = std::max(next, it->second + 1);
    if (before[it->second].second != value)
      change(key, before[it->second].second, value);
  }
  removed_until(before.size());
  if (!any)
    report::print(out, "    (no visible change)\n");
}

}  // namespace preemptcheck::report
