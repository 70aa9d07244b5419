// The text of the YAML files, below the YAML: the error type with the file, line and column
// that every reader throws; reading a file within a size bound; the raw-byte check that runs
// before yaml-cpp sees a file; and the quoting the writers use.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "files/limits.h"

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
/// directory included), and "file too large" when it holds more than `max_bytes`, without
/// reading further.
std::string read_file(const std::string& path, std::uint64_t max_bytes = limits::kMaxFileBytes);

/// Refuses text that is larger than `max_bytes`, or that holds a NUL byte, a C0 control
/// character other than tab, newline and carriage return, a DEL, a C1 control character
/// (U+0080-U+009F), or bytes that are not UTF-8: FileError at the first such byte.
void check_bytes(std::string_view text, std::string_view file,
                 std::uint64_t max_bytes = limits::kMaxFileBytes);

/// The first control character in decoded text — a C0 control other than tab, newline and
/// carriage return, DEL, or a C1 control (U+0080-U+009F) — as its code point, or 0 when none.
unsigned control_character(std::string_view text);

/// `s` as a double-quoted YAML scalar, control characters (C0, DEL and C1) escaped.
std::string yaml_quoted(std::string_view s);

/// `s` as a plain scalar when it reads back as the same string in block and flow context
/// alike, otherwise as yaml_quoted(s).
std::string yaml_scalar(std::string_view s);

/// "a, b, c".
std::string join_words(std::span<const std::string_view> words);

}  // namespace preemptcheck
