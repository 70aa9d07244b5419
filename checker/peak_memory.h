// Peak memory: the largest resident set the process has had so far.
#pragma once

#include <cstdint>

namespace preemptcheck::checker {

/// The peak resident set size of this process in bytes, or 0 when the system cannot say.
std::uint64_t peak_rss_bytes();

}  // namespace preemptcheck::checker
