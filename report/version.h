// The build's identity for `--version` and JSON output: the project version and the git
// revision it was built from, both fixed when the build is configured.
#pragma once

#include <string_view>

namespace preemptcheck::report {

/// The project version of CMakeLists.txt, as "0.1.0".
std::string_view tool_version();

/// `git describe --always --dirty` of the source tree when the build was configured, or
/// "unknown" outside a git checkout.
std::string_view git_revision();

}  // namespace preemptcheck::report
