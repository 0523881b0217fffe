#pragma once
// Crash-safe file replacement: every file the tools write (databases, checkpoints, batch
// output) goes through here, so a reader never sees half a file under its final name.

#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace rastros {

/// The file a write to `path` replaces: `path` itself or, when `path` is a symbolic link, the
/// file it leads to (the link is kept, and the new file appears where it points). Throws
/// InputError naming `what` when that exists and is not a regular file: a rename would replace
/// a directory's entry, a device, a pipe or a socket instead of writing to it.
std::filesystem::path replaceable_file(const std::filesystem::path& path, std::string_view what);

/// Removes the temporary files "NAME.tmp.PID.N" next to `path` (NAME its file name) whose
/// writer, process PID on this machine, is no longer running: what a killed run left behind.
/// Every AtomicFileWriter does this for its file before it creates its own temporary file.
/// Errors are ignored (a file that cannot be removed stays).
void remove_stale_temporaries(const std::filesystem::path& path);

/// A file written piece by piece (batch output, a copy) that appears under its final name only
/// once complete: the pieces go to a new temporary file next to replaceable_file(path)
/// (created exclusively: never a file or link someone else put there), and commit() fsyncs it,
/// renames it over that file and fsyncs the directory. Destroyed before commit(), the temporary
/// file is removed and the final name keeps its previous contents. Throws std::system_error
/// naming `what` ("output") and the path when a step fails (InputError from replaceable_file
/// at construction); a failed write() or commit() removes the temporary file before it throws,
/// and the writer is given up (a later write or commit throws too).
class AtomicFileWriter {
 public:
  AtomicFileWriter(const std::filesystem::path& path, std::string_view what);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(std::span<const unsigned char> bytes);
  void write(std::string_view text) {
    write({reinterpret_cast<const unsigned char*>(text.data()), text.size()});
  }
  void commit();

 private:
  [[noreturn]] void fail(const std::string& step, int error) const;
  /// Closes and removes the temporary file, then fails: the writer is given up.
  [[noreturn]] void discard_and_fail(const std::string& step, int error);
  std::filesystem::path path_;
  std::string what_;
  std::filesystem::path temporary_;
  int fd_ = -1;
  bool committed_ = false;
};

/// Writes `bytes` to a new temporary file in the directory of replaceable_file(path), fsyncs
/// it, renames it over that file and fsyncs the directory: after a crash at any moment `path`
/// holds either its previous contents (or nothing) or the complete new file. Throws
/// std::system_error naming `what` ("database", "checkpoint") and `path` after removing the
/// temporary file when a step fails (InputError from replaceable_file before any).
void write_file_atomically(const std::filesystem::path& path, std::span<const unsigned char> bytes,
                           std::string_view what);

}  // namespace rastros
