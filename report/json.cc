// JSON output: the common head, the error document and its position, and writing.
#include "report/json.h"

#include <charconv>
#include <optional>
#include <ostream>
#include <utility>

#include "report/version.h"

namespace preemptcheck::report {
namespace {

// The whole number at the start of `text`, and how many characters it took.
std::optional<std::pair<int, std::size_t>> leading_number(std::string_view text) {
  int n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end == text.data() || n < 0)
    return std::nullopt;
  return std::pair{n, static_cast<std::size_t>(end - text.data())};
}

}  // namespace

Json json_document(std::string_view command) {
  Json doc;
  doc["schema_version"] = kJsonSchemaVersion;
  doc["version"] = tool_version();
  doc["command"] = command;
  return doc;
}

Json json_error(std::string_view command, std::string_view text, int exit_code) {
  while (!text.empty() && text.back() == '\n')
    text.remove_suffix(1);
  Json error;
  // Positioned errors read "FILE:LINE:COL: MESSAGE" (ScenarioError and the replayed steps).
  for (auto colon = text.find(':'); colon != std::string_view::npos;
       colon = text.find(':', colon + 1)) {
    const auto line = leading_number(text.substr(colon + 1));
    if (!line || text.substr(colon + 1 + line->second, 1) != ":")
      continue;
    const std::size_t col_at = colon + 2 + line->second;
    const auto column = leading_number(text.substr(col_at));
    if (!column || text.substr(col_at + column->second, 2) != ": ")
      continue;
    error["file"] = text.substr(0, colon);
    error["line"] = line->first;
    error["column"] = column->first;
    error["message"] = text.substr(col_at + column->second + 2);
    break;
  }
  if (!error.contains("message"))
    error["message"] = text;
  Json doc = json_document(command);
  doc["error"] = std::move(error);
  doc["exit_code"] = exit_code;
  return doc;
}

Json mechanisms_json(const Mechanisms& mechanisms) {
  Json out = Json::object();
  for (std::string_view name : mechanism_names())
    out[std::string(name)] = mechanism_value(mechanisms, name);
  return out;
}

void write_json(const Json& doc, std::ostream& out) {
  out << doc.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace preemptcheck::report
