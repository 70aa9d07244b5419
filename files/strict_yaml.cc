// The strict YAML reader both file formats share.
#include "files/strict_yaml.h"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <charconv>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <utility>

#include "files/limits.h"

namespace preemptcheck {
namespace {

// Longest scalar quoted verbatim in a message.
constexpr std::size_t kMaxQuoted = 40;

constexpr std::string_view kCoreTag = "tag:yaml.org,2002:";

// Whether `tag` is one of the YAML core schema's `kinds` ("!!str", …) or no tag at all: "?"
// (plain, untagged), "!" (quoted, or the non-specific tag) and "" (null) say nothing.
bool is_tag_among(std::string_view tag, std::initializer_list<std::string_view> kinds) {
  if (tag.empty() || tag == "?" || tag == "!")
    return true;
  if (!tag.starts_with(kCoreTag))
    return false;
  tag.remove_prefix(kCoreTag.size());
  for (std::string_view k : kinds) {
    if (tag == k)
      return true;
  }
  return false;
}

// Counts nesting and aliases over the parse events of one document, failing at the first
// event past a bound; remembers where the latest document started. Refuses, at their node,
// tags other than the core schema's and scalars whose escapes spell a control character (the
// raw bytes were checked before).
class Bounds : public YAML::EventHandler {
 public:
  explicit Bounds(const StrictYaml& reader) : reader_(reader) {}

  YAML::Mark last_start;

  void OnDocumentStart(const YAML::Mark& mark) override { last_start = mark; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    if (++aliases_ > limits::kMaxAliases) {
      reader_.fail(mark,
                   fmt::format("too many aliases: at most {} are allowed", limits::kMaxAliases));
    }
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                const std::string& value) override {
    check_tag(mark, tag, is_tag_among(tag, {"str", "int", "float", "bool", "null"}), "a scalar");
    if (const unsigned c = control_character(value)) {
      reader_.fail(mark, fmt::format("control character U+{:04X} is not allowed, written as an "
                                     "escape or not",
                                     c));
    }
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    check_tag(mark, tag, is_tag_among(tag, {"seq"}), "a sequence");
    enter(mark);
  }
  void OnSequenceEnd() override { --depth_; }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    check_tag(mark, tag, is_tag_among(tag, {"map"}), "a mapping");
    enter(mark);
  }
  void OnMapEnd() override { --depth_; }

 private:
  void check_tag(const YAML::Mark& mark, std::string_view tag, bool fits,
                 std::string_view what) const {
    if (fits)
      return;
    const bool core = is_tag_among(tag, {"str", "int", "float", "bool", "null", "seq", "map"});
    reader_.fail(mark, core ? fmt::format("tag {} does not fit {}", StrictYaml::tag_name(tag), what)
                            : fmt::format("unsupported tag {}; the tags read are !!str, !!int, "
                                          "!!float, !!bool, !!null, !!seq and !!map",
                                          StrictYaml::tag_name(tag)));
  }

  void enter(const YAML::Mark& mark) {
    if (++depth_ > limits::kMaxNesting) {
      reader_.fail(mark, fmt::format("invalid YAML: nesting too deep (at most {} levels)",
                                     limits::kMaxNesting));
    }
  }

  const StrictYaml& reader_;
  int depth_ = 0;
  int aliases_ = 0;
};

}  // namespace

const Field* Fields::find(std::string_view key) const {
  for (const Field& f : entries) {
    if (f.key == key)
      return &f;
  }
  return nullptr;
}

YAML::Node StrictYaml::parse(const std::string& text) const {
  check_bytes(text, file_, max_bytes_);
  try {
    // Events first: nesting and aliases are bounded before a node tree is built. Not
    // YAML::LoadAll: it loops forever, allocating, on a stray ',' outside a flow collection
    // (yaml-cpp issue 1040). This reads at most two documents, so it cannot loop.
    std::optional<YAML::Mark> second;
    {
      std::istringstream in(text);
      YAML::Parser parser(in);
      Bounds bounds(*this);
      if (parser.HandleNextDocument(bounds) && parser.HandleNextDocument(bounds)) {
        second = bounds.last_start;
      }
    }
    const YAML::Node root = YAML::Load(text);
    // A top level that is not a mapping is the caller's error to report, and the likelier one.
    if (second && root.IsMap())
      fail(*second, "expected a single YAML document");
    return root;
  } catch (const YAML::DeepRecursion& e) {
    fail(e.mark, "invalid YAML: nesting too deep");  // its own msg says "bad file"
  } catch (const YAML::Exception& e) {
    fail(e.mark, fmt::format("invalid YAML: {}", e.msg));
  }
}

