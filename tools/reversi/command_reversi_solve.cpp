// `rastros solve --game reversi`: the exact final disc margin with perfect play, the value, the
// best moves and every move's score. A progress line on stderr every second of a long solve;
// Ctrl-C or SIGTERM stops it (exit 130 or 143).

#include <chrono>
#include <iostream>

#include "core/errors.hpp"
#include "engine/score_solver.hpp"
#include "games/reversi/reversi_analysis.hpp"
#include "games/reversi/reversi_split_job.hpp"
#include "interrupt.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "reversi/reversi_commands.hpp"
#include "reversi/reversi_options.hpp"
#include "reversi/reversi_result_json.hpp"

namespace rastros::tools::reversi_cli {

using namespace rastros::reversi;

namespace {

std::string signed_score(int score) {
  std::string text = score > 0 ? "+" : "";
  text += std::to_string(score);
  return text;
}

std::string value_text(Value value, int to_move, std::optional<int> score) {
  if (value == Value::draw) return "draw";
  const int winner = value == Value::win ? to_move : 1 - to_move;
  std::string text = std::string(to_string(value)) + " for " + side_name(to_move);
  if (score)
    text += " (" + side_name(winner) + " wins by " + std::to_string(std::abs(*score)) + ")";
  return text;
}

using Report = ReversiReport;

// The options of a split job (--checkpoint): the position solved in pieces, resumable.
struct SplitOptions {
  std::optional<std::string> directory;
  bool resume = false;
  int split_depth = 6;
  std::optional<std::uint64_t> stop_after_pieces;
};

// A job stopped by --stop-after-pieces, its checkpoint saved (docs/commands.md, exit status).
constexpr int kSlicedExitStatus = 5;

void add_split_options(po::options_description& description, SplitOptions& split) {
  add_optional_option(description, "checkpoint", split.directory,
                      "with --root-only: solve as a resumable split job, every piece solved "
                      "appended to DIR/pieces.log; Ctrl-C, SIGTERM or a kill loses at most the "
                      "piece being searched");
  description.add_options()("resume", po::bool_switch(&split.resume),
                            "go on with the split job in --checkpoint DIR")(
      "split-depth", po::value(&split.split_depth)->default_value(split.split_depth),
      "plies from the root to the pieces of a split job (0 to 20)");
  description.add_options()(
      "stop-after-pieces", po::value<std::uint64_t>()->notifier([&split](std::uint64_t k) {
        split.stop_after_pieces = k;
      }),
      "stop a split job after searching this many pieces (exit 5; go on with --resume)");
}

void check_split_options(const SplitOptions& split, const ScoreSolveOptions& solve) {
  if (!split.directory) {
    if (split.resume || split.stop_after_pieces) {
      throw InputError("--resume and --stop-after-pieces need --checkpoint DIR");
    }
    return;
  }
  if (!solve.root_only) throw InputError("--checkpoint solves the position alone: add --root-only");
  if (split.split_depth < 0 || split.split_depth > 20) {
    throw InputError("--split-depth must be 0 to 20, not " + std::to_string(split.split_depth));
  }
}

std::string split_progress(const ReversiSplitJob& job, double seconds) {
  const SplitJobCounters& c = job.counters();
  return "split: " + std::to_string(c.pieces_searched.load()) + " pieces searched, " +
         std::to_string(c.pieces_reused.load()) + " answered by the checkpoint (" +
         std::to_string(job.records()) + " records), " +
         human_count(static_cast<double>(job.nodes())) + " nodes, " +
         std::to_string(static_cast<int>(seconds)) + " s";
}

void print_report(const Report& report, bool json) {
  if (json) {
    std::cout << result_json(report).dump() << "\n";
  } else {
    print_result_text(report);
  }
}

int run_split_job(const ReversiInput& input, const ScoreSolveOptions& solve,
                  const SplitOptions& split) {
  ReversiSolver solver(input.game, {parse_memory_size(solve.memory)});
  ReversiSplitJob job(input.game, solver,
                      {*split.directory, split.split_depth, split.resume, split.stop_after_pieces});
  const ReversiState root = search_state(input.position);
  const auto started = std::chrono::steady_clock::now();
  ReversiResult result;
  try {
    const StopWatcher watcher([&solver] { solver.stop(); });
    ProgressReporter reporter(!solve.quiet,
                              [&](double seconds) { return split_progress(job, seconds); });
    if (solve.value_only) {
      result.value = job.value(root);
    } else {
      result.score = job.score(root);
      result.value = value_of_margin(*result.score);
    }
  } catch (const engine::SearchStopped&) {
    std::cerr << "rastros solve: stopped after " << job.counters().pieces_searched.load()
              << " pieces; progress saved in " << *split.directory
              << " (run again with --resume to continue)\n";
    return stop_signal() ? stopped_exit_status() : kSlicedExitStatus;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (solve.json) {
    print_report({input, result, true, job.nodes(), seconds}, true);
    return 0;
  }
  // The rate of this run alone; the job's total (the log's earlier runs too) on its own line.
  print_report({input, result, true, solver.nodes(), seconds}, false);
  std::cout << "Job:        " << job.nodes() << " nodes in all runs; "
            << job.counters().pieces_searched.load() << " pieces searched now, "
            << job.counters().pieces_reused.load() << " answered by " << *split.directory << "\n";
  return 0;
}

}  // namespace

void print_result_text(const Report& report) {
  const ReversiInput& input = report.input;
  const ReversiResult& result = report.result;
  std::cout << "Reversi " << input.game.size() << "x" << input.game.size() << "\n\n"
            << board_diagram(input) << "\n"
            << "Position:   " << position_string(input.game, input.position) << "\n";
  if (!input.moves.empty()) std::cout << "Moves:      " << moves_text(input.moves) << "\n";
  std::cout << "To move:    " << side_name(input.position.to_move) << "\n"
            << "Value:      " << value_text(result.value, input.position.to_move, result.score)
            << "\n";
  if (result.score) {
    std::cout << "Score:      " << signed_score(*result.score)
              << " (the mover's discs minus the opponent's at the end, empty squares to the "
                 "winner, perfect play)\n";
  }
  if (!report.root_only && !result.children.empty()) {
    std::cout << "Best moves:";
    for (const ReversiMove move : result.best_moves) std::cout << ' ' << move_name(move);
    std::cout << "\nMoves:     ";
    for (const auto& child : result.children) {
      std::cout << ' ' << move_name(child.move) << ' '
                << (child.score ? signed_score(*child.score) : std::string(to_string(child.value)))
                << ';';
    }
    std::cout << "\n";
  }
  if (!report.timing) return;
  std::cout << "Searched:   " << report.nodes << " nodes in " << report.seconds << " s ("
            << human_count(report.seconds > 0 ? static_cast<double>(report.nodes) / report.seconds
                                              : 0)
            << " nodes/s)\n";
}

int run_solve(const Arguments& arguments) {
  ReversiOptions options;
  ScoreSolveOptions solve{"256M"};
  std::string db;
  SplitOptions split;
  po::options_description description("Options");
  add_reversi_options(description, options);
  add_score_solve_options(description, solve);
  add_split_options(description, split);
  description.add_options()("db", po::value(&db),
                            "build the strong database of the board (4x4 only) and write it here");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros solve --game reversi [options]\n"
                          "Solves a Reversi position exactly: the final disc margin with perfect "
                          "play (empty squares to the winner), its value, the best moves and "
                          "every move's score. With --db FILE (4x4): the strong database of every "
                          "position reachable from the start, for query, verify and stats.")) {
    return 0;
  }
  check_split_options(split, solve);
  if (!db.empty()) {
    if (split.directory) throw InputError("--checkpoint does not apply to solve --db");
    return write_database(options, db, solve.quiet, solve.json);
  }
  const ThreadLimit limit(solve.threads);
  const ReversiInput input = resolve_input(options);
  if (split.directory) return run_split_job(input, solve, split);
  ReversiSolver solver(input.game, {parse_memory_size(solve.memory)});
  const auto started = std::chrono::steady_clock::now();
  ReversiResult result;
  try {
    const StopWatcher watcher([&solver] { solver.stop(); });
    ProgressReporter reporter(!solve.quiet, [&](double seconds) {
      return "solve: " + human_count(static_cast<double>(solver.nodes())) + " nodes, " +
             std::to_string(static_cast<int>(seconds)) + " s";
    });
    result =
        solve_position(solver, input.game, input.position, {solve.value_only, solve.root_only});
  } catch (const engine::SearchStopped&) {
    std::cerr << "rastros solve: stopped\n";
    return stopped_exit_status();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  print_report({input, result, solve.root_only, solver.nodes(), seconds}, solve.json);
  return 0;
}

}  // namespace rastros::tools::reversi_cli
