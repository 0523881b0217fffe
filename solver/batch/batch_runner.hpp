#pragma once
// The engine of `rastros batch`: streams lines from an input, solves them chunk by chunk
// (the lines of a chunk in parallel with TBB), and hands the formatted results back in input
// order, with a cursor after each chunk from which a later run can resume.
//
// Memory stays bounded whatever the input size: one chunk of lines at a time, lines longer
// than kMaxBatchLineBytes are reported without being stored, and the transposition tables (one
// per variant met, reused across lines) stay within BatchOptions::memory_bytes.

#include <atomic>
#include <cstdint>
#include <functional>
#include <istream>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "batch/batch_line.hpp"
#include "search/solver.hpp"

namespace rastros {

struct BatchOptions {
  VariantText defaults;
  bool value_only = false;
  /// Bound on all transposition tables together.
  std::size_t memory_bytes = std::size_t{256} << 20;
  /// Lines read and solved together; also the granularity of checkpoints and of stopping.
  std::size_t chunk_lines = 256;
};

/// Where a batch stands: what has been read and committed. Saved in checkpoints.
struct BatchCursor {
  std::uint64_t input_offset = 0;  // bytes of input consumed
  std::uint64_t lines_read = 0;    // input lines consumed, blank and comment lines included
  std::uint64_t results = 0;       // output lines written
  std::uint64_t bad_lines = 0;     // of which errors

  friend bool operator==(const BatchCursor&, const BatchCursor&) = default;
};

/// One input line that was not blank or a comment: a solved job, or an error.
struct BatchResult {
  std::uint64_t line = 0;  // 1-based line number in the input
  std::optional<BatchJob> job;
  Analysis analysis;  // when job is set
  double seconds = 0;
  std::string error;  // when job is not set
};

/// An input stream over a file descriptor (standard input: a pipe, a terminal) whose reads
/// wait for data at most a tenth of a second at a time, so that a stop request ends a read
/// that no data comes to; the stream then ends as if the input had.
class StopAwareInput : public std::istream {
 public:
  StopAwareInput(int fd, const std::atomic<bool>& stop);
  ~StopAwareInput() override;

 private:
  class Buffer : public std::streambuf {
   public:
    Buffer(int fd, const std::atomic<bool>& stop) : fd_(fd), stop_(stop) {}

   protected:
    int_type underflow() override;

   private:
    int fd_;
    const std::atomic<bool>& stop_;
    char data_[1 << 16];
  };
  Buffer buffer_;
};

/// Reads lines from a stream, counting bytes and lines, without ever holding more than
/// kMaxBatchLineBytes + 1 bytes of one line.
class LineReader {
 public:
  /// `input` must already be positioned at `cursor.input_offset`.
  LineReader(std::istream& input, const BatchCursor& cursor)
      : input_(input), offset_(cursor.input_offset), line_number_(cursor.lines_read) {}

  /// Makes next() give up when `stop` is set while it reads a line, so that an endless line
  /// (`--input /dev/zero`) does not hold off a stop request.
  void stop_on(const std::atomic<bool>& stop) { stop_ = &stop; }

  /// The next line without its newline (cut at kMaxBatchLineBytes + 1 bytes when longer, so
  /// that the parser reports it as too long); false at the end of the input, and when a stop
  /// was requested (stop_on) while the line was read: that line is then not counted, and
  /// offset() stays at its start.
  bool next(std::string& line);
  std::uint64_t offset() const { return offset_; }
  std::uint64_t line_number() const { return line_number_; }

 private:
  std::istream& input_;
  const std::atomic<bool>* stop_ = nullptr;
  std::uint64_t offset_;
  std::uint64_t line_number_;
};

/// What a solver (and its table) is built for: board size, steps and rules; lines that agree on
/// these share one solver whatever their start square.
using SolverVariant = std::tuple<int, int, StepSet, StuckRule>;
SolverVariant variant_of(const Rastros& rastros);

/// Keeps one solver (and its table) per variant, within a memory budget.
class BatchSolvers {
 public:
  explicit BatchSolvers(const BatchOptions& options);
  ~BatchSolvers();
  /// The table size of each solver: the solve command's default, or less under a small budget.
  std::size_t table_bytes() const { return table_bytes_; }
  /// How many solvers fit in the budget at once (at least one).
  std::size_t capacity() const { return capacity_; }
  /// The solver for `rastros`'s board, steps and rules; creates it, dropping the least recently
  /// used solvers not in `keep` when the budget is full. Not thread-safe: call between chunks.
  Solver& solver_for(const Rastros& rastros, const std::vector<const Solver*>& keep);
  /// Solvers made from now on give up their search (SearchCancelled) once `stop` is set.
  void cancel_on(const std::atomic<bool>& stop) { cancellation_.stop = &stop; }
  std::uint64_t nodes() const;

 private:
  struct Entry;
  SolverOptions solver_options_;
  SearchCancellation cancellation_;
  std::size_t table_bytes_;
  std::size_t capacity_;
  std::list<std::unique_ptr<Entry>> entries_;  // most recently used first
  std::uint64_t retired_nodes_ = 0;
};

/// Solves the jobs of `lines` (results in the same order) in parallel.
std::vector<BatchResult> solve_batch_lines(
    const std::vector<std::pair<std::uint64_t, BatchLine>>& lines, BatchSolvers& solvers);

struct BatchCallbacks {
  /// The output line (without newline) for a result. Called from worker threads.
  std::function<std::string(const BatchResult&)> format;
  /// Receives the output of one chunk (whole lines, each ending in '\n') and the cursor after
  /// it, in input order. Writing and checkpointing happen here.
  std::function<void(std::string_view text, const BatchCursor& cursor)> commit;
};

/// Runs the batch from `cursor` until the input ends or `stop` is set. A stop is seen within a
/// moment wherever it lands (reading a line, solving a chunk); the chunk it interrupts is not
/// committed, so every committed chunk is whole. Returns the cursor after the last committed
/// chunk.
BatchCursor run_batch(LineReader& reader, BatchCursor cursor, const BatchOptions& options,
                      BatchSolvers& solvers, const BatchCallbacks& callbacks,
                      const std::atomic<bool>& stop);

}  // namespace rastros
