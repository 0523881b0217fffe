// `rastros map`: the value for player 1 moving first from every start square of a board. This
// file reads the options, runs the map (search/start_map.hpp; under mpirun
// cluster/distributed_jobs.hpp) with its checkpoint (search/map_checkpoint.hpp) and prints it
// (map_output.hpp).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>

#include "commands.hpp"
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
#include "search/map_checkpoint.hpp"
#include "search/memory_share.hpp"

namespace rastros::tools {
namespace {

struct MapArguments {
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
};

void add_map_options(po::options_description& description, MapArguments& map) {
  add_variant_options(description, map.variant, true, false);
  add_threads_option(description, map.threads);
  add_search_options(description, map.memory, map.value_only);
  description.add_options()(
      "algorithm", po::value(&map.algorithm)->default_value(map.algorithm),
      "alpha-beta (one table shared by the squares) or proof-number (df-pn, needs "
      "--value-only: each square has its own table, --threads squares at once sharing "
      "--memory; half the nodes on 8x8)")("quiet", po::bool_switch(&map.quiet),
                                          "no progress lines on stderr")(
      "json", po::bool_switch(&map.json), "print one JSON object")(
      "svg", po::bool_switch(&map.svg), "print the map as an SVG picture instead of the grid")(
      "checkpoint", po::value(&map.checkpoint_directory),
      "save each solved square in DIR/map.checkpoint; Ctrl-C/SIGTERM stop after the squares "
      "in progress")("resume", po::bool_switch(&map.resume),
                     "continue the map saved in --checkpoint DIR")(
      "square-seconds", po::value(&map.square_seconds),
      "give each square at most this many seconds, each with its own table (squares solved at "
      "once: --threads, sharing --memory); a square over budget is shown as ? (JSON value "
      "\"unknown\"); with --checkpoint the solved squares are kept for a --resume that "
      "retries the rest; Ctrl-C abandons the squares in progress (not under mpirun)");
}

// Refuses options that do not go together. Returns whether the squares are solved by df-pn.
bool check_map_arguments(const MapArguments& map) {
  if (map.resume && map.checkpoint_directory.empty()) {
    throw InputError("--resume needs --checkpoint DIR");
  }
  if (map.json && map.svg) throw InputError("give either --json or --svg, not both");
  const bool proof_number = is_proof_number_algorithm(map.algorithm, map.value_only);
  if (proof_number && mpi_size() > 1) {
    throw InputError("--algorithm proof-number is not available under mpirun yet");
  }
  if (!(map.square_seconds >= 0) || map.square_seconds > 1e9) {
    throw InputError("--square-seconds must be a number of seconds from 0 (no budget) to 1e9");
  }
  if (map.square_seconds > 0 && mpi_size() > 1) {
    throw InputError("--square-seconds is not available under mpirun yet");
  }
  return proof_number;
}

// The squares' tables within --memory: one table shared by all squares (under mpirun, by the
// ranks of a machine), or, when each square has its own (df-pn, a time budget), an equal share
// for each of the --threads squares solved at once. Without --memory a square's own table has
// the default size of one search.
std::size_t map_table_bytes(const MapArguments& map, std::optional<std::size_t> memory,
                            bool own_tables, int squares_at_once) {
  if (!memory) return default_table_bytes(map.value_only);
  if (!own_tables) return *memory;
  return table_share(*memory, squares_at_once, "squares at once", "--threads");
}

// The squares solved so far (resumed ones included) and given up by this run, for the
// progress line.
struct MapCounters {
  std::atomic<int> solved{0};
  std::atomic<int> over_budget{0};
};

std::string progress_line(const MapCounters& counters, double nodes, double seconds) {
  const int over = counters.over_budget.load();
  return "mapping: " + std::to_string(counters.solved.load()) + " squares solved" +
         (over ? ", " + std::to_string(over) + " over budget" : std::string()) + ", " +
         human_count(nodes) + " nodes, " + human_count(nodes / seconds) + " nodes/s, " +
         std::to_string(static_cast<int>(seconds)) + " s";
}

std::vector<StartSquareOutcome> solve_map(const Rastros& rastros, Solver& solver,
                                          const StartMapControl& control) {
#ifdef RASTROS_HAVE_MPI
  if (mpi_size() > 1) {
    return cluster::solve_start_map_distributed(mpi_world(), rastros, solver, control);
  }
#endif
  return solve_start_map(rastros, solver, control);
}

void print_map(const MapArguments& map, const Rastros& rastros,
               const std::vector<StartSquareOutcome>& results, std::uint64_t nodes,
               double seconds) {
  if (map.svg) {
    std::cout << report::map_svg(rastros, results, map.value_only);
  } else if (map.json) {
    Json out = map_json(rastros, results, map.value_only);
    out.set("nodes", nodes).set("seconds", seconds);
    std::cout << out.dump() << "\n";
  } else {
    std::cout << map_text(rastros, results, map.value_only) << "Searched " << nodes
              << " nodes in " << seconds << " s\n";
  }
  std::cout.flush();
  if (!std::cout) throw std::runtime_error("cannot write the map to standard output");
}

// The checkpoint goes only once the map is safely out, and stays while squares over budget
// are left for a resumed run.
void finish_checkpoint(const MapCheckpoint& checkpoint,
                       const std::vector<StartSquareOutcome>& results, bool quiet) {
  const auto over_budget =
      std::count_if(results.begin(), results.end(),
                    [](const StartSquareOutcome& result) { return result.over_budget; });
  if (over_budget == 0) {
    checkpoint.remove();
    return;
  }
  if (!quiet) {
    std::cerr << "rastros map: " << over_budget
              << " squares over --square-seconds; the solved ones stay in "
              << checkpoint.directory().string()
              << " (run again with --resume, and a larger --square-seconds, to solve the rest)\n";
  }
}

// How the squares are solved: df-pn or alpha-beta, a time budget or none.
StartMapControl map_control(const MapArguments& map, bool proof_number,
                            SquareSolverNodes& budget_nodes) {
  StartMapControl control;
  if (map.square_seconds > 0) {
    control.square_budget = std::chrono::duration<double>(map.square_seconds);
  }
  if (map.square_seconds > 0 || proof_number) control.budget_nodes = &budget_nodes;
  if (proof_number) control.algorithm = MapAlgorithm::proof_number;
  return control;
}

// The checkpoint, on the root only. Under mpirun every rank gets the Ctrl-C: the others must let
// the root stop the job cleanly (it stops dealing squares) rather than die and take the job
// down, so they catch it too.
std::unique_ptr<MapCheckpoint> open_checkpoint(const MapArguments& map, const Rastros& rastros,
                                               StartMapControl& control) {
  if (map.checkpoint_directory.empty()) return nullptr;
  if (mpi_rank() != 0) {
    stop_requested();
    return nullptr;
  }
  auto checkpoint = std::make_unique<MapCheckpoint>(map.checkpoint_directory, rastros,
                                                    map.value_only, map.resume);
  const MapProgress& earlier = checkpoint->earlier();
  if (!earlier.solved.empty() && !map.quiet) {
    std::cerr << "rastros map: resuming with " << earlier.solved.size() << " squares solved\n";
  }
  control.known = earlier.solved;
  control.stop = &stop_requested();
  return checkpoint;
}

int map_squares(MapArguments map, const Rastros& rastros, SolverOptions options,
                bool proof_number) {
  SquareSolverNodes budget_nodes;
  StartMapControl control = map_control(map, proof_number, budget_nodes);
  const bool root = mpi_rank() == 0;
  if (!root) map.quiet = true;
  const std::unique_ptr<MapCheckpoint> checkpoint = open_checkpoint(map, rastros, control);
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
  const auto nodes = [&] { return solver.nodes() + budget_nodes.total(); };
  MapCounters counters;
  counters.solved = static_cast<int>(control.known.size());
  control.on_over_budget = [&](const StartSquareOutcome&) { ++counters.over_budget; };
  control.on_solved = [&](const StartSquareOutcome& result) {
    // Saved after every square, so an interruption loses at most the squares in progress.
    if (checkpoint) checkpoint->save(result, nodes(), elapsed());
    ++counters.solved;
  };
  std::vector<StartSquareOutcome> results;
  {
    ProgressReporter progress(!map.quiet, [&](double seconds) {
      return progress_line(counters, static_cast<double>(nodes()), seconds);
    });
    results = solve_map(rastros, solver, control);
  }
  const std::uint64_t all_nodes = mpi_sum_on_root(nodes());
#ifdef RASTROS_HAVE_MPI
  if (shared_table) shared_table->release();  // every rank's searches are over
#endif
  if (!root) return 0;
  const std::size_t squares = start_squares(rastros.board()).size();
  if (results.size() < squares) {
    std::cerr << "rastros map: stopped with " << results.size() << " of " << squares
              << " squares solved; progress saved in " << map.checkpoint_directory
              << " (run again with --resume to continue)\n";
    return stopped_exit_status();
  }
  // Work of earlier, interrupted runs counts too.
  const MapProgress earlier = checkpoint ? checkpoint->earlier() : MapProgress{};
  print_map(map, rastros, results, earlier.nodes + all_nodes, earlier.seconds + elapsed());
  if (checkpoint) finish_checkpoint(*checkpoint, results, map.quiet);
  return 0;
}

}  // namespace

int run_map(const Arguments& arguments) {
  MapArguments map;
  po::options_description description("Options");
  add_map_options(description, map);
  if (!parse_command_line(arguments, description,
                          "Usage: rastros map [options]\n"
                          "Solves the game from every start square of a board (player 1 moving "
                          "first) and prints the values as a grid.")) {
    return 0;
  }
  const Rastros rastros = resolve_map_variant(map.variant);
  std::optional<std::size_t> memory;
  if (!map.memory.empty()) memory = parse_memory_size(map.memory);
  const bool proof_number = check_map_arguments(map);
  const ThreadLimit limit(map.threads);
  SolverOptions options;
  options.value_only = map.value_only;
  options.table_bytes = map_table_bytes(map, memory, proof_number || map.square_seconds > 0,
                                        limit.threads());
  return map_squares(map, rastros, options, proof_number);
}

}  // namespace rastros::tools
