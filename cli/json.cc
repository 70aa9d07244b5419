// JsonWriter: escaping and separators.
#include "cli/json.h"

#include <fmt/format.h>

namespace preemptcheck::cli {

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ << ',';
    first_.back() = false;
  }
}

void JsonWriter::begin_object() {
  separate();
  out_ << '{';
  first_.push_back(true);
}

void JsonWriter::end_object() {
  out_ << '}';
  first_.pop_back();
}

void JsonWriter::begin_array() {
  separate();
  out_ << '[';
  first_.push_back(true);
}

void JsonWriter::end_array() {
  out_ << ']';
  first_.pop_back();
}

void JsonWriter::key(std::string_view k) {
  value(k);
  out_ << ':';
  after_key_ = true;
}

void JsonWriter::value(std::string_view v) {
  separate();
  out_ << '"';
  for (char ch : v) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out_ << "\\\"";
        break;
      case '\\':
        out_ << "\\\\";
        break;
      case '\n':
        out_ << "\\n";
        break;
      case '\t':
        out_ << "\\t";
        break;
      default:
        if (c < 0x20) {
          out_ << fmt::format("\\u{:04x}", c);
        } else {
          out_ << ch;
        }
    }
  }
  out_ << '"';
}

void JsonWriter::value(std::uint64_t v) {
  separate();
  out_ << v;
}

void JsonWriter::value(double v) {
  separate();
  out_ << fmt::format("{:.6g}", v);
}

void JsonWriter::value(bool v) {
  separate();
  out_ << (v ? "true" : "false");
}

}  // namespace preemptcheck::cli
