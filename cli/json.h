// JsonWriter: a minimal streaming JSON writer for `--json` output.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace preemptcheck::cli {

/// Writes one JSON value; the caller balances begin/end calls.
class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(std::string_view k);
  void value(std::string_view v);
  void value(const char* v) { value(std::string_view(v)); }
  void value(std::uint64_t v);
  void value(double v);
  void value(bool v);
  template <class T>
  void field(std::string_view k, const T& v) {
    key(k);
    value(v);
  }

 private:
  void separate();

  std::ostream& out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

}  // namespace preemptcheck::cli
