// OutputFile: a temporary file beside the final path, flushed and renamed into place.
#include "files/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>

namespace preemptcheck {
namespace {

// The directory a path's file goes in ("." for a bare name).
std::string directory_of(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

// The limit kWriteFaultVariable sets, if any.
std::optional<std::size_t> write_fault_after() {
  const char* text = std::getenv(kWriteFaultVariable);
  if (text == nullptr || *text == '\0')
    return std::nullopt;
  std::size_t value = 0;
  const char* end = text + std::strlen(text);
  const auto [at, ec] = std::from_chars(text, end, value);
  if (ec != std::errc() || at != end)
    return std::nullopt;
  return value;
}

// Creates a new file named after `base` in `dir` that no other writer uses (this process's id
// and a counter); returns its descriptor (or -1 with errno set) and its path.
std::pair<int, std::string> create_unique(const std::string& dir, std::string_view base) {
  static std::atomic<unsigned> counter{0};
  // Room for ".", ".tmp-", a process id and a counter within one file name.
  constexpr std::size_t kKept = kMaxFileNameBytes - 48;
  const std::string_view kept = base.substr(0, std::min(base.size(), kKept));
  for (;;) {
    std::string temp = fmt::format("{}/.{}.tmp-{}-{}", dir, kept, ::getpid(), counter++);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST)
      return {fd, std::move(temp)};
  }
}

}  // namespace

std::string fit_file_name(std::string_view name) {
  if (name.size() <= kMaxFileNameBytes)
    return std::string(name);
  const std::size_t dot = name.rfind('.');
  const std::string_view extension =
      dot != std::string_view::npos && name.size() - dot <= 16 ? name.substr(dot) : "";
  const std::string suffix =
      fmt::format("-{:016x}{}", XXH3_64bits(name.data(), name.size()), extension);
  return std::string(name.substr(0, kMaxFileNameBytes - suffix.size())) + suffix;
}

std::optional<OutputFile> OutputFile::create(const std::string& path, std::string& error) {
  const std::string name = std::filesystem::path(path).filename().string();
  if (name.size() > kMaxFileNameBytes) {
    error = fmt::format("cannot write '{}': {} (the file name has {} bytes, at most {} fit)", path,
                        std::strerror(ENAMETOOLONG), name.size(), kMaxFileNameBytes);
    return std::nullopt;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = fmt::format("cannot write '{}': {}", path, std::strerror(EISDIR));
    return std::nullopt;
  }
  auto [fd, temp] = create_unique(directory_of(path), name);
  if (fd < 0) {
    error = fmt::format("cannot write '{}': {}", path, std::strerror(errno));
    return std::nullopt;
  }
  return OutputFile(path, std::move(temp), fd);
}

OutputFile::OutputFile(std::string path, std::string temp, int fd)
    : path_(std::move(path)), temp_(std::move(temp)), fd_(fd) {}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : path_(std::move(other.path_)),
      temp_(std::move(other.temp_)),
      fd_(std::exchange(other.fd_, -1)),
      written_(other.written_),
      committed_(std::exchange(other.committed_, true)) {}

OutputFile::~OutputFile() {
  release_descriptor();
  if (!committed_)
    ::unlink(temp_.c_str());
}

std::string OutputFile::failure(int error) const {
  return fmt::format("cannot write '{}': {}", path_, std::strerror(error));
}

bool OutputFile::write(std::string_view text, std::string& error) {
  if (fd_ < 0) {
    error = failure(EBADF);
    return false;
  }
  std::size_t room = text.size();
  const std::optional<std::size_t> fault = write_fault_after();
  if (fault)
    room = *fault > written_ ? std::min(room, *fault - written_) : 0;
  std::size_t done = 0;
  while (done < room) {
    const ssize_t n = ::write(fd_, text.data() + done, room - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      error = failure(errno);
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  written_ += done;
  if (done < text.size()) {
    error = failure(ENOSPC);
    return false;
  }
  return true;
}

void OutputFile::release_descriptor() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

bool OutputFile::commit(std::string& error) {
  if (fd_ >= 0) {
    // A full disk may only show when the data is flushed, or when the file is closed.
    if (::fsync(fd_) != 0 && errno != EINVAL && errno != EROFS) {
      error = failure(errno);
      return false;
    }
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0) {
      error = failure(errno);
      return false;
    }
  }
  if (::rename(temp_.c_str(), path_.c_str()) != 0) {
    error = failure(errno);
    return false;
  }
  committed_ = true;
  return true;
}

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view text) {
  std::string error;
  std::optional<OutputFile> file = OutputFile::create(path, error);
  if (!file || !file->write(text, error) || !file->commit(error))
    return error;
  return std::nullopt;
}

std::string recorded_path(const std::string& path) {
  const std::filesystem::path p(path);
  if (p.is_relative())
    return path;
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  if (!ec) {
    const std::filesystem::path relative = p.lexically_normal().lexically_relative(cwd);
    if (!relative.empty() && *relative.begin() != "..")
      return relative.string();
  }
  return p.filename().string();
}

std::optional<std::string> output_directory_problem(const std::string& dir) {
  namespace fs = std::filesystem;
  // The directory itself, or the nearest ancestor that exists.
  fs::path at = dir.empty() ? fs::path(".") : fs::path(dir);
  for (;;) {
    struct stat info {};
    if (::stat(at.c_str(), &info) == 0) {
      if (!S_ISDIR(info.st_mode)) {
        return at == fs::path(dir)
                   ? fmt::format("cannot write in '{}': {}", dir, std::strerror(ENOTDIR))
                   : fmt::format("cannot create directory '{}': '{}' is not a directory", dir,
                                 at.string());
      }
      break;
    }
    if (errno != ENOENT)
      return fmt::format("cannot write in '{}': {}", dir, std::strerror(errno));
    fs::path parent = at.parent_path();
    if (parent.empty() || parent == at)
      parent = ".";
    at = parent;
  }
  auto [fd, temp] = create_unique(at.string(), "preemptcheck-probe");
  if (fd < 0) {
    const int error = errno;
    return at == fs::path(dir) ? fmt::format("cannot write in '{}': {}", dir, std::strerror(error))
                               : fmt::format("cannot create directory '{}' in '{}': {}", dir,
                                             at.string(), std::strerror(error));
  }
  ::close(fd);
  ::unlink(temp.c_str());
  return std::nullopt;
}

std::optional<std::string> output_file_problem(const std::string& path) {
  namespace fs = std::filesystem;
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    return fmt::format("cannot write '{}': {}", path, std::strerror(EISDIR));
  const fs::path parent = fs::path(path).parent_path();
  const std::string dir = parent.empty() ? std::string(".") : parent.string();
  if (::stat(dir.c_str(), &info) != 0) {
    return fmt::format("cannot write '{}': {} ('{}')", path, std::strerror(errno), dir);
  }
  if (!S_ISDIR(info.st_mode))
    return fmt::format("cannot write '{}': {} ('{}')", path, std::strerror(ENOTDIR), dir);
  auto [fd, temp] = create_unique(dir, "preemptcheck-probe");
  if (fd < 0)
    return fmt::format("cannot write '{}': {}", path, std::strerror(errno));
  ::close(fd);
  ::unlink(temp.c_str());
  return std::nullopt;
}

}  // namespace preemptcheck
