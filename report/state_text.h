// State text: a World's labelled state lines (impl/show's state_lines) as `replay` prints
// them — all of them, or only what a step changed.
#pragma once

#include <cstddef>
#include <iosfwd>

#include "impl/show.h"

namespace preemptcheck::report {

/// Every line, indented, keys padded to `width`.
void print_state(const StateLines& lines, std::size_t width, std::ostream& out);

/// The lines that differ between `before` and `after`, matched by key, as "key  old -> new"
/// ("-" for a line one of them lacks), in the order of `after` with a line only `before` has
/// where it stood there; or "(no visible change)".
void print_state_changes(const StateLines& before, const StateLines& after, std::size_t width,
                         std::ostream& out);

}  // namespace preemptcheck::report
