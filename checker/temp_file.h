// TempFile: an unlinked temporary file in $TMPDIR (or /tmp) that the search keeps what it
// rarely reads in — each state's parent link (checker/trace_store.h) and the frontier's states
// past the memory it may keep (checker/frontier_store.h) — as TLC keeps its trace and its
// queue on disk. The file has no name once created, so it is gone when the process ends, by
// any path. The operating system's page cache holds it while memory is free; the process's
// own memory does not.
//
// Any failure to create, write or read it throws TempFileError, which the search reports as
// a stop with nothing proven (exit 3), never as a pass.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace preemptcheck::checker {

/// A temporary file could not be created, written or read.
class TempFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class TempFile {
 public:
  TempFile() = default;
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  TempFile(TempFile&& other) noexcept : fd_(other.fd_), size_(other.size_) {
    other.fd_ = -1;
    other.size_ = 0;
  }
  TempFile& operator=(TempFile&& other) noexcept {
    if (this != &other) {
      close_file();
      fd_ = other.fd_;
      size_ = other.size_;
      other.fd_ = -1;
      other.size_ = 0;
    }
    return *this;
  }
  ~TempFile() { close_file(); }

  /// Bytes written so far.
  std::size_t size() const { return size_; }

  /// Appends `length` bytes; returns the offset they start at.
  std::size_t append(const void* data, std::size_t length) {
    open_file();
    const std::size_t at = size_;
    const auto* bytes = static_cast<const char*>(data);
    std::size_t done = 0;
    while (done < length) {
      errno = 0;
      const ssize_t n = ::pwrite(fd_, bytes + done, length - done, static_cast<off_t>(at + done));
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n <= 0) {
        fail("write to");
      }
      done += static_cast<std::size_t>(n);
    }
    size_ += length;
    return at;
  }

  /// Reads `length` bytes at `offset`, which were written before.
  void read(std::size_t offset, void* data, std::size_t length) const {
    auto* bytes = static_cast<char*>(data);
    std::size_t done = 0;
    while (done < length) {
      errno = 0;
      const ssize_t n =
          ::pread(fd_, bytes + done, length - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n <= 0) {
        fail("read from");
      }
      done += static_cast<std::size_t>(n);
    }
  }

  /// The directory temporary files go in.
  static std::string directory() {
    const char* dir = std::getenv("TMPDIR");
    return dir != nullptr && *dir != '\0' ? dir : "/tmp";
  }

 private:
  void open_file() {
    if (fd_ >= 0) {
      return;
    }
    std::string name = directory() + "/preemptcheck-XXXXXX";
    fd_ = ::mkstemp(name.data());
    if (fd_ < 0) {
      fail("create");
    }
    ::unlink(name.c_str());
  }

  [[noreturn]] static void fail(const char* what) {
    const int error = errno;
    throw TempFileError(std::string("cannot ") + what + " a temporary file in " + directory() +
                        ": " + (error != 0 ? std::strerror(error) : "nothing written") +
                        "; set TMPDIR to a directory with room");
  }

  void close_file() noexcept {
    if (fd_ >= 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }

  int fd_ = -1;
  std::size_t size_ = 0;
};

}  // namespace preemptcheck::checker
