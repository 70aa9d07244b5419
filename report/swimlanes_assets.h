// Swimlane assets: the style sheet and the script the swimlane page inlines, so the page
// stays one self-contained file.
#pragma once

#include <string_view>

namespace preemptcheck::report {

/// The page's CSS: system fonts, one colour variable per lane, print rules.
std::string_view swimlanes_style();

/// The page's JavaScript: cause arrows, opening a step's state, hover highlights, and
/// `data-ready` on the body once it ran.
std::string_view swimlanes_script();

}  // namespace preemptcheck::report
