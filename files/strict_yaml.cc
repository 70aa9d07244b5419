// The strict YAML reader both file formats share.
#include "files/strict_yaml.h"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "files/limits.h"

namespace preemptcheck {
namespace {

// Longest scalar quoted verbatim in a message.
constexpr std::size_t kMaxQuoted = 40;

// The length of the UTF-8 sequence that starts at text[i], or 0 when it is not valid UTF-8
// (overlong forms, surrogates and code points above U+10FFFF included).
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b = byte(i);
  std::size_t n = 0;
  unsigned char lo = 0x80;
  unsigned char hi = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) {
    n = 2;
  } else if (b >= 0xe0 && b <= 0xef) {
    n = 3;
    if (b == 0xe0)
      lo = 0xa0;
    if (b == 0xed)
      hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    n = 4;
    if (b == 0xf0)
      lo = 0x90;
    if (b == 0xf4)
      hi = 0x8f;
  } else {
    return 0;
  }
  if (i + n > text.size())
    return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi)
    return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xbf)
      return 0;
  }
  return n;
}

// Counts nesting and aliases over the parse events of one document, failing at the first
// event past a bound; remembers where the latest document started.
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
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    enter(mark);
  }
  void OnSequenceEnd() override { --depth_; }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    enter(mark);
  }
  void OnMapEnd() override { --depth_; }

 private:
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

FileError::FileError(std::string file_name, int line_number, int column_number, std::string text)
    : std::runtime_error(
          line_number > 0 ? fmt::format("{}:{}:{}: {}", file_name, line_number, column_number, text)
                          : fmt::format("{}: {}", file_name, text)),
      file(std::move(file_name)),
      line(line_number),
      column(column_number),
      message(std::move(text)) {}

std::string read_file(const std::string& path) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  // A directory opens but reads as empty.
  if (!in || std::filesystem::is_directory(path, ec))
    throw FileError(path, 0, 0, "cannot read file");
  // Read one byte past the bound, never more: a size from the file system is not to be
  // trusted (a pipe, /dev/zero).
  std::string text(limits::kMaxFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad())
    throw FileError(path, 0, 0, "cannot read file");
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > limits::kMaxFileBytes) {
    throw FileError(path, 0, 0,
                    fmt::format("file too large: more than {} bytes", limits::kMaxFileBytes));
  }
  return text;
}

void check_bytes(std::string_view text, std::string_view file) {
  if (text.size() > limits::kMaxFileBytes) {
    throw FileError(
        std::string(file), 0, 0,
        fmt::format("file too large: {} bytes, at most {}", text.size(), limits::kMaxFileBytes));
  }
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    std::size_t n = 1;
    if (b == '\n') {
      ++line;
      column = 1;
      ++i;
      continue;
    }
    if (b == 0) {
      throw FileError(std::string(file), line, column, "a NUL byte is not allowed");
    }
    if ((b < 0x20 && b != '\t' && b != '\r') || b == 0x7f) {
      throw FileError(std::string(file), line, column,
                      fmt::format("control character 0x{:02x} is not allowed", b));
    }
    if (b >= 0x80) {
      n = utf8_length(text, i);
      if (n == 0) {
        throw FileError(std::string(file), line, column,
                        fmt::format("invalid UTF-8 (byte 0x{:02x})", b));
      }
    }
    i += n;
    column += static_cast<int>(n);
  }
}

std::string yaml_quoted(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

namespace {
bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
}  // namespace

std::string yaml_scalar(std::string_view s) {
  // Deliberately conservative: anything doubtful is quoted.
  bool plain = !s.empty() && is_alnum(s.front()) && s.back() != ' ' && s != "null" && s != "Null" &&
               s != "NULL";
  for (char c : s) {
    plain =
        plain && (is_alnum(c) || std::string_view(" -_./'()+=@").find(c) != std::string_view::npos);
  }
  return plain ? std::string(s) : yaml_quoted(s);
}

std::string join_words(std::span<const std::string_view> words) {
  std::string out;
  for (std::string_view w : words) {
    if (!out.empty())
      out += ", ";
    out += w;
  }
  return out;
}

const Field* Fields::find(std::string_view key) const {
  for (const Field& f : entries) {
    if (f.key == key)
      return &f;
  }
  return nullptr;
}

YAML::Node StrictYaml::parse(const std::string& text) const {
  check_bytes(text, file_);
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

std::string StrictYaml::text(const Field& f) const {
  if (!f.value.IsScalar()) {
    fail(f, fmt::format("expected a string for '{}', got {}", f.key, describe(f.value)));
  }
  return f.value.Scalar();
}

std::string StrictYaml::nonempty(const Field& f) const {
  std::string s = text(f);
  if (s.empty())
    fail(f, fmt::format("expected a non-empty string for '{}'", f.key));
  return s;
}

const std::string& StrictYaml::plain_scalar(const Field& f, std::string_view expected) const {
  const YAML::Node& v = f.value;
  if (!v.IsScalar()) {
    fail(f, fmt::format("expected {} for '{}', got {}", expected, f.key, describe(v)));
  }
  // yaml-cpp tags a quoted scalar "!" and an untagged plain one "?"; anything else was
  // written by hand (`!!str 4`) and says the value is not a number.
  if (v.Tag() == "!") {
    fail(f, fmt::format("expected {} for '{}', got the quoted string '{}'", expected, f.key,
                        v.Scalar()));
  }
  if (v.Tag() != "?") {
    fail(f, fmt::format("expected {} for '{}', got a value tagged {}", expected, f.key, v.Tag()));
  }
  return v.Scalar();
}

std::int64_t StrictYaml::integer(const Field& f, std::int64_t min, std::int64_t max,
                                 std::string_view expected) const {
  const std::string& s = plain_scalar(f, expected);
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
  const std::string& s = plain_scalar(f, "true or false");
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
