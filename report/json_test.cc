// The JSON head and error document: a positioned message is split into file, line, column.
#include "report/json.h"

#include <gtest/gtest.h>

#include <sstream>

#include "report/version.h"

namespace preemptcheck::report {
namespace {

TEST(JsonError, SplitsFileLineColumn) {
  const Json doc = json_error("check", "a/b.yaml:3:7: unknown key 'x'\n", 2);
  EXPECT_EQ(doc["command"], "check");
  EXPECT_EQ(doc["version"], std::string(tool_version()));
  EXPECT_EQ(doc["error"]["file"], "a/b.yaml");
  EXPECT_EQ(doc["error"]["line"], 3);
  EXPECT_EQ(doc["error"]["column"], 7);
  EXPECT_EQ(doc["error"]["message"], "unknown key 'x'");
  EXPECT_EQ(doc["exit_code"], 2);
}

TEST(JsonError, KeepsAnUnpositionedMessageWhole) {
  const Json doc = json_error("search", "unknown profile 'x'", 2);
  EXPECT_FALSE(doc["error"].contains("file"));
  EXPECT_EQ(doc["error"]["message"], "unknown profile 'x'");
}

TEST(WriteJson, OneLineInWrittenOrder) {
  Json doc = json_document("replay");
  doc["b"] = 1;
  doc["a"] = 2;
  std::ostringstream out;
  write_json(doc, out);
  const std::string text = out.str();
  EXPECT_EQ(text.find('\n'), text.size() - 1);
  EXPECT_LT(text.find("\"schema_version\""), text.find("\"b\""));
  EXPECT_LT(text.find("\"b\""), text.find("\"a\""));
}

}  // namespace
}  // namespace preemptcheck::report
