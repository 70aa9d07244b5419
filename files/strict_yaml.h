// The strict YAML reader both file formats share: one document with bounded nesting and
// aliases, core tags honoured or refused; mappings with no unknown or duplicate keys; typed
// scalars with bounds. Its errors, the raw-byte check and the writers' quoting are in
// files/yaml_text.h. Both formats word their errors through it, so their messages cannot
// drift apart.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "files/limits.h"
#include "files/yaml_text.h"

namespace preemptcheck {

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
  /// `max_bytes` bounds the text parse() accepts.
  explicit StrictYaml(std::string_view file, std::uint64_t max_bytes = limits::kMaxFileBytes)
      : file_(file), max_bytes_(max_bytes) {}

  const std::string& file() const { return file_; }

  /// Checks the bytes, then parses `text` as exactly one YAML document whose nesting and
  /// aliases are within limits::kMaxNesting and limits::kMaxAliases. A second document is an
  /// error at its start; yaml-cpp's own errors come back as "invalid YAML: …". Tags are
  /// honoured or refused: a node may carry only a YAML core schema tag that fits it (!!str,
  /// !!int, !!float, !!bool or !!null on a scalar, !!seq on a sequence, !!map on a mapping),
  /// and the typed readers below accept a tagged value only where its type is expected. A
  /// scalar whose escapes spell a control character refused in check_bytes() is refused.
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

  /// Whether `n` is a string: a scalar that is plain and untagged, quoted, or tagged !!str.
  static bool is_string(const YAML::Node& n);
  /// A tag as written: "!!int" for yaml-cpp's "tag:yaml.org,2002:int".
  static std::string tag_name(std::string_view tag);

  /// A string value (see is_string(); `!!bool x` is refused).
  std::string text(const Field& f) const;
  /// A non-empty string value.
  std::string nonempty(const Field& f) const;
  /// A plain untagged scalar, or one tagged with the core tag `core` ("int", "bool"): where a
  /// number is expected, `"4"` and `!!str 4` are strings and refused. Returns the scalar.
  const std::string& plain_scalar(const Field& f, std::string_view expected,
                                  std::string_view core) const;
  /// The text of a Kubernetes quantity, which the API holds as a string: a string (see
  /// is_string(): `"2"`, `!!str 4`, `2Gi`), or a number tagged !!int or !!float whose text is
  /// a number. `expected` words the quantity in messages.
  const std::string& quantity_text(const Field& f, std::string_view expected) const;
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
  std::uint64_t max_bytes_;
};

}  // namespace preemptcheck
