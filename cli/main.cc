// preemptcheck: the command. Thin: hands the words over to the library's command line.
#include <malloc.h>
#include <iostream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/interrupt_signals.h"

int main(int argc, char** argv) {
  // First thing: a SIGINT or SIGTERM from here on stops `check` and `search` at their first
  // safe point with what they found, instead of ending the process with nothing printed; the
  // other commands give the handlers back (cli/interrupt_signals.h).
  const preemptcheck::cli::InterruptSignals signals;
  // Large buffers (the search's tables and frontiers, freed level by level) always come from
  // mmap and go back to the system when freed, instead of staying in the heap as it grows.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  return preemptcheck::cli::run_main(std::vector<std::string>(argv + 1, argv + argc), std::cout,
                                     std::cerr);
}
