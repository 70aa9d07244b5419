// preemptcheck: the command. Thin: parses the command word and hands over to the library.
#include <fmt/format.h>

#include <iostream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/check_command.h"
#include "cli/graph_command.h"
#include "cli/replay_command.h"
#include "cli/search_command.h"

int main(int argc, char** argv) {
  using namespace preemptcheck::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << usage_text();
    return args.empty() ? kExitBadInput : kExitHolds;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  if (command == "check") {
    std::string error;
    auto options = parse_check_args(args, error);
    if (!options) {
      fmt::print(stderr, "preemptcheck check: {}\n", error);
      return kExitBadInput;
    }
    return run_check(*options, std::cout, std::cerr);
  }
  if (command == "replay") {
    std::string error;
    auto options = parse_replay_args(args, error);
    if (!options) {
      fmt::print(stderr, "preemptcheck replay: {}\n", error);
      return kExitBadInput;
    }
    return run_replay(*options, std::cout, std::cerr);
  }
  if (command == "graph") {
    std::string error;
    auto options = parse_graph_args(args, error);
    if (!options) {
      fmt::print(stderr, "preemptcheck graph: {}\n", error);
      return kExitBadInput;
    }
    return run_graph(*options, std::cout, std::cerr);
  }
  if (command == "search") {
    std::string error;
    auto options = parse_search_args(args, error);
    if (!options) {
      fmt::print(stderr, "preemptcheck search: {}\n", error);
      return kExitBadInput;
    }
    return run_search_command(*options, std::cout, std::cerr);
  }
  fmt::print(stderr, "preemptcheck: unknown command '{}'\n{}", command, usage_text());
  return kExitBadInput;
}
