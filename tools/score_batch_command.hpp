#pragma once
// `rastros batch --game NAME` for the score games (Kalah, Congkak, Oware, Reversi): what every
// one shares. The input is read line by line (blank lines and # comments skipped, lines over
// 4096 bytes refused), each line answered by the game, one JSON object a line out in input
// order, an error object for a bad line and exit status 2 at the end; chunks of lines dealt to
// the ranks of an MPI job; with --checkpoint DIR every chunk's output saved (resumable,
// batch/batch_checkpoint.hpp) and Ctrl-C/SIGTERM stopping after the chunk being solved (or at
// once, for a game whose solver a StopWatcher stops: LastSolver).
//
// A game supplies a ScoreBatchAnswer (most simply through score_batch_answer: its line parser
// and its solve) and the text of its options that shape the output (the checkpoint's identity).

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "batch/score_batch_line.hpp"
#include "core/errors.hpp"
#include "engine/score_solver.hpp"
#include "json.hpp"
#include "options.hpp"

namespace rastros::tools {

/// The options of a batch's files and run, whatever the game.
struct ScoreBatchFiles {
  std::string input;
  std::optional<std::string> output;
  std::string checkpoint;
  std::size_t chunk_lines = 1;
  bool resume = false;
  bool progress = false;
  bool quiet = false;
};

/// Adds --input and --output.
void add_score_batch_files(po::options_description& description, ScoreBatchFiles& files);
/// Adds --checkpoint, --resume, --chunk and --progress (a game adds --quiet, in its words).
void add_score_batch_run(po::options_description& description, ScoreBatchFiles& files);

/// A game's answer to the line numbered `number`: nothing for a line skipped, else its output
/// line (without newline), with `bad` set when it is an error object. Called in input order,
/// from one thread.
using ScoreBatchAnswer =
    std::function<std::optional<std::string>(std::string_view text, std::uint64_t number, bool& bad)>;

/// {"line": N, "error": "..."}.
std::string score_batch_error(std::uint64_t number, const std::string& error);

/// The answer of a game whose `parse(text)` gives a ScoreBatchLine<Job> and whose
/// `solve(job, number)` the output line; a solve refusing its line (InputError: an Oware
/// position beyond its databases) gives that line an error object, the run goes on.
template <class Job, class Parse, class Solve>
ScoreBatchAnswer score_batch_answer(Parse parse, Solve solve) {
  return [parse, solve](std::string_view text, std::uint64_t number,
                        bool& bad) -> std::optional<std::string> {
    using Kind = typename ScoreBatchLine<Job>::Kind;
    const ScoreBatchLine<Job> line = parse(text);
    if (line.kind == Kind::skip) return std::nullopt;
    std::string error = line.error;
    if (line.kind == Kind::job) {
      try {
        return solve(*line.job, number);
      } catch (const InputError& refused) {
        error = refused.what();
      }
    }
    bad = true;
    return score_batch_error(number, error);
  };
}

/// The solver of the variant met last, kept for the lines after it (one table at a time), which
/// stop() (Ctrl-C, from another thread) stops mid-line: the line's solve throws
/// engine::SearchStopped, and so does every later one.
template <class Key, class Solver>
class LastSolver {
 public:
  /// The solver for `key`, made by `make()` when the last one was for another.
  template <class Make>
  Solver& get(const Key& key, Make make) {
    std::lock_guard lock(mutex_);
    if (stopped_) throw engine::SearchStopped{};
    if (!solver_ || key != key_) {
      solver_.reset();  // its table freed before the next one is made
      solver_ = make();
      key_ = key;
    }
    return *solver_;
  }
  void stop() {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    if (solver_) solver_->stop();
  }

 private:
  std::mutex mutex_;
  bool stopped_ = false;
  Key key_{};
  std::unique_ptr<Solver> solver_;
};

/// Runs the batch: every line of files.input answered, the output to files.output (atomically)
/// or stdout. `identity` is the text of the options that shape the output (a checkpoint made
/// under others is refused). Stops after the chunk being solved once `stop` is set, or at once
/// when a solve throws engine::SearchStopped then (that chunk is left out). Returns
/// the exit status: 0, 2 when a line was bad, 128 + the signal when stopped (on the ranks
/// other than the root of an MPI job, 0).
int run_score_batch(const ScoreBatchFiles& files, const std::string& identity,
                    const ScoreBatchAnswer& answer, const std::atomic<bool>& stop);

}  // namespace rastros::tools