void StrictYaml::fail_at(int line, int column, std::string message) const {
  throw FileError(file_, line, column, std::move(message));
}

void StrictYaml::fail(const YAML::Mark& mark, std::string message) const {
  if (mark.is_null())
    fail_at(0, 0, std::move(message));
  fail_at(mark.line + 1, mark.column + 1, std::move(message));
}

void StrictYaml::fail(const YAML::Node& at, std::string message) const {
  fail(at.Mark(), std::move(message));
}

void StrictYaml::fail(const Field& at, std::string message) const {
  fail(at.value.IsNull() ? at.key_node : at.value, std::move(message));
}

std::string StrictYaml::position(const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  return fmt::format("line {}, column {}", m.line + 1, m.column + 1);
}

std::string StrictYaml::describe(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Scalar: {
      const std::string& s = n.Scalar();
      if (s.size() <= kMaxQuoted)
        return fmt::format("'{}'", s);
      return fmt::format("'{}...'", s.substr(0, kMaxQuoted));
    }
    case YAML::NodeType::Sequence:
      return "a sequence";
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return "null";
  }
  return "null";
}

Fields StrictYaml::entries(const YAML::Node& map) const {
  Fields out{map, {}};
  std::map<std::string, YAML::Node> seen;  // not Fields::find: maps may be large
  for (auto it = map.begin(); it != map.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar())
      fail(key, fmt::format("expected a string key, got {}", describe(key)));
    if (!is_string(key)) {
      fail(key, fmt::format("expected a string key, got {} tagged {}", describe(key),
                            tag_name(key.Tag())));
    }
    const auto [first, inserted] = seen.emplace(key.Scalar(), key);
    if (!inserted) {
      fail(key,
           fmt::format("duplicate key '{}' (first at {})", key.Scalar(), position(first->second)));
    }
    out.entries.push_back(Field{key.Scalar(), key, it->second});
  }
  return out;
}

Fields StrictYaml::mapping(const YAML::Node& map, std::string_view what,
                           std::span<const std::string_view> allowed) const {
  Fields out = entries(map);
  for (const Field& f : out.entries) {
    bool known = false;
    for (std::string_view k : allowed)
      known = known || f.key == k;
    if (!known) {
      fail(f.key_node, fmt::format("unknown key '{}' in {}; expected one of: {}", f.key, what,
                                   join_words(allowed)));
    }
  }
  return out;
}

const YAML::Node& StrictYaml::as_map(const Field& f) const {
  if (!f.value.IsMap()) {
    fail(f, fmt::format("expected a mapping for '{}', got {}", f.key, describe(f.value)));
  }
  return f.value;
}

const Field& StrictYaml::require(const Fields& fields, std::string_view key,
                                 std::string_view what) const {
  const Field* f = fields.find(key);
  if (f == nullptr)
    fail(fields.map, fmt::format("missing required key '{}' in {}", key, what));
  return *f;
}

bool StrictYaml::is_string(const YAML::Node& n) {
  return n.IsScalar() && is_tag_among(n.Tag(), {"str"});
}

std::string StrictYaml::tag_name(std::string_view tag) {
  if (tag.starts_with(kCoreTag))
    return fmt::format("!!{}", tag.substr(kCoreTag.size()));
  return std::string(tag);
}

std::string StrictYaml::text(const Field& f) const {
  if (!f.value.IsScalar()) {
    fail(f, fmt::format("expected a string for '{}', got {}", f.key, describe(f.value)));
  }
  if (!is_string(f.value)) {
    fail(f, fmt::format("expected a string for '{}', got {} tagged {}", f.key, describe(f.value),
                        tag_name(f.value.Tag())));
  }
  return f.value.Scalar();
}

