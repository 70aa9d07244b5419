// State text: state lines in full or as changes (state_text.h).
#include "report/state_text.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <ostream>

namespace preemptcheck::report {

void print_state(const StateLines& lines, std::size_t width, std::ostream& out) {
  for (const auto& [key, value] : lines)
    fmt::print(out, "    {:<{}}  {}\n", key, width, value);
}

void print_state_changes(const StateLines& before, const StateLines& after, std::size_t width,
                         std::ostream& out) {
  bool any = false;
  for (std::size_t i = 0; i < after.size(); ++i) {
    if (i < before.size() && before[i] == after[i])
      continue;
    const std::string old = i < before.size() ? before[i].second : std::string("-");
    fmt::print(out, "    {:<{}}  {} -> {}\n", after[i].first, width, old, after[i].second);
    any = true;
  }
  if (!any)
    fmt::print(out, "    (no visible change)\n");
}

}  // namespace preemptcheck::report
