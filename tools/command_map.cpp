// `rastros map`: the value for player 1 moving first from every start square of a board.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>

#include "board_text.hpp"
#include "commands.hpp"
#include "core/checkpoint_file.hpp"
#include "core/errors.hpp"
#include "interrupt.hpp"
#include "mpi_world.hpp"
#ifdef RASTROS_HAVE_MPI
#include "cluster/distributed_jobs.hpp"
#include "cluster/node_shared_memory.hpp"
#endif
#include "map_output.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "report/map_svg.hpp"
#include "search/start_map.hpp"

namespace rastros::tools {

Json map_json(const Rastros& rastros, const std::vector<StartSquareOutcome>& results,
              bool value_only) {
  const Board& board = rastros.board();
  Json squares = Json::object();
  for (const StartSquareOutcome& result : results) {
    Json entry = Json::object();
    if (result.over_budget) {
      // Not solved within --square-seconds: no value is known.
      entry.set("value", "unknown");
      if (!value_only) entry.set("remoteness", Json(nullptr));
      squares.set(square_name(board, result.start), entry);
      continue;
    }
    entry.set("value", to_string(result.outcome.value));
    if (!value_only) {
      entry.set("remoteness",
                result.outcome.remoteness ? Json(*result.outcome.remoteness) : Json(nullptr));
    }
    squares.set(square_name(board, result.start), entry);
  }
  Json out = Json::object();
  out.set("board", board.name())
      .set("rules", rules_name(rastros.stuck_rule()))
      .set("steps", steps_name(board.steps()))
      .set("squares", squares);
  return out;
}

std::string map_text(const Rastros& rastros, const std::vector<StartSquareOutcome>& results,
                     bool value_only) {
  const Board& board = rastros.board();
  std::vector<std::string> cells(board.square_count());
  for (const StartSquareOutcome& result : results) {
    const Outcome& outcome = result.outcome;
    if (result.over_budget) {
      cells[result.start] = "?";
      continue;
    }
    std::string cell(1, outcome.value == Value::win    ? 'W'
                        : outcome.value == Value::loss ? 'L'
                                                       : 'D');
    if (outcome.remoteness) cell += std::to_string(*outcome.remoteness);
    cells[result.start] = cell;
  }
  cells[board.goal_of(Player::one)] = "[1]";
  cells[board.goal_of(Player::two)] = "[2]";
  std::ostringstream out;
  out << "Start-square map, " << board.name() << ", " << steps_name(board.steps()) << " steps, "
      << rules_name(rastros.stuck_rule()) << " rules\n"
      << "Value for player 1 moving first from each square"
      << (value_only ? "" : " (W win, L loss, D draw; number: remoteness in plies)") << "\n";
  if (std::any_of(results.begin(), results.end(),
                  [](const StartSquareOutcome& result) { return result.over_budget; })) {
    out << "?: not solved within the time budget of --square-seconds\n";
  }
  out << "\n"
      << board_grid(board, value_only ? 3 : 4, [&](Square square) { return cells[square]; })
      << "\n";
  return out.str();
}

int run_map(const Arguments& arguments) {
  VariantOptions variant;
  int threads = 0;
  std::string memory;
  bool value_only = false;
  bool quiet = false;
  bool json = false;
  bool svg = false;
  std::string checkpoint_directory;
  bool resume = false;
  double square_seconds = 0;
  std::string algorithm = "alpha-beta";
  po::options_description description("Options");
  add_variant_options(description, variant, true, false);
  add_threads_option(description, threads);
  add_search_options(description, memory, value_only);
  description.add_options()(
      "algorithm", po::value(&algorithm)->default_value(algorithm),
      "alpha-beta (one table shared by the squares) or proof-number (df-pn, needs "
      "--value-only: each square has its own table of --memory, --threads squares at once; "
      "half the nodes on 8x8)")("quiet", po::bool_switch(&quiet), "no progress lines on stderr")(
      "json", po::bool_switch(&json), "print one JSON object")(
      "svg", po::bool_switch(&svg), "print the map as an SVG picture instead of the grid")(
      "checkpoint", po::value(&checkpoint_directory),
      "save each solved square in DIR/map.checkpoint; Ctrl-C/SIGTERM stop after the squares "
      "in progress")("resume", po::bool_switch(&resume),
                     "continue the map saved in --checkpoint DIR")(
      "square-seconds", po::value(&square_seconds),
      "give each square at most this many seconds, each with its own table of --memory "
      "(squares solved at once: --threads); a square over budget is shown as ? (JSON value "
      "\"unknown\"); with --checkpoint the solved squares are kept for a --resume that "
      "retries the rest; Ctrl-C abandons the squares in progress (not under mpirun)");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros map [options]\n"
                          "Solves the game from every start square of a board (player 1 moving "
                          "first) and prints the values as a grid.")) {
    return 0;
  }
  if (json && svg) throw InputError("give either --json or --svg, not both");
  // Any non-goal square serves as the variant's start: the map replaces it.
  const Board board = parse_board(variant.board, parse_steps(variant.steps));
  const Rastros rastros(board, board.is_goal(board.default_start()) ? 1 : board.default_start(),
                        parse_rules(variant.rules));
  SolverOptions options;
  options.value_only = value_only;
  options.table_bytes =
      memory.empty() ? default_table_bytes(value_only) : parse_memory_size(memory);
  if (resume && checkpoint_directory.empty()) throw InputError("--resume needs --checkpoint DIR");
  const bool proof_number = is_proof_number_algorithm(algorithm, value_only);
  if (proof_number && mpi_size() > 1) {
    throw InputError("--algorithm proof-number is not available under mpirun yet");
  }
  if (!(square_seconds >= 0) || square_seconds > 1e9) {
    throw InputError("--square-seconds must be a number of seconds from 0 (no budget) to 1e9");
  }
  if (square_seconds > 0 && mpi_size() > 1) {
    throw InputError("--square-seconds is not available under mpirun yet");
  }
  const ThreadLimit limit(threads);
  if (proof_number || square_seconds > 0) {
    // Each square in progress has a table of its own: --threads of them at once.
    const double physical = physical_memory_bytes();
    const double tables = static_cast<double>(options.table_bytes) * limit.threads();
    if (limit.threads() > 1 && physical > 0 && tables > physical) {
      std::ostringstream message;
      message.precision(3);
      message << "--memory " << escape_control(memory) << " a square with " << limit.threads()
              << " squares at once needs " << tables / (1024.0 * 1024 * 1024)
              << " GiB, more than this machine's " << physical / (1024.0 * 1024 * 1024)
              << " GiB; lower --memory or --threads";
      throw InputError(message.str());
    }
  }
  const std::filesystem::path checkpoint_path =
      checkpoint_directory.empty() ? std::filesystem::path()
                                   : std::filesystem::path(checkpoint_directory) / "map.checkpoint";
  MapProgress progress;
  StartMapControl control;
  SquareSolverNodes budget_nodes;
  if (square_seconds > 0) control.square_budget = std::chrono::duration<double>(square_seconds);
  if (square_seconds > 0 || proof_number) control.budget_nodes = &budget_nodes;
  if (proof_number) control.algorithm = MapAlgorithm::proof_number;
  std::mutex progress_mutex;
  const bool root = mpi_rank() == 0;
  if (!root) quiet = true;
  if (!checkpoint_path.empty() && root) {
    prepare_checkpoint_directory(checkpoint_directory);
    const bool unfinished = std::filesystem::exists(checkpoint_path);
    progress = read_map_checkpoint(checkpoint_path, rastros, value_only);
    if (unfinished && !resume) {
      throw InputError("checkpoint directory " + checkpoint_directory +
                       " holds an unfinished map; add --resume to continue it, or remove it");
    }
    if (!progress.solved.empty() && !quiet) {
      std::cerr << "rastros map: resuming with " << progress.solved.size() << " squares solved\n";
    }
    control.known = progress.solved;
    control.stop = &stop_requested();
    // Written before the first square, so a stop that comes before any square is solved still
    // leaves a checkpoint that marks the map unfinished and names its game.
    if (!unfinished) write_map_checkpoint(checkpoint_path, rastros, value_only, progress);
  } else if (!checkpoint_path.empty()) {
    // Under mpirun every rank gets the Ctrl-C: the others must let the root stop the job
    // cleanly (it stops dealing squares) rather than die and take the job down.
    stop_requested();
  }
