#pragma once
// Where the lines of `rastros batch` come from (a file or stdin) and where its results go
// (through the checkpoint, to --output atomically, or to stdout).

#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "batch/batch_checkpoint.hpp"
#include "batch/batch_runner.hpp"
#include "core/atomic_file.hpp"

namespace rastros::tools {

/// The input: a file, or standard input ('-'), with its size when known (for the progress line).
/// Standard input, a named pipe or a device is read so that a signal stops a run waiting for
/// a line (an idle pipe) or reading an endless one.
class BatchInput {
 public:
  /// Throws InputError when the file cannot be opened.
  BatchInput(const std::string& path, bool from_stdin);
  ~BatchInput();
  BatchInput(const BatchInput&) = delete;
  BatchInput& operator=(const BatchInput&) = delete;
  std::istream& stream() { return polled_ ? static_cast<std::istream&>(*polled_) : file_; }
  double bytes() const { return bytes_; }  // 0: unknown

 private:
  int fd_ = -1;  // a named pipe's or device's, closed here
  std::optional<StopAwareInput> polled_;
  std::ifstream file_;
  double bytes_ = 0;
};

/// Results written as they come, to standard output or through an AtomicFileWriter (a
/// temporary file renamed over --output at the end: the final name only ever holds a complete
/// output, made durable before the rename).
class DirectOutput {
 public:
  /// `path` empty: stdout. Throws InputError when the file cannot be created.
  explicit DirectOutput(const std::string& path);
  void write(std::string_view text);
  void finish();

 private:
  std::optional<AtomicFileWriter> file_;
};

/// Where the results go, and the cursor after the last chunk committed (which the progress
/// line reads from another thread).
class ResultSink {
 public:
  /// Nowhere: the ranks other than the root under mpirun.
  ResultSink() = default;
  /// Straight out: to `output_path`, or stdout when it is empty.
  explicit ResultSink(const std::string& output_path);
  /// Through the checkpoint, resumable; starts where it stands.
  explicit ResultSink(std::unique_ptr<BatchCheckpoint> checkpoint);

  bool resumable() const { return checkpoint_ != nullptr; }
  bool resumed() const { return checkpoint_ && checkpoint_->resumed(); }
  const BatchCursor& start() const { return start_; }
  BatchCursor now();
  void commit(std::string_view text, const BatchCursor& after);
  /// The whole output in place: to `output_path`, or stdout when it is empty.
  void finish(const std::string& output_path);

 private:
  std::unique_ptr<BatchCheckpoint> checkpoint_;
  std::unique_ptr<DirectOutput> direct_;
  BatchCursor start_;
  std::mutex mutex_;
  BatchCursor now_;
};

}  // namespace rastros::tools
