// Peak memory from getrusage, whose ru_maxrss Linux reports in kilobytes.
#include "checker/peak_memory.h"

#include <sys/resource.h>

namespace preemptcheck::checker {

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0 || usage.ru_maxrss < 0) {
    return 0;
  }
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024U;
}

}  // namespace preemptcheck::checker
