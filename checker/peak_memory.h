// Memory: the largest resident set the process has had so far, and its current one.
#pragma once

#include <cstdint>

namespace preemptcheck::checker {

/// The peak resident set size of this process in bytes, or 0 when the system cannot say.
std::uint64_t peak_rss_bytes();

}  // namespace preemptcheck::checker

namespace preemptcheck::checker {

/// The current resident set size of this process in bytes, or 0 when the system cannot say.
std::uint64_t current_rss_bytes();

}  // namespace preemptcheck::checker
