// `rastros batch --game kalah`: solves every line of a file (games or position strings of any
// Kalah variant), one JSON object a line in input order. What Kalah adds to the batch every
// score game shares (score_batch_command.hpp): its line parser, and its solvers and endgame
// databases, one a variant met.

#include <algorithm>
#include <chrono>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

#include "games/kalah/kalah_analysis.hpp"
#include "games/kalah/kalah_batch_line.hpp"
#include "kalah/kalah_commands.hpp"
#include "kalah/kalah_endgame_options.hpp"
#include "kalah/kalah_options.hpp"
#include "kalah/kalah_output.hpp"
#include "mpi_world.hpp"
#include "interrupt.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "score_batch_command.hpp"

namespace rastros::tools::kalah_cli {

using namespace rastros::kalah;

namespace {

// A variant's table, or less when --memory is smaller: the size of one solve's.
constexpr std::size_t kVariantTableBytes = std::size_t{64} << 20;

// One solver (and endgame database) a variant met, kept for the lines after it. --memory bounds
// the tables together: when they are all in use the least recently used solver is dropped (its
// endgame database, small and slow to rebuild, is kept).
class Solvers {
 public:
  Solvers(KalahSolveOptions options, std::size_t memory, EndgameOptions endgame, bool quiet)
      : options_(options), endgame_(std::move(endgame)), quiet_(quiet) {
    options_.table_bytes = std::min(memory, kVariantTableBytes);
    capacity_ = std::max<std::size_t>(1, memory / options_.table_bytes);
  }

  struct Entry {
    std::shared_ptr<const KalahEndgame> endgame;
    std::unique_ptr<KalahSolver> solver;
  };

  Entry& for_game(const Kalah& game) {
    const Key key = std::make_tuple(game.houses(), game.seeds(), game.rule());
    auto found = entries_.find(key);
    if (found == entries_.end() || !found->second.solver) {
      Entry& entry = entries_[key];
      if (!entry.endgame) entry.endgame = endgame_for_search(game, endgame_, quiet_);
      make_room();
      entry.solver = std::make_unique<KalahSolver>(game, options_, entry.endgame.get());
      found = entries_.find(key);
    }
    recent_.remove(key);
    recent_.push_front(key);
    return found->second;
  }

 private:
  using Key = std::tuple<int, int, CaptureRule>;

  // Drops the least recently used solvers until one more fits.
  void make_room() {
    while (recent_.size() >= capacity_) {
      entries_[recent_.back()].solver.reset();
      recent_.pop_back();
    }
  }

  KalahSolveOptions options_;
  EndgameOptions endgame_;
  bool quiet_;
  std::size_t capacity_ = 1;
  std::map<Key, Entry> entries_;
  std::list<Key> recent_;  // the variants with a solver, most recently used first
};

// A line's answer: the keys of `solve --game kalah --json` (without the run's nodes and
// seconds unless --timing) after "line".
struct LineSolver {
  Solvers& solvers;
  bool root_only;
  bool timing;

  std::string operator()(const KalahBatchJob& job, std::uint64_t number) const {
    auto& entry = solvers.for_game(job.game);
    const std::uint64_t nodes_before = entry.solver->nodes();
    const auto started = std::chrono::steady_clock::now();
    const KalahResult result = entry.solver->solve(job.position);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    Json json = result_json({job, result, root_only, entry.solver->nodes() - nodes_before, seconds,
                             entry.endgame ? entry.endgame->max_seeds() : -1, std::nullopt, timing});
    json.prepend("line", number);
    return json.dump();
  }
};

}  // namespace

int run_batch(const Arguments& arguments) {
  KalahOptions options;
  EndgameOptions endgame_options;
  ScoreBatchFiles files;
  std::string memory = "256M";
  bool value_only = false, root_only = false, timing = false;
  int threads = 0;
  po::options_description description("Options");
  add_score_batch_files(description, files);
  add_kalah_options(description, options, false);
  description.add_options()(
      "memory", po::value(&memory)->default_value(memory),
      "the most memory the transposition tables may use together: 64M a variant met, or "
      "less when the bound is small")(
      "value-only", po::bool_switch(&value_only), "win/draw/loss only, no scores")(
      "root-only", po::bool_switch(&root_only), "each position's value and score alone")(
      "timing", po::bool_switch(&timing), "add \"nodes\" and \"seconds\" to each line")(
      "quiet", po::bool_switch(&files.quiet), "no progress lines on stderr");
  add_score_batch_run(description, files);
  add_threads_option(description, threads);
  add_endgame_options(description, endgame_options);
  if (!parse_command_line(arguments, description,
                          "Usage: rastros batch --game kalah --input FILE [--output FILE] [options]\n"
                          "Solves each line of FILE: a game (3 6 1) or a position string "
                          "(4,4,0,5,5,0,2/5,5,5,5,4,4,0 2), optionally preceded by --houses, "
                          "--seeds, --rules for that line alone. Blank lines and # comments are "
                          "skipped. Prints one JSON object a line, in input order, with the keys of "
                          "`rastros solve --game kalah --json` plus \"line\"; a bad line gives "
                          "{\"line\": N, \"error\": \"...\"} and the exit status is 2 at the end.")) {
    return 0;
  }
  const ThreadLimit limit(threads);
  const KalahVariantText defaults{options.houses, options.seeds, options.rules};
  resolve_game(options);  // the defaults themselves must be a variant
  Solvers solvers({0, value_only, root_only}, parse_memory_size(memory), endgame_options,
                  files.quiet || mpi_rank() != 0);
  const auto answer = score_batch_answer<KalahBatchJob>(
      [&](std::string_view text) { return parse_kalah_batch_line(text, defaults); },
      LineSolver{solvers, root_only, timing});
  // What shapes the output lines, for the checkpoint: the endgame database too (each line
  // names its K).
  const std::string identity = "game=kalah;houses=" + std::to_string(options.houses) +
                               ";seeds=" + std::to_string(options.seeds) + ";rules=" +
                               options.rules + ";value_only=" + std::to_string(value_only) +
                               ";root_only=" + std::to_string(root_only) +
                               ";timing=" + std::to_string(timing) + ";endgame=" +
                               endgame_options.file.value_or("") + ":" +
                               std::to_string(endgame_options.seeds.value_or(-1));
  return run_score_batch(files, identity, answer, stop_requested());
}

}  // namespace rastros::tools::kalah_cli
