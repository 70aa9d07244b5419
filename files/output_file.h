// OutputFile: every file the tool writes (counterexamples, imported scenarios, swimlane pages,
// DOT and SVG graphs) is written whole or not at all. The bytes go to a temporary file beside
// the final path, are flushed to the disk, and only then is the file renamed into place, so a
// full disk, a crash or an interrupt never leaves a 0-byte or partial file under the final
// name; a failure removes the temporary file and says why in the system's words (strerror).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace preemptcheck {

/// The longest file name (one path component) the tool writes, in bytes: NAME_MAX of the
/// usual Linux file systems (ext4, xfs, btrfs, tmpfs).
inline constexpr std::size_t kMaxFileNameBytes = 255;

/// A test-only fault: when this environment variable holds a number N, a file being written
/// fails with "No space left on device" once N of its bytes are written, as on a full disk.
inline constexpr const char* kWriteFaultVariable = "PREEMPTCHECK_TEST_WRITE_FAULT_AFTER";

/// `name` when it has at most kMaxFileNameBytes bytes; otherwise its beginning, a dash and 16
/// hex digits of XXH3 of the whole name, and its extension (the part from the last '.', when
/// short): a deterministic name of exactly kMaxFileNameBytes bytes that differs for names that
/// differ.
std::string fit_file_name(std::string_view name);

/// A file being written under a temporary name in the directory of its final path; commit()
/// renames it into place. Until then the final path is untouched, and when the OutputFile is
/// destroyed uncommitted (an error, an exception) its temporary file is removed.
class OutputFile {
 public:
  /// Creates the temporary file for `path`; nullopt and `error` ("cannot write 'PATH': …")
  /// when it cannot be created.
  static std::optional<OutputFile> create(const std::string& path, std::string& error);

  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&&) = delete;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  /// The final path.
  const std::string& path() const { return path_; }
  /// The temporary file's path, for a program that writes the content itself (graphviz's
  /// `dot -o`): call release_descriptor() first.
  const std::string& temp_path() const { return temp_; }

  /// Appends `text`; false and `error` when it cannot be written (the file is then useless).
  bool write(std::string_view text, std::string& error);

  /// Closes this process's descriptor of the temporary file, which stays until commit() or
  /// destruction; write() is then an error.
  void release_descriptor();

  /// Flushes the file to the disk, closes it and renames it to path(); false and `error` when
  /// any of that fails (the temporary file is removed, path() untouched).
  bool commit(std::string& error);

 private:
  OutputFile(std::string path, std::string temp, int fd);
  std::string failure(int error) const;

  std::string path_;
  std::string temp_;
  int fd_ = -1;
  std::size_t written_ = 0;
  bool committed_ = false;
};

/// Writes `text` to `path` whole or not at all (OutputFile); returns the error message
/// ("cannot write 'PATH': No space left on device"), or nullopt when the file is in place.
std::optional<std::string> write_file_atomically(const std::string& path, std::string_view text);

/// `path` as a file the tool writes records it (a counterexample's `# Found by:` and `# Replay:`
/// lines): relative to the current directory when it lies under it, as given when it is
/// relative, and otherwise its file name alone — never an absolute path, which would make the
/// file depend on the machine and directory it was written on.
std::string recorded_path(const std::string& path);

/// Why files cannot be written in directory `dir`, or nullopt when they can: `dir` is a
/// directory in which a file can be created, or does not exist and its nearest existing
/// ancestor is such a directory (so that it can be created). Tries by creating and removing a
/// temporary file, so that it tells the truth for root and on read-only file systems too.
std::optional<std::string> output_directory_problem(const std::string& dir);

/// Why a file cannot be written at `path` (as write_file_atomically writes it, which creates
/// no directory), or nullopt when it can: `path` is a directory, its directory does not exist
/// or is not a directory, or no file can be created in it ("cannot write 'PATH': REASON").
std::optional<std::string> output_file_problem(const std::string& path);

}  // namespace preemptcheck
