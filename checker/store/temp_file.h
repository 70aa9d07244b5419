// TempFile: an unlinked temporary file in $TMPDIR (or /tmp) that the search keeps what it rarely
// reads in — each state's parent link (checker/store/trace_store.h) and the frontier's states past
// the memory it may keep (checker/store/frontier_store.h) — as TLC keeps its trace and its queue on
// disk. The file has no name once created, so it is gone when the process ends, by any path. The
// operating system's page cache holds it while memory is free; the process's own memory does not —
// unless the directory is a tmpfs (a common /tmp), where the file is memory that no disk backs:
// bytes_in_memory() counts such files' bytes, and the memory bound (checker/explore_types.h,
// Limits::max_memory_bytes) counts them with the explorer's own.
//
// Any failure to create, write or read it throws TempFileError, which the search reports as a stop
// with nothing proven (exit 3), never as a pass.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

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
  TempFile(TempFile&& other) noexcept
      : fd_(other.fd_), size_(other.size_), in_memory_(other.in_memory_) {
    other.fd_ = -1;
    other.size_ = 0;
    other.in_memory_ = false;
  }
  TempFile& operator=(TempFile&& other) noexcept {
    if (this != &other) {
      close_file();
      fd_ = other.fd_;
      size_ = other.size_;
      in_memory_ = other.in_memory_;
      other.fd_ = -1;
      other.size_ = 0;
      other.in_memory_ = false;
    }
    return *this;
  }
  ~TempFile() { close_file(); }

  /// Bytes written so far.
  std::size_t size() const { return size_; }

  /// Whether the file lives in memory: its directory is a tmpfs or ramfs.
  bool is_in_memory() const { return in_memory_; }

  /// The bytes of this process's open temporary files that live in memory, over all threads.
  static std::uint64_t bytes_in_memory() {
    return memory_counter().load(std::memory_order_relaxed);
  }

  /// Appends `length` bytes; returns the offset they start at.
  std::size_t append(const void* data, std::size_t length) {
    const std::size_t at = extend(length);
    write_at(at, data, length);
    return at;
  }

  /// Makes the file `length` bytes longer, to be filled by write_at(); returns the offset the
  /// new bytes start at.
  std::size_t extend(std::size_t length) {
    open_file();
    const std::size_t at = size_;
    size_ += length;
    if (in_memory_) {
      memory_counter().fetch_add(length, std::memory_order_relaxed);
    }
    return at;
  }

  /// Writes `length` bytes at `offset`, within the file's size; safe on many threads at once
  /// for ranges that do not overlap.
  void write_at(std::size_t offset, const void* data, std::size_t length) const {
    const auto* bytes = static_cast<const char*>(data);
    std::size_t done = 0;
    while (done < length) {
      errno = 0;
      const ssize_t n =
          ::pwrite(fd_, bytes + done, length - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n <= 0) {
        fail("write to");
      }
      done += static_cast<std::size_t>(n);
    }
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
    struct statfs info {};
    in_memory_ = ::fstatfs(fd_, &info) == 0 && (static_cast<std::uint64_t>(info.f_type) == kTmpfs ||
                                                static_cast<std::uint64_t>(info.f_type) == kRamfs);
  }

  // statfs(2)'s f_type of the file systems that keep files in memory (linux/magic.h).
  static constexpr std::uint64_t kTmpfs = 0x01021994;
  static constexpr std::uint64_t kRamfs = 0x858458f6;

  static std::atomic<std::uint64_t>& memory_counter() {
    static std::atomic<std::uint64_t> bytes{0};
    return bytes;
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
    if (in_memory_) {
      memory_counter().fetch_sub(size_, std::memory_order_relaxed);
      in_memory_ = false;
    }
  }

  int fd_ = -1;
  std::size_t size_ = 0;
  bool in_memory_ = false;
};

}  // namespace preemptcheck::checker