#ifdef RASTROS_HAVE_MPI
  // The ranks on one machine search with one table, as the threads of one process do: with a
  // table each, two ranks searched the 7x7 value-only map in 98.1 M nodes against 86.4 M.
  std::optional<cluster::NodeSharedMemory> shared_table;
  if (mpi_size() > 1) {
    shared_table.emplace(mpi_world(), options.table_bytes);
    options.shared_table = shared_table->data();
  }
#endif
  Solver solver(rastros, options);

  const auto started = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  if (!checkpoint_path.empty() && root) {
    // Saved after every square, so an interruption loses at most the squares in progress.
    control.on_solved = [&, base = progress](const StartSquareOutcome& result) {
      std::lock_guard lock(progress_mutex);
      progress.solved.push_back(result);
      progress.nodes = base.nodes + solver.nodes() + budget_nodes.total();
      progress.seconds = base.seconds + elapsed();
      write_map_checkpoint(checkpoint_path, rastros, value_only, progress);
    };
  }
  // Squares solved so far (resumed ones included) and given up by this run: the progress line.
  std::atomic<int> squares_solved{static_cast<int>(control.known.size())};
  std::atomic<int> squares_over_budget{0};
  control.on_over_budget = [&](const StartSquareOutcome&) { ++squares_over_budget; };
  if (control.on_solved) {
    control.on_solved = [&, save = control.on_solved](const StartSquareOutcome& result) {
      save(result);
      ++squares_solved;
    };
  } else {
    control.on_solved = [&](const StartSquareOutcome&) { ++squares_solved; };
  }
  const MapProgress before = progress;
  std::vector<StartSquareOutcome> results;
  {
    ProgressReporter progress(!quiet, [&](double seconds) {
      const double nodes = static_cast<double>(solver.nodes() + budget_nodes.total());
      const int over = squares_over_budget.load();
      return "mapping: " + std::to_string(squares_solved.load()) + " squares solved" +
             (over ? ", " + std::to_string(over) + " over budget" : std::string()) + ", " +
             human_count(nodes) + " nodes, " + human_count(nodes / seconds) + " nodes/s, " +
             std::to_string(static_cast<int>(seconds)) + " s";
    });
#ifdef RASTROS_HAVE_MPI
    if (mpi_size() > 1) {
      results = cluster::solve_start_map_distributed(mpi_world(), rastros, solver, control);
    } else {
      results = solve_start_map(rastros, solver, control);
    }
#else
    results = solve_start_map(rastros, solver, control);
#endif
  }
  const std::uint64_t all_nodes = mpi_sum_on_root(solver.nodes() + budget_nodes.total());
