// `rastros solve --game kalah`: the exact final score with perfect play, the value, the best
// moves and every move's score; or, with --db, an endgame database written to a file.

#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>
#include <thread>

#include "core/checkpoint_file.hpp"
#include "core/errors.hpp"
#include "games/kalah/kalah_checkpoint.hpp"
#include "interrupt.hpp"
#include "games/kalah/kalah_analysis.hpp"
#include "kalah/kalah_commands.hpp"
#include "kalah/kalah_endgame_options.hpp"
#include "kalah/kalah_options.hpp"
#include "kalah/kalah_output.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace rastros::tools::kalah_cli {

using namespace rastros::kalah;

namespace {

// --checkpoint DIR [--resume]: where a long exact solve keeps what it has settled.
struct CheckpointRequest {
  std::optional<std::string> directory;
  bool resume = false;
};

// The progress to start from: a fresh one, or the checkpoint's with --resume.
KalahSolveProgress starting_progress(const CheckpointRequest& request, const KalahInput& input,
                                     bool root_only, bool value_only) {
  if (!request.directory) {
    if (request.resume) throw InputError("--resume needs --checkpoint DIR");
    return {};
  }
  if (value_only) throw InputError("--checkpoint applies to exact solves, not --value-only");
  prepare_checkpoint_directory(*request.directory);
  auto saved = load_solve_checkpoint(*request.directory, input.game, input.position, root_only);
  if (saved && !request.resume) {
    throw InputError(*request.directory + " holds a checkpoint of this solve: add --resume to go "
                     "on from it, or remove it to start again");
  }
  if (!saved && request.resume) {
    throw InputError("no checkpoint to resume in " + *request.directory);
  }
  return saved.value_or(KalahSolveProgress{});
}

// The endgame database: with a checkpoint directory, the one saved there by an earlier run, or
// built and saved there for a later one.
std::shared_ptr<const KalahEndgame> checkpointed_endgame(const CheckpointRequest& request,
                                                         const KalahInput& input,
                                                         const EndgameOptions& options, bool quiet) {
  if (!request.directory || options.file) return endgame_for_search(input.game, options, quiet);
  const auto saved = endgame_checkpoint_path(*request.directory);
  if (request.resume && std::filesystem::exists(saved)) {
    return std::make_shared<KalahEndgame>(KalahEndgame::load(saved, &input.game));
  }
  auto built = endgame_for_search(input.game, options, quiet);
  if (built) built->save(saved);
  return built;
}

// Stops the solver at the first Ctrl-C or SIGTERM (the checkpoint holds what was settled).
class StopWatcher {
 public:
  explicit StopWatcher(KalahSolver& solver)
      : thread_([this, &solver] {
          const auto& requested = stop_requested();
          while (!done_.load()) {
            if (requested.load()) {
              solver.stop();
              return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
          }
        }) {}
  ~StopWatcher() {
    done_.store(true);
    thread_.join();
  }

 private:
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace

int run_solve(const Arguments& arguments) {
  KalahOptions options;
  EndgameOptions endgame_options;
  CheckpointRequest checkpoint;
  std::string memory = "64M";
  bool value_only = false, root_only = false, quiet = false, json = false;
  int threads = 0;
  std::optional<std::string> db;
  po::options_description description("Options");
  add_kalah_options(description, options);
  description.add_options()(
      "memory", po::value(&memory)->default_value(memory),
      "transposition table size, e.g. 64M or 1G (larger is not always faster: see "
      "docs/performance.md)")("value-only", po::bool_switch(&value_only),
                              "win/draw/loss only, by null-window searches (no scores; faster)")(
      "root-only", po::bool_switch(&root_only),
      "the position's value and score alone, not each move's");
  add_threads_option(description, threads);
  add_endgame_options(description, endgame_options);
  add_optional_option(description, "db", db,
                      "write an endgame database of every state with at most --endgame-seeds "
                      "seeds in play (default: all of the game's seeds) to this file instead");
  add_optional_option(description, "checkpoint", checkpoint.directory,
                      "keep what the solve settles in this directory (each move's score, or "
                      "the bounds on the position's with --root-only; the endgame database "
                      "built); Ctrl-C or SIGTERM stops it there");
  description.add_options()("resume", po::bool_switch(&checkpoint.resume),
                            "go on from the checkpoint in --checkpoint DIR")(
      "quiet", po::bool_switch(&quiet), "no progress lines on stderr")(
      "json", po::bool_switch(&json), "print one JSON object");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros solve --game kalah [options]\n"
                          "Solves a Kalah position: the exact final score with perfect play (the "
                          "mover's store minus the opponent's), its value, the best moves and "
                          "every move's score.")) {
    return 0;
  }
  const ThreadLimit limit(threads);
  if (db) {
    if (checkpoint.directory) throw InputError("--checkpoint does not apply to solve --db");
    return write_endgame_database(options, endgame_options, *db, quiet, json);
  }

  const KalahInput input = resolve_input(options);
  const std::size_t table_bytes = parse_memory_size(memory);
  KalahSolveProgress progress = starting_progress(checkpoint, input, root_only, value_only);
  const auto endgame = checkpointed_endgame(checkpoint, input, endgame_options, quiet);
  KalahSolver solver(input.game, {table_bytes, value_only, root_only}, endgame.get());
  const auto started = std::chrono::steady_clock::now();
  KalahResult result;
  try {
    const std::optional<StopWatcher> watcher =
        checkpoint.directory ? std::optional<StopWatcher>(std::in_place, solver) : std::nullopt;
    ProgressReporter reporter(!quiet, [&](double seconds) {
      return "solve: " + human_count(static_cast<double>(solver.nodes())) + " nodes, " +
             std::to_string(static_cast<int>(seconds)) + " s";
    });
    const auto save = [&](const KalahSolveProgress& now) {
      save_solve_checkpoint(*checkpoint.directory, input.game, input.position, root_only, now);
    };
    result = checkpoint.directory ? solver.solve(input.position, &progress, save)
                                  : solver.solve(input.position);
  } catch (const engine::SearchStopped&) {
    std::cerr << "rastros solve: stopped; " << *checkpoint.directory
              << " holds what was settled: add --resume to go on\n";
    return stopped_exit_status();
  }
  if (checkpoint.directory) {
    remove_checkpoint(solve_checkpoint_path(*checkpoint.directory));
    remove_checkpoint(endgame_checkpoint_path(*checkpoint.directory));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const KalahReport report{input, result, root_only, solver.nodes(), seconds,
                           endgame ? endgame->max_seeds() : -1, std::nullopt};
  if (json) {
    std::cout << result_json(report).dump() << "\n";
  } else {
    print_text(report);
  }
  return 0;
}

}  // namespace rastros::tools::kalah_cli
