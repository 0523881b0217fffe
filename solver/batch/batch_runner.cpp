#include "batch/batch_runner.hpp"

#include <oneapi/tbb/parallel_for.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <tuple>

#include "core/thread_sanitizer.hpp"

namespace rastros {

// -- LineReader -------------------------------------------------------------------------------

StopAwareInput::StopAwareInput(int fd, const std::atomic<bool>& stop)
    : std::istream(nullptr), buffer_(fd, stop) {
  rdbuf(&buffer_);
}

StopAwareInput::~StopAwareInput() = default;

StopAwareInput::Buffer::int_type StopAwareInput::Buffer::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  for (;;) {
    if (stop_.load(std::memory_order_relaxed)) return traits_type::eof();
    pollfd ready{fd_, POLLIN, 0};
    const int polled = ::poll(&ready, 1, 100);
    if (polled < 0 && errno != EINTR) return traits_type::eof();
    if (polled <= 0) continue;  // nothing yet: look at the stop flag again
    const ssize_t got = ::read(fd_, data_, sizeof data_);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) return traits_type::eof();
    setg(data_, data_, data_ + got);
    return traits_type::to_int_type(*gptr());
  }
}

bool LineReader::next(std::string& line) {
  line.clear();
  std::streambuf* buffer = input_.rdbuf();
  bool any = false;
  const std::uint64_t start = offset_;
  for (;;) {
    // Checked every 64 KiB: reading goes at hundreds of MB/s, so a stop is seen at once.
    if (stop_ && ((offset_ - start) & 0xffff) == 0xffff && stop_->load(std::memory_order_relaxed)) {
      offset_ = start;
      return false;
    }
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      input_.setstate(std::ios::eofbit);
      // A StopAwareInput ends when a stop is requested: a line cut there is not a line.
      if (stop_ && stop_->load(std::memory_order_relaxed)) {
        offset_ = start;
        return false;
      }
      if (!any) return false;
      break;
    }
    any = true;
    ++offset_;
    if (c == '\n') break;
    // Keep one byte past the limit so the parser can tell the line is too long.
    if (line.size() <= kMaxBatchLineBytes) line.push_back(static_cast<char>(c));
  }
  ++line_number_;
  return true;
}

// -- BatchSolvers -----------------------------------------------------------------------------

struct BatchSolvers::Entry {
  SolverVariant variant;
  std::unique_ptr<Solver> solver;
};

SolverVariant variant_of(const Rastros& rastros) {
  const Board& board = rastros.board();
  return {board.width(), board.height(), board.steps(), rastros.stuck_rule()};
}

BatchSolvers::BatchSolvers(const BatchOptions& options) {
  solver_options_.value_only = options.value_only;
  table_bytes_ = std::min(default_table_bytes(options.value_only), options.memory_bytes);
  // Tables are powers of two in the solver; the budget check is on the requested size.
  table_bytes_ = std::max(table_bytes_, kMinimumTableBytes);
  capacity_ = std::max<std::size_t>(1, options.memory_bytes / table_bytes_);
  solver_options_.table_bytes = table_bytes_;
}

BatchSolvers::~BatchSolvers() = default;

Solver& BatchSolvers::solver_for(const Rastros& rastros, const std::vector<const Solver*>& keep) {
  const auto variant = variant_of(rastros);
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if ((*it)->variant == variant) {
      entries_.splice(entries_.begin(), entries_, it);
      return *entries_.front()->solver;
    }
  }
  // Make room: drop the least recently used solvers that the current chunk does not use.
  for (auto it = entries_.end(); entries_.size() >= capacity_ && it != entries_.begin();) {
    --it;
    if (std::find(keep.begin(), keep.end(), (*it)->solver.get()) == keep.end()) {
      retired_nodes_ += (*it)->solver->nodes();
      it = entries_.erase(it);
    }
  }
  auto entry = std::make_unique<Entry>();
  entry->variant = variant;
  entry->solver = std::make_unique<Solver>(rastros, solver_options_, cancellation_);
  entries_.push_front(std::move(entry));
  return *entries_.front()->solver;
}

