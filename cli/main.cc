// preemptcheck: the command. Thin: hands the words over to the library's command line.
#include <malloc.h>
#include <iostream>
#include <string>
#include <vector>

#include "cli/args.h"

int main(int argc, char** argv) {
  // Large buffers (the search's tables and frontiers, freed level by level) always come from
  // mmap and go back to the system when freed, instead of staying in the heap as it grows.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  return preemptcheck::cli::run_main(std::vector<std::string>(argv + 1, argv + argc), std::cout,
                                     std::cerr);
}
