// Explore page: the one page `preemptcheck explore` serves — HTML, style and script in one
// document, nothing loaded from elsewhere. The script reads the path from the URL, asks the
// server for the state it reached (report/explore_json.h) and renders it.
#pragma once

#include <string_view>

namespace preemptcheck::report {

/// The whole page. `data-ready="1"` is set on its body once a state (or an error) is shown.
std::string_view explore_page_html();

}  // namespace preemptcheck::report
