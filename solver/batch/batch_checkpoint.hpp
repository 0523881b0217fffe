#pragma once
// Resumable batch output. With a checkpoint directory, every chunk of results is appended to
// DIR/output.jsonl and made durable (fsync) *before* DIR/batch.checkpoint records the cursor
// after it, so after a crash at any moment the checkpoint never points past durable output;
// output written after the last checkpoint is cut off on resume and solved again. When the job
// completes, the output moves to its final place and the checkpoint is removed. The checkpoint
// also records the CRC-32 of the output up to its cursor: an edit of the saved output (even one
// that keeps its length) is refused on resume instead of going into the final output.

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>

#include "batch/batch_runner.hpp"

namespace rastros {

/// Throws InputError unless `input` is a regular file: a checkpointed batch reads its input
/// again from the saved offset on resume, which a pipe or a device cannot give (and opening a
/// FIFO would wait for a writer).
void check_resumable_input(const std::filesystem::path& input);

class BatchCheckpoint {
 public:
  /// Opens (creating) `directory`. `identity` names the input and the options that shape the
  /// output; a checkpoint written for another identity is refused. Without `resume`, an
  /// existing checkpoint is refused too (it would be overwritten). Throws InputError for those,
  /// FileError for a damaged checkpoint, std::system_error for I/O failures.
  BatchCheckpoint(std::filesystem::path directory, std::string identity, bool resume);
  ~BatchCheckpoint();
  BatchCheckpoint(const BatchCheckpoint&) = delete;
  BatchCheckpoint& operator=(const BatchCheckpoint&) = delete;

  /// Where to start: the saved cursor on resume, else the beginning.
  const BatchCursor& cursor() const { return cursor_; }
  bool resumed() const { return resumed_; }

  /// Appends `text` durably, then records `cursor` as the point to resume from.
  void commit(std::string_view text, const BatchCursor& cursor);

  /// The job is complete: the whole output goes to `output` (atomically, by rename when the
  /// file systems allow) and the checkpoint files are removed.
  void finish(const std::filesystem::path& output);
  /// The same, the output copied to `out` (standard output).
  void finish(std::ostream& out);

 private:
  void remove_files();

  std::filesystem::path directory_;
  std::filesystem::path state_path_;
  std::filesystem::path output_path_;
  std::string identity_;
  BatchCursor cursor_;
  bool resumed_ = false;
  int output_fd_ = -1;
  std::uint32_t output_crc_ = 0;  // of the output so far, recorded with every cursor
};

}  // namespace rastros
