// The text of the YAML files, below the YAML.
#include "files/yaml_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <utility>

namespace preemptcheck {
namespace {

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

}  // namespace

FileError::FileError(std::string file_name, int line_number, int column_number, std::string text)
    : std::runtime_error(
          line_number > 0 ? fmt::format("{}:{}:{}: {}", file_name, line_number, column_number, text)
                          : fmt::format("{}: {}", file_name, text)),
      file(std::move(file_name)),
      line(line_number),
      column(column_number),
      message(std::move(text)) {}

std::string read_file(const std::string& path, std::uint64_t max_bytes) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  // A directory opens but reads as empty.
  if (!in || std::filesystem::is_directory(path, ec))
    throw FileError(path, 0, 0, "cannot read file");
  // Read in pieces up to one byte past the bound, never more: a size from the file system is
  // not to be trusted (a pipe, /dev/zero), and most files are far below the bound.
  std::string text;
  constexpr std::size_t kPiece = 1 << 16;
  while (in && text.size() <= max_bytes) {
    const std::size_t at = text.size();
    text.resize(at + static_cast<std::size_t>(std::min<std::uint64_t>(kPiece, max_bytes + 1 - at)));
    in.read(text.data() + at, static_cast<std::streamsize>(text.size() - at));
    text.resize(at + static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad())
    throw FileError(path, 0, 0, "cannot read file");
  if (text.size() > max_bytes)
    throw FileError(path, 0, 0, fmt::format("file too large: more than {} bytes", max_bytes));
  return text;
}

void check_bytes(std::string_view text, std::string_view file, std::uint64_t max_bytes) {
  if (text.size() > max_bytes) {
    throw FileError(std::string(file), 0, 0,
                    fmt::format("file too large: {} bytes, at most {}", text.size(), max_bytes));
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
      // U+0080-U+009F, the C1 controls (U+009B starts a terminal escape sequence).
      if (const unsigned c = control_character(text.substr(i, n)); c != 0) {
        throw FileError(std::string(file), line, column,
                        fmt::format("control character U+{:04X} is not allowed", c));
      }
    }
    i += n;
    column += static_cast<int>(n);
  }
}

std::string yaml_quoted(std::string_view s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
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
    } else if (byte == 0xc2 && control_character(s.substr(i, 2)) != 0) {
      // A C1 control (U+0080-U+009F): its second byte is the code point.
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[++i]));
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

// UTF-8 0xc2 0x80-0x9f are the C1 controls.
unsigned control_character(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if ((b < 0x20 && b != '\t' && b != '\n' && b != '\r') || b == 0x7f)
      return b;
    // 0xc2 is never a continuation byte, so it always starts a two-byte sequence here.
    if (b == 0xc2 && i + 1 < s.size()) {
      const auto next = static_cast<unsigned char>(s[i + 1]);
      if (next >= 0x80 && next <= 0x9f)
        return next;
    }
    // A byte that is not part of a well-formed UTF-8 sequence: yaml-cpp decodes the escape
    // "\N" (U+0085) to the lone byte 0x85, which no writer can put back.
    if (b >= 0x80) {
      const std::size_t more = b >= 0xc2 && b <= 0xdf   ? 1
                               : b >= 0xe0 && b <= 0xef ? 2
                               : b >= 0xf0 && b <= 0xf4 ? 3
                                                        : 0;
      if (more == 0 || i + more >= s.size())
        return b;
      for (std::size_t k = 1; k <= more; ++k) {
        if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80)
          return b;
      }
      i += more;
    }
  }
  return 0;
}

}  // namespace preemptcheck
