// preemptcheck: the command. Thin: hands the words over to the library's command line.
#include <iostream>
#include <string>
#include <vector>

#include "cli/args.h"

int main(int argc, char** argv) {
  return preemptcheck::cli::run_main(std::vector<std::string>(argv + 1, argv + argc), std::cout,
                                     std::cerr);
}
