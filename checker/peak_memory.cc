// Memory figures: the peak resident set from getrusage (Linux reports kilobytes) and the
// current one from /proc/self/statm.
#include "checker/peak_memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>

namespace preemptcheck::checker {

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0 || usage.ru_maxrss < 0) {
    return 0;
  }
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024U;
}

}  // namespace preemptcheck::checker

namespace preemptcheck::checker {

std::uint64_t current_rss_bytes() {
  // /proc/self/statm: total and resident pages; read with the C library, which allocates
  // nothing on the heap for it.
  std::FILE* file = std::fopen("/proc/self/statm", "r");
  if (file == nullptr) {
    return 0;
  }
  unsigned long total = 0;
  unsigned long resident = 0;
  const int read = std::fscanf(file, "%lu %lu", &total, &resident);
  std::fclose(file);
  const long page = sysconf(_SC_PAGESIZE);
  if (read != 2 || page <= 0) {
    return 0;
  }
  return static_cast<std::uint64_t>(resident) * static_cast<std::uint64_t>(page);
}

}  // namespace preemptcheck::checker
