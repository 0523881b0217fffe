#include "batch_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <iostream>
#include <system_error>

#include "core/errors.hpp"
#include "interrupt.hpp"

namespace rastros::tools {

BatchInput::BatchInput(const std::string& path, bool from_stdin)
    : from_stdin_(from_stdin), standard_input_(STDIN_FILENO, stop_requested()) {
  if (from_stdin) return;
  file_.open(path, std::ios::binary);
  if (!file_) throw InputError("cannot read input " + path);
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0) bytes_ = static_cast<double>(status.st_size);
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
