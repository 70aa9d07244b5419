// The `explore` command: a local web server whose one page walks a scenario's state graph —
// the state a path reached, every step that could come next (and why the others cannot), the
// properties on the way, the shortest violation from there and the path as a counterexample
// file. The model work is the library's (properties/explore_path.h, report/explore_json.h);
// this is the server (DESIGN §8).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "impl/mechanism_choice.h"

namespace preemptcheck::cli {

/// The port `explore` listens on unless --port says otherwise.
inline constexpr std::uint16_t kDefaultExplorePort = 3000;

struct ExploreOptions {
  std::string scenario_path;  ///< empty: the embedded default
  MechanismChoice mechanisms;
  std::uint16_t port = kDefaultExplorePort;  ///< 0: a free port the system picks
  /// The most states "shortest violation from here" stores before it gives up.
  std::uint64_t max_states = 1'000'000;
};

/// Whether this build has the web server (cpp-httplib was found when it was configured).
bool explore_available();

/// Runs `preemptcheck explore`: loads the scenario, listens on 127.0.0.1, prints the page's
/// URL on `out` and serves until SIGINT or SIGTERM; 0 then. 2 for a bad scenario or switches,
/// a port that cannot be listened on, or a build without the server.
int run_explore(const ExploreOptions& options, std::ostream& out, std::ostream& err);

}  // namespace preemptcheck::cli
