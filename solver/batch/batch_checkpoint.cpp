#include "batch/batch_checkpoint.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/checkpoint_file.hpp"
#include "core/crc32.hpp"
#include "core/errors.hpp"

namespace rastros {
namespace {

constexpr std::string_view kKind = "batch";

[[noreturn]] void throw_io(const std::string& what, const std::filesystem::path& path) {
  throw std::system_error(errno, std::generic_category(), what + " " + path.string());
}

// Hands the saved output at `path` to `sink` piece by piece (streamed: it may be large). A
// read loop rather than `out << in.rdbuf()`, which fails on an empty output.
template <class Sink>
void stream_saved_output(const std::filesystem::path& path, Sink&& sink) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_io("cannot read the saved output", path);
  std::vector<char> buffer(std::size_t{1} << 16);
  while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
    sink(std::string_view(buffer.data(), static_cast<std::size_t>(in.gcount())));
  }
  if (in.bad()) {
    errno = EIO;  // a stream keeps no error number of its own
    throw_io("cannot read the saved output", path);
  }
}

// The CRC-32 of the first `bytes` bytes of the file open at `fd`.
std::uint32_t crc_of_prefix(int fd, std::uint64_t bytes, const std::filesystem::path& path) {
  std::vector<unsigned char> buffer(std::size_t{1} << 16);
  std::uint32_t crc = 0;
  for (std::uint64_t done = 0; done < bytes;) {
    const std::size_t want =
        static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), bytes - done));
    const ssize_t n = ::pread(fd, buffer.data(), want, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_io("cannot read", path);
    if (n == 0) break;  // shorter than that: the size check reports it
    crc = crc32_update(crc, std::span(buffer.data(), static_cast<std::size_t>(n)));
    done += static_cast<std::uint64_t>(n);
  }
  return crc;
}

}  // namespace

void check_resumable_input(const std::filesystem::path& input) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(input, error);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    throw InputError("--checkpoint needs --input to be a regular file: " + input.string() +
                     " cannot be read again from an offset on resume");
  }
}

BatchCheckpoint::BatchCheckpoint(std::filesystem::path directory, std::string identity, bool resume)
    : directory_(std::move(directory)),
      state_path_(directory_ / "batch.checkpoint"),
      output_path_(directory_ / "output.jsonl"),
      identity_(std::move(identity)) {
  prepare_checkpoint_directory(directory_);
  std::uint64_t output_bytes = 0;
  std::optional<std::uint64_t> output_crc;
  if (const std::optional<Checkpoint> saved = read_checkpoint(state_path_, kKind)) {
    if (!resume) {
      throw InputError("checkpoint directory " + directory_.string() +
                       " holds an unfinished batch; add --resume to continue it, or remove it");
    }
    if (saved->text("identity") != identity_) {
      throw InputError("the checkpoint in " + directory_.string() + " belongs to another batch (" +
                       saved->text("identity") + "); remove it or drop --resume");
    }
    cursor_.input_offset = saved->number("input_offset");
    cursor_.lines_read = saved->number("lines_read");
    cursor_.results = saved->number("results");
    cursor_.bad_lines = saved->number("bad_lines");
    output_bytes = saved->number("output_bytes");
    // Checkpoints written before the output was checksummed have no such field.
    if (saved->fields.count("output_crc")) output_crc = saved->number("output_crc");
    resumed_ = true;
  }
  // The output file is this directory's own: a link, pipe or device found under its name (put
  // there by someone else) is refused rather than followed or opened (a pipe would block).
  struct stat existing {};
  if (::lstat(output_path_.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
    throw FileError("checkpoint directory " + directory_.string() + ": " +
                    output_path_.filename().string() +
                    " is not a regular file (a link, pipe or device?); remove it");
  }
  output_fd_ = ::open(output_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (output_fd_ < 0) throw_io("cannot open", output_path_);
  // Output written after the last checkpoint is not covered by it: cut it off.
  struct stat status {};
  if (::fstat(output_fd_, &status) != 0) throw_io("cannot stat", output_path_);
  if (static_cast<std::uint64_t>(status.st_size) < output_bytes) {
    throw FileError("checkpoint " + state_path_.string() + ": " + output_path_.string() +
                    " is shorter than the checkpoint records (" + std::to_string(status.st_size) +
                    " < " + std::to_string(output_bytes) + " bytes)");
  }
  // The output up to the recorded size goes into the final output as it is: an edit of it (of
  // the same length, which the size check cannot see) is refused rather than passed on.
  output_crc_ = crc_of_prefix(output_fd_, output_bytes, output_path_);
  if (output_crc && *output_crc != output_crc_) {
    throw FileError("checkpoint " + state_path_.string() + ": " + output_path_.string() +
                    " was changed since the checkpoint (checksum mismatch); remove the "
                    "checkpoint directory to start over");
  }
  if (::ftruncate(output_fd_, static_cast<off_t>(output_bytes)) != 0 ||
      ::lseek(output_fd_, 0, SEEK_END) < 0) {
    throw_io("cannot truncate", output_path_);
  }
}

BatchCheckpoint::~BatchCheckpoint() {
  if (output_fd_ >= 0) ::close(output_fd_);
}

void BatchCheckpoint::commit(std::string_view text, const BatchCursor& cursor) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(output_fd_, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw_io("cannot write", output_path_);
    written += static_cast<std::size_t>(n);
  }
  output_crc_ = crc32_update(
      output_crc_, std::span(reinterpret_cast<const unsigned char*>(text.data()), text.size()));
  // The output must be durable before the checkpoint claims it.
  if (::fdatasync(output_fd_) != 0) throw_io("cannot sync", output_path_);
  const off_t end = ::lseek(output_fd_, 0, SEEK_CUR);
  if (end < 0) throw_io("cannot tell the size of", output_path_);
  Checkpoint checkpoint;
  checkpoint.kind = kKind;
  checkpoint.fields = {{"identity", identity_},
                       {"input_offset", std::to_string(cursor.input_offset)},
                       {"lines_read", std::to_string(cursor.lines_read)},
                       {"results", std::to_string(cursor.results)},
                       {"bad_lines", std::to_string(cursor.bad_lines)},
                       {"output_bytes", std::to_string(end)},
                       {"output_crc", std::to_string(output_crc_)}};
  write_checkpoint(state_path_, checkpoint);
  cursor_ = cursor;
}

void BatchCheckpoint::remove_files() {
  ::close(output_fd_);
  output_fd_ = -1;
  std::filesystem::remove(output_path_);
  std::error_code ignored;
  std::filesystem::remove(directory_, ignored);  // only if empty
}

void BatchCheckpoint::finish(const std::filesystem::path& output) {
  // The state goes first: a kill after it leaves an output without a checkpoint, which a rerun
  // simply starts over, never a checkpoint whose output has moved away.
  remove_checkpoint(state_path_);
  if (::rename(output_path_.c_str(), output.c_str()) != 0) {
    if (errno != EXDEV) throw_io("cannot move the output to", output);
    // Another file system: a copy into a new file that appears under the final name only once
    // complete and durable.
    AtomicFileWriter copy(output, "output");
    stream_saved_output(output_path_, [&](std::string_view piece) { copy.write(piece); });
    copy.commit();
  }
  remove_files();
}

void BatchCheckpoint::finish(std::ostream& out) {
  stream_saved_output(output_path_, [&](std::string_view piece) {
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
  });
  out.flush();
  if (!out) throw std::system_error(EIO, std::generic_category(), "cannot write the output");
  remove_checkpoint(state_path_);
  remove_files();
}

}  // namespace rastros
