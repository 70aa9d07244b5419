// JSON output of the commands, on nlohmann/json: the common head of every document (schema
// version, tool version, command) and the error document. The layout is described by
// docs/json-schema/preemptcheck-output.schema.json.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "impl/mechanisms.h"

namespace preemptcheck::report {

/// Keys keep the order they were written in, so that output is stable and readable.
using Json = nlohmann::ordered_json;

/// The version of the output layout; raised when a key changes meaning or goes away.
inline constexpr int kJsonSchemaVersion = 3;

/// {"schema_version", "version", "command"}: the head of every document.
Json json_document(std::string_view command);

/// The document of a failed command: {"schema_version", "version", "command", "error":
/// {"message", and "file", "line", "column" when `text` starts "FILE:LINE:COL: "}, "exit_code"}.
Json json_error(std::string_view command, std::string_view text, int exit_code);

/// Every mechanism switch and its value, {"inflight": "on", ...}, in the table's order.
Json mechanisms_json(const Mechanisms& mechanisms);

/// Writes `doc` on one line, followed by a newline.
void write_json(const Json& doc, std::ostream& out);

}  // namespace preemptcheck::report
