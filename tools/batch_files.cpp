#include "batch_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iostream>
#include <system_error>

#include "core/errors.hpp"
#include "interrupt.hpp"

namespace rastros::tools {

BatchInput::BatchInput(const std::string& path, bool from_stdin) {
  if (from_stdin) {
    polled_.emplace(STDIN_FILENO, stop_requested());
    return;
  }
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0 && (S_ISFIFO(status.st_mode) || S_ISCHR(status.st_mode))) {
    // A named pipe or a device: opened without waiting for a writer (a blocking open of a pipe
    // waits for one, deaf to Ctrl-C), then read as standard input is.
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0) throw InputError("cannot read input " + path);
    polled_.emplace(fd_, stop_requested());
    return;
  }
  file_.open(path, std::ios::binary);
  if (!file_) throw InputError("cannot read input " + path);
  if (S_ISREG(status.st_mode)) bytes_ = static_cast<double>(status.st_size);
}

BatchInput::~BatchInput() {
  polled_.reset();
  if (fd_ >= 0) ::close(fd_);
}

DirectOutput::DirectOutput(const std::string& path) {
  if (path.empty()) return;
  try {
    file_.emplace(path, "output");
  } catch (const std::system_error& error) {
    throw InputError(error.what());  // "writing output FILE: cannot create ...": exit 2
  }
}

void DirectOutput::write(std::string_view text) {
  if (file_) {
    file_->write(text);
    return;
  }
  std::cout << text;
  std::cout.flush();
  if (!std::cout) throw std::runtime_error("cannot write output (stdout)");
}

void DirectOutput::finish() {
  if (file_) file_->commit();
}

ResultSink::ResultSink(const std::string& output_path)
    : direct_(std::make_unique<DirectOutput>(output_path)) {}

ResultSink::ResultSink(std::unique_ptr<BatchCheckpoint> checkpoint)
    : checkpoint_(std::move(checkpoint)), start_(checkpoint_->cursor()), now_(start_) {}

BatchCursor ResultSink::now() {
  std::lock_guard lock(mutex_);
  return now_;
}

void ResultSink::commit(std::string_view text, const BatchCursor& after) {
  if (checkpoint_) {
    checkpoint_->commit(text, after);
  } else {
    direct_->write(text);
  }
  std::lock_guard lock(mutex_);
  now_ = after;
}

void ResultSink::finish(const std::string& output_path) {
  if (!checkpoint_) {
    direct_->finish();
  } else if (output_path.empty()) {
    checkpoint_->finish(std::cout);
  } else {
    checkpoint_->finish(output_path);
  }
}

}  // namespace rastros::tools