std::string StrictYaml::nonempty(const Field& f) const {
  std::string s = text(f);
  if (s.empty())
    fail(f, fmt::format("expected a non-empty string for '{}'", f.key));
  return s;
}

const std::string& StrictYaml::plain_scalar(const Field& f, std::string_view expected,
                                            std::string_view core) const {
  const YAML::Node& v = f.value;
  if (!v.IsScalar()) {
    fail(f, fmt::format("expected {} for '{}', got {}", expected, f.key, describe(v)));
  }
  // yaml-cpp tags a quoted scalar "!" and an untagged plain one "?"; a tag written by hand
  // (`!!str 4`) is honoured: only the core tag of the expected type is.
  if (v.Tag() == "!") {
    fail(f, fmt::format("expected {} for '{}', got the quoted string '{}'", expected, f.key,
                        v.Scalar()));
  }
  if (v.Tag() != "?" && v.Tag() != fmt::format("{}{}", kCoreTag, core)) {
    fail(f, fmt::format("expected {} for '{}', got {} tagged {}", expected, f.key, describe(v),
                        tag_name(v.Tag())));
  }
  return v.Scalar();
}

const std::string& StrictYaml::quantity_text(const Field& f, std::string_view expected) const {
  const YAML::Node& v = f.value;
  if (!v.IsScalar()) {
    fail(f, fmt::format("expected {} for '{}', got {}", expected, f.key, describe(v)));
  }
  if (is_string(v))
    return v.Scalar();
  // A number tagged as one: its text must be a number, which the quantity grammar then reads.
  const std::string& s = v.Scalar();
  const bool is_int = v.Tag() == fmt::format("{}int", kCoreTag);
  const bool is_float = v.Tag() == fmt::format("{}float", kCoreTag);
  const bool numeric =
      !s.empty() &&
      s.find_first_not_of(is_int ? "+-0123456789" : "+-0123456789.eE") == std::string::npos;
  if (!(is_int || is_float) || !numeric) {
    fail(f, fmt::format("expected {} for '{}', got {} tagged {}", expected, f.key, describe(v),
                        tag_name(v.Tag())));
  }
  return s;
}

std::int64_t StrictYaml::integer(const Field& f, std::int64_t min, std::int64_t max,
                                 std::string_view expected) const {
  const std::string& s = plain_scalar(f, expected, "int");
  const std::size_t sign = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  bool digits = s.size() > sign;
  for (std::size_t i = sign; i < s.size(); ++i)
    digits = digits && s[i] >= '0' && s[i] <= '9';
  if (!digits)
    fail(f, fmt::format("expected {} for '{}', got {}", expected, f.key, describe(f.value)));
  // from_chars takes a leading '-' but not '+'.
  const char* begin = s.data() + (s[0] == '+' ? 1 : 0);
  const char* end = s.data() + s.size();
  std::int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr != end) {
    fail(f,
         fmt::format("integer out of range for '{}': {} is {} the bound {}", f.key,
                     describe(f.value), s[0] == '-' ? "below" : "above", s[0] == '-' ? min : max));
  }
  if (value < min && (min == 0 || min == 1)) {
    fail(f, fmt::format("expected {} for '{}', got {}", expected, f.key, value));
  }
  if (value < min) {
    fail(f,
         fmt::format("integer out of range for '{}': {} is below the bound {}", f.key, value, min));
  }
  if (value > max) {
    fail(f,
         fmt::format("integer out of range for '{}': {} is above the bound {}", f.key, value, max));
  }
  return value;
}

bool StrictYaml::boolean(const Field& f) const {
  const std::string& s = plain_scalar(f, "true or false", "bool");
  if (s == "true")
    return true;
  if (s == "false")
    return false;
  fail(f, fmt::format("expected true or false for '{}', got '{}'", f.key, s));
}

const YAML::Node& StrictYaml::sequence(const Field& f) const {
  if (!f.value.IsSequence()) {
    fail(f, fmt::format("expected a sequence for '{}', got {}", f.key, describe(f.value)));
  }
  return f.value;
}

}  // namespace preemptcheck
