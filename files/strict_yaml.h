// The strict YAML reader both file formats share: one error type with the file, line and
// column; the raw-byte check that runs before yaml-cpp sees a file; one document with bounded
// nesting and aliases; mappings with no unknown or duplicate keys; typed scalars with bounds;
// and the quoting the writers use. Both formats word their errors through it, so their
// messages cannot drift apart.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace preemptcheck {

/// A file that cannot be read. `line` and `column` are 1-based (the column counts bytes) and
/// point at the offending text; both are 0 when no position applies (an unreadable file).
/// what() is "FILE:LINE:COL: MESSAGE", or "FILE: MESSAGE" when there is no position.
struct FileError : std::runtime_error {
  FileError(std::string file_name, int line_number, int column_number, std::string text);

  std::string file;
  int line = 0;
  int column = 0;
  std::string message;  ///< what was wrong and what was expected, without the position
};

/// The bytes of `path`. Throws FileError "cannot read file" when it cannot be read (a
/// directory included), and "file too large" when it holds more than limits::kMaxFileBytes,
/// without reading further.
std::string read_file(const std::string& path);

/// Refuses text that is larger than limits::kMaxFileBytes, or that holds a NUL byte, a
/// control character other than tab, newline and carriage return, a DEL, or bytes that are
/// not UTF-8: FileError at the first such byte.
void check_bytes(std::string_view text, std::string_view file);

/// `s` as a double-quoted YAML scalar, control characters escaped.
std::string yaml_quoted(std::string_view s);

/// `s` as a plain scalar when it reads back as the same string in block and flow context
/// alike, otherwise as yaml_quoted(s).
std::string yaml_scalar(std::string_view s);

/// "a, b, c".
std::string join_words(std::span<const std::string_view> words);

/// One `key: value` entry of a mapping whose keys are scalars.
struct Field {
  std::string key;
  YAML::Node key_node;
  YAML::Node value;
};

/// A mapping's entries, in file order, checked for unknown and duplicate keys.
struct Fields {
  YAML::Node map;
  std::vector<Field> entries;

  /// The entry for `key`, or null.
  const Field* find(std::string_view key) const;
};

/// The shared reader: every method throws FileError at the offending node, labelled with the
/// file name given at construction.
class StrictYaml {
 public:
  explicit StrictYaml(std::string_view file) : file_(file) {}

  const std::string& file() const { return file_; }

  /// Checks the bytes, then parses `text` as exactly one YAML document whose nesting and
  /// aliases are within limits::kMaxNesting and limits::kMaxAliases. A second document is an
  /// error at its start; yaml-cpp's own errors come back as "invalid YAML: …".
  YAML::Node parse(const std::string& text) const;

  [[noreturn]] void fail_at(int line, int column, std::string message) const;
  [[noreturn]] void fail(const YAML::Mark& mark, std::string message) const;
  [[noreturn]] void fail(const YAML::Node& at, std::string message) const;
  /// An empty value (`cpu:`) carries the position of whatever follows it, so problems with a
  /// null value are reported at its key.
  [[noreturn]] void fail(const Field& at, std::string message) const;

  /// "line 3, column 7".
  static std::string position(const YAML::Node& n);
  /// How a node that was not what was expected looks, for "…, got X": a scalar quoted (and
  /// cut at 40 characters), "a sequence", "a mapping" or "null".
  static std::string describe(const YAML::Node& n);

  /// The entries of `map`, whose keys must be distinct scalars and among `allowed`; `what`
  /// names the mapping in messages. A duplicate is "duplicate key 'K' (first at line L,
  /// column C)"; an unknown key lists the allowed ones.
  Fields mapping(const YAML::Node& map, std::string_view what,
                 std::span<const std::string_view> allowed) const;
  /// The entries of `map`, whose keys must be distinct scalars (any key allowed).
  Fields entries(const YAML::Node& map) const;
  /// The value of `f` as a mapping's entries, or an error naming `f`.
  const YAML::Node& as_map(const Field& f) const;

  /// "missing required key 'K' in WHAT", at the mapping.
  const Field& require(const Fields& fields, std::string_view key, std::string_view what) const;

  /// A scalar value.
  std::string text(const Field& f) const;
  /// A non-empty scalar value.
  std::string nonempty(const Field& f) const;
  /// A plain (untagged, unquoted) scalar: where a number is expected, `"4"` and `!!str 4` are
  /// strings and refused. Returns the scalar.
  const std::string& plain_scalar(const Field& f, std::string_view expected) const;
  /// A plain decimal integer [-+]?[0-9]+ within [min, max]; out of range names the value and
  /// the bound. `expected` words the integer ("an integer", "a non-negative integer").
  std::int64_t integer(const Field& f, std::int64_t min, std::int64_t max,
                       std::string_view expected = "an integer") const;
  /// true or false.
  bool boolean(const Field& f) const;
  /// A sequence value.
  const YAML::Node& sequence(const Field& f) const;

 private:
  std::string file_;
};

}  // namespace preemptcheck
