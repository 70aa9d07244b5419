// The options of each command, declared on a CLI11 App and bound to the command's options
// struct; args.cc builds the App of every command from them.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/check_command.h"
#include "cli/explore_command.h"
#include "cli/graph_command.h"
#include "cli/import_command.h"
#include "cli/replay_command.h"
#include "cli/search_command.h"

namespace preemptcheck::cli {

inline constexpr std::uint64_t kNoMax = ~std::uint64_t{0};

/// What an option's callback records beyond the options struct.
struct ParseState {
  bool properties_named = false;  ///< a --property was given: only the named ones are checked
};

void check_options(CLI::App& app, CheckOptions& o, const std::shared_ptr<ParseState>& state);
void replay_options(CLI::App& app, ReplayOptions& o);
void graph_options(CLI::App& app, GraphOptions& o);
void import_options(CLI::App& app, ImportOptions& o);
void explore_options(CLI::App& app, ExploreOptions& o);
void search_options(CLI::App& app, SearchCommandOptions& o,
                    const std::shared_ptr<ParseState>& state);

/// The help footer's lists: the profiles, every mechanism switch and its values, the
/// safety properties — from the tables in impl/ and spec/, so they cannot go stale.
std::string switches_text();

/// `words` joined by `separator`.
std::string joined_words(const std::vector<std::string_view>& words, std::string_view separator);

}  // namespace preemptcheck::cli