std::uint64_t BatchSolvers::nodes() const {
  std::uint64_t nodes = retired_nodes_;
  for (const auto& entry : entries_) nodes += entry->solver->nodes();
  return nodes;
}

// -- Solving --------------------------------------------------------------------------------

std::vector<BatchResult> solve_batch_lines(
    const std::vector<std::pair<std::uint64_t, BatchLine>>& lines, BatchSolvers& solvers) {
  std::vector<Solver*> solver_of(lines.size(), nullptr);
  std::vector<const Solver*> in_use;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const BatchLine& line = lines[i].second;
    if (line.kind != BatchLine::Kind::job) continue;
    solver_of[i] = &solvers.solver_for(line.job->rastros, in_use);
    in_use.push_back(solver_of[i]);
  }
  std::vector<BatchResult> results(lines.size());
  oneapi::tbb::parallel_for(
      std::size_t{0}, lines.size(), thread_sanitizer::handed_off([&](std::size_t i) {
        const auto& [number, line] = lines[i];
        BatchResult& result = results[i];
        result.line = number;
        if (line.kind != BatchLine::Kind::job) {
          result.error = line.error;
        } else {
          const auto started = std::chrono::steady_clock::now();
          result.job = line.job;
          result.analysis = solver_of[i]->analyse(line.job->position);
          result.seconds =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        }
        thread_sanitizer::publish(&results);
      }));
  thread_sanitizer::acquire(&results);
  return results;
}

BatchCursor run_batch(LineReader& reader, BatchCursor cursor, const BatchOptions& options,
                      BatchSolvers& solvers, const BatchCallbacks& callbacks,
                      const std::atomic<bool>& stop) {
  std::vector<std::pair<std::uint64_t, BatchLine>> lines;
  std::string text;
  bool more = true;
  reader.stop_on(stop);
  solvers.cancel_on(stop);
  while (more && !stop.load(std::memory_order_relaxed)) {
    lines.clear();
    // Distinct variants in a chunk must all fit the solver budget at once.
    std::vector<SolverVariant> variants;
    while (lines.size() < options.chunk_lines) {
      if (!reader.next(text)) {
        more = false;
        break;
      }
      BatchLine line = parse_batch_line(text, options.defaults);
      if (line.kind == BatchLine::Kind::skip) continue;
      if (line.kind == BatchLine::Kind::job) {
        const auto variant = variant_of(line.job->rastros);
        if (std::find(variants.begin(), variants.end(), variant) == variants.end()) {
          variants.push_back(variant);
        }
      }
      lines.emplace_back(reader.line_number(), std::move(line));
      if (variants.size() >= solvers.capacity()) break;
    }
    std::vector<BatchResult> results;
    try {
      results = solve_batch_lines(lines, solvers);
    } catch (const SearchCancelled&) {
      // Stopped: this chunk is solved again on resume. The cursor is committed again all the
      // same, so that a checkpoint exists even when the stop came in the first chunk.
      callbacks.commit({}, cursor);
      break;
    }
    std::vector<std::string> formatted(results.size());
    oneapi::tbb::parallel_for(std::size_t{0}, results.size(),
                              thread_sanitizer::handed_off([&](std::size_t i) {
                                formatted[i] = callbacks.format(results[i]);
                                thread_sanitizer::publish(&formatted);
                              }));
    thread_sanitizer::acquire(&formatted);
    std::string output;
    for (std::size_t i = 0; i < results.size(); ++i) {
      output += formatted[i];
      output += '\n';
      if (!results[i].job) ++cursor.bad_lines;
    }
    cursor.results += results.size();
    cursor.input_offset = reader.offset();
    cursor.lines_read = reader.line_number();
    callbacks.commit(output, cursor);
  }
  return cursor;
}

}  // namespace rastros
