// `rastros batch --game reversi`: every line of a file (games or position strings on any
// board) solved as `solve --game reversi` solves it, one JSON object a line. A line is solved
// however many empty squares it has: the file's author chose its positions (an 8x8 line with
// 20 empties or more can take minutes or more; Ctrl-C stops it, the line left for --resume).

#include <chrono>
#include <memory>
#include <optional>

#include "games/reversi/reversi_analysis.hpp"
#include "games/reversi/reversi_batch_line.hpp"
#include "interrupt.hpp"
#include "mpi_world.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "reversi/reversi_options.hpp"
#include "reversi/reversi_result_json.hpp"
#include "score_batch_games.hpp"

namespace rastros::tools::reversi_cli {

using namespace rastros::reversi;

namespace {

struct Settings {
  std::string board;
  std::size_t table_bytes = 0;
  bool value_only = false;
  bool root_only = false;
  bool timing = false;
};

// The solver of the board met last (its table is --memory).
struct LineSolver {
  Settings settings;
  LastSolver<int, ReversiSolver> last;

  std::string solve(const ReversiInput& input, std::uint64_t number) {
    ReversiSolver& solver = last.get(input.game.size(), [&] {
      return std::make_unique<ReversiSolver>(input.game, ReversiSolverOptions{settings.table_bytes});
    });
    const std::uint64_t nodes_before = solver.nodes();
    const auto started = std::chrono::steady_clock::now();
    const ReversiResult result = solve_position(solver, input.game, input.position,
                                                {settings.value_only, settings.root_only});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    Json json = result_json({input, result, settings.root_only, solver.nodes() - nodes_before,
                             seconds, settings.timing});
    json.prepend("line", number);
    return json.dump();
  }
};

}  // namespace

int run_batch(const Arguments& arguments) {
  ReversiOptions options;
  ScoreBatchFiles files;
  ScoreSolveOptions solve{"256M"};
  bool timing = false;
  po::options_description description("Options");
  add_score_batch_files(description, files);
  description.add_options()("board", po::value(&options.board)->default_value(options.board),
                            "board size: 4x4, 6x6 or 8x8");
  add_score_solve_options(description, solve);
  description.add_options()("timing", po::bool_switch(&timing),
                            "add \"nodes\" and \"seconds\" to each line");
  add_score_batch_run(description, files);
  if (!parse_command_line(arguments, description,
                          "Usage: rastros batch --game reversi --input FILE [--output FILE] [options]\n"
                          "Solves each line of FILE: a game (f5 d6 c3) or a position string (the "
                          "board's squares X, O, - row by row, a space, the side to move), "
                          "optionally preceded by --board for that line alone. Blank lines and # "
                          "comments are skipped. Prints one JSON object a line, in input order, "
                          "with the keys of `rastros solve --game reversi --json` plus \"line\"; a "
                          "bad line gives {\"line\": N, \"error\": \"...\"} and the exit status is 2 "
                          "at the end.")) {
    return 0;
  }
  files.quiet = solve.quiet;
  const ThreadLimit limit(solve.threads);
  parse_board_size(options.board);  // the default itself must be a board
  auto solver = std::make_shared<LineSolver>();
  solver->settings = {options.board, parse_memory_size(solve.memory), solve.value_only,
                      solve.root_only, timing};
  const auto answer = score_batch_answer<ReversiInput>(
      [board = options.board](std::string_view text) { return parse_reversi_batch_line(text, board); },
      [solver](const ReversiInput& input, std::uint64_t number) { return solver->solve(input, number); });
  const std::string identity = "game=reversi;board=" + options.board +
                               ";value_only=" + std::to_string(solve.value_only) +
                               ";root_only=" + std::to_string(solve.root_only) +
                               ";timing=" + std::to_string(timing);
  // Ctrl-C stops a long line at once (in one process: under mpirun the dealing ends instead).
  std::optional<StopWatcher> watcher;
  if (mpi_size() == 1) watcher.emplace([solver] { solver->last.stop(); });
  return run_score_batch(files, identity, answer, stop_requested());
}

}  // namespace rastros::tools::reversi_cli