#ifdef RASTROS_HAVE_MPI
  if (shared_table) shared_table->release();  // every rank's searches are over
#endif
  if (!root) return 0;
  if (results.size() < start_squares(board).size()) {
    std::cerr << "rastros map: stopped with " << results.size() << " of "
              << start_squares(board).size() << " squares solved; progress saved in "
              << checkpoint_directory << " (run again with --resume to continue)\n";
    return stopped_exit_status();
  }
  // Work of earlier, interrupted runs counts too.
  const double seconds = before.seconds + elapsed();
  const std::uint64_t nodes = before.nodes + all_nodes;

  if (svg) {
    std::cout << report::map_svg(rastros, results, value_only);
  } else if (json) {
    Json out = map_json(rastros, results, value_only);
    out.set("nodes", nodes).set("seconds", seconds);
    std::cout << out.dump() << "\n";
  } else {
    std::cout << map_text(rastros, results, value_only) << "Searched " << nodes << " nodes in "
              << seconds << " s\n";
  }
  // The checkpoint goes only once the map is safely out, and stays while squares over budget
  // are left for a resumed run.
  std::cout.flush();
  if (!std::cout) throw std::runtime_error("cannot write the map to standard output");
  const auto over_budget =
      std::count_if(results.begin(), results.end(),
                    [](const StartSquareOutcome& result) { return result.over_budget; });
  if (over_budget > 0 && !checkpoint_path.empty()) {
    if (!quiet) {
      std::cerr << "rastros map: " << over_budget
                << " squares over --square-seconds; the solved ones stay in "
                << checkpoint_directory
                << " (run again with --resume, and a larger --square-seconds, to solve the rest)\n";
    }
  } else if (!checkpoint_path.empty()) {
    remove_checkpoint(checkpoint_path);
    std::error_code ignored;
    std::filesystem::remove(checkpoint_directory, ignored);  // only if empty
  }
  return 0;
}

}  // namespace rastros::tools
