// `rastros solve`: the perfect-play value of a position and of every move from it; with --db,
// the strong database of every position reachable from the start (or, with --kind strategy, the
// positions of the winner's strategy against every reply) written to a file.

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>

#include "analysis_output.hpp"
#include "board_text.hpp"
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/checkpoint_file.hpp"
#include "core/errors.hpp"
#include "db/proof_database.hpp"
#include "db/strategy_database.hpp"
#include "db/strong_database.hpp"
#include "interrupt.hpp"
#include "mpi_world.hpp"
#ifdef RASTROS_HAVE_MPI
#include "cluster/distributed_database_writer.hpp"
#include "cluster/distributed_strong_solver.hpp"
#endif
#include "options.hpp"
#include "progress.hpp"
#include "rastros/canonical.hpp"
#include "search/proof_number_search.hpp"
#include "search/search_checkpoint.hpp"
#include "search/solver.hpp"

namespace rastros::tools {
namespace {

// The number of the winning player, 0 for a draw (no winner).
int winner_number(Value value, Player to_move) {
  return value == Value::draw  ? 0
         : value == Value::win ? number_of(to_move)
                               : number_of(opponent(to_move));
}

Json outcome_json(Json json, const Outcome& outcome, bool value_only) {
  json.set("value", to_string(outcome.value));
  if (!value_only) {
    json.set("remoteness", outcome.remoteness ? Json(*outcome.remoteness) : Json(nullptr));
  }
  return json;
}

// Peak memory of `solve --db` per stored position: the retrograde solver's 16-byte entries and
// merged layers, then the solved table (19 bytes) and its copy as a Database (19 more) side by
// side, and the compressed file image. Measured peak resident memory (2 threads, less the
// process's 6 MB at rest): 85 bytes per position on 5x5 (476k positions), 78 on 6x4 and 7x4
// (491k, 4.4M), 51 on 6x5 (25M), 44 on 4x8 (41M).
constexpr double kPeakBytesPerPosition = 90;
// The process itself, its libraries and TBB's threads; on small boards the whole peak is below
// this (10 MB for 5x4's 49k positions).
constexpr double kFixedBytes = 16.0 * 1024 * 1024;

// Positions reachable from the start with king steps, fitted over the measured counts as an
// upper bound for boards with at least 4 files and ranks: log2(count) <= 15.68 + 0.9 (n - 20)
// for n squares up to 30 (5x4 49k, 6x4 491k, 7x4 4.4M, 6x5 25.3M: each under the line by 6% to
// 1.7x), then doubling per square (4x8 41M, estimated 107M), and halved on square boards by the
// diagonal symmetry (5x5 476k, estimated 594k). Narrower boards have far fewer (9x3 213k,
// estimated 4.1M). It serves to refuse, up front, a build that would run out of memory after
// hours of work, and to check --memory; smaller boards are covered by kFixedBytes.
double estimated_strong_positions(const Board& board) {
  const int squares = board.square_count();
  const double log2_count = 15.68 + 0.9 * (std::min(squares, 30) - 20) + std::max(squares - 30, 0);
  const double positions = std::exp2(log2_count);
  return board.is_square() ? positions / 2 : positions;
}

double estimated_strong_bytes(const Board& board) {
  return kFixedBytes + estimated_strong_positions(board) * kPeakBytesPerPosition;
}

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  return text;
}

// "about N MiB" below a GiB, "about N GiB" above (estimates for boards far too large say less).
std::string memory_text(double bytes) {
  if (bytes >= 1024.0 * 1024 * 1024 * 1024 * 1024) return "more than a PiB";
  if (bytes >= 1024.0 * 1024 * 1024) return "about " + gib(bytes);
  char text[32];
  std::snprintf(text, sizeof text, "about %.0f MiB", bytes / (1024.0 * 1024));
  return text;
}

struct DatabaseRequest {
  std::string path;
  std::string kind;
  std::optional<int> book_depth;    // strategy databases only
  std::optional<int> leaf_squares;  // proof databases only
  std::string memory;               // --memory: the strong build's limit; empty when not given
  std::string checkpoint;           // --checkpoint DIR (strong builds)
  bool resume = false;              // --resume
};

// Plies of a strategy database's opening book; more than a few multiply the file's size.
constexpr int kMaxBookDepth = 16;
// --book-depth not given (the option has no default value so that giving it can be detected).
constexpr int kBookDepthUnset = std::numeric_limits<int>::min();

// Transposition table of a proof build unless --memory says otherwise: the build solves
// millions of related positions, so a larger table than one solve's pays for itself.
constexpr std::size_t kProofTableBytes = std::size_t{256} << 20;

// Strategy and proof databases: a walk from the start along the winner's strategy, each
// position decided by one live solver whose table is shared across the whole build.
int build_strategy_or_proof(const VariantOptions& variant, const DatabaseRequest& request,
                            int threads, bool quiet, bool json) {
  const bool proof = request.kind == "proof";
  const int book_depth = request.book_depth.value_or(0);
  if (book_depth < 0 || book_depth > kMaxBookDepth) {
    throw InputError("--book-depth must be between 0 and " + std::to_string(kMaxBookDepth));
  }
  const Rastros rastros = resolve_variant(variant);
  const Board& board = rastros.board();
  const int leaf_squares = request.leaf_squares.value_or(kDefaultProofLeafSquares);
  if (proof && (leaf_squares < 0 || leaf_squares > kMaxProofLeafSquares)) {
    // Larger leaves would leave verify whole searches of big boards to do.
    throw InputError("--leaf-squares must be between 0 and " +
                     std::to_string(kMaxProofLeafSquares));
  }
  SolverOptions options;
  options.value_only = proof;
  if (proof) {
    options.table_bytes =
        request.memory.empty() ? kProofTableBytes : parse_memory_size(request.memory);
  }
  const ThreadLimit limit(threads);
  const auto started = std::chrono::steady_clock::now();
  // With a checkpoint, Ctrl-C stops the searches at once and the build keeps its finished plies.
  WalkCheckpoint checkpoint;
  SearchCancellation cancellation;
  if (!request.checkpoint.empty()) {
    if (mpi_size() > 1) {
      // Every rank would build the whole walk and write the same files.
      throw InputError("--checkpoint with --kind " + request.kind +
                       " is not available under mpirun (strategy and proof builds run in one "
                       "process)");
    }
    prepare_checkpoint_directory(request.checkpoint);
    checkpoint.directory = request.checkpoint;
    checkpoint.resume = request.resume;
    checkpoint.stop = cancellation.stop = &stop_requested();
  }
  Solver solver(rastros, options, cancellation);
  const auto progress = [&](const std::string& line) {
    if (!quiet) std::cerr << line << "\n";
  };
  Database database;
  try {
    database = proof ? build_proof_database(rastros, leaf_squares, solver, progress, checkpoint)
                     : build_strategy_database(rastros, book_depth, solver, progress, checkpoint);
  } catch (const SearchCancelled&) {
    std::cerr << "rastros solve: stopped; what was finished (the start's value, then each ply) "
              << "is saved in " << request.checkpoint << " (run again with --resume to continue)\n";
    return stopped_exit_status();
  }
  write_database(request.path, database);
  // Only now that the database is safely on disk is the checkpoint no longer needed.
  remove_walk_checkpoint(request.checkpoint);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  const std::uintmax_t bytes = std::filesystem::file_size(request.path);
  const double per_position =
      database.size() ? static_cast<double>(bytes) / static_cast<double>(database.size()) : 0;
  const DatabaseRecord* start = database.find(Canonicalizer(board).pack(rastros.start_position()));
  if (json) {
    Json out = variant_json(rastros);
    out.set("kind", request.kind);
    if (proof) {
      out.set("leaf_squares", leaf_squares);
      if (start) out.set("value", to_string(start->value));
    } else {
      out.set("book_depth", book_depth);
    }
    out.set("file", request.path)
        .set("positions", static_cast<std::uint64_t>(database.size()))
        .set("nodes", solver.nodes())
        .set("seconds", seconds)
        .set("bytes", static_cast<std::uint64_t>(bytes))
        .set("bytes_per_position", per_position);
    std::cout << out.dump() << "\n";
    return 0;
  }
  std::cout << (proof ? "Proof" : "Strategy") << " database of " << board.name() << ", "
            << steps_name(board.steps()) << " steps, " << rules_name(rastros.stuck_rule())
            << " rules, start " << square_name(board, rastros.start());
  if (proof) {
    std::cout << ", leaves of at most " << leaf_squares << " squares\n";
    if (start) {
      std::cout << "Value:      " << to_string(start->value) << " for player 1 (certify it with "
                << "rastros verify --db " << request.path << ")\n";
    }
  } else {
    std::cout << ", book depth " << book_depth << "\n";
  }
  std::cout << "File:       " << request.path << "\n"
            << "Positions:  " << database.size() << "\n"
            << "Solved in:  " << seconds << " s (" << solver.nodes() << " nodes searched)\n"
            << "On disk:    " << bytes << " bytes (" << per_position << " bytes/position)\n";
  return 0;
}

// Refuses, before any work, an output path the database could not be written to: a directory,
// a device, pipe or socket, or a file in a directory that is missing or not writable. (Failures
// while writing, such as a full disk, still surface at the end, exit status 1.)
void check_output_path(const std::filesystem::path& requested_path) {
  std::error_code error;
  if (std::filesystem::is_directory(requested_path, error)) {
    throw InputError("--db " + requested_path.string() + " is a directory, not a file name");
  }
  // A device, pipe or socket: the rename at the end would replace it (a link is followed).
  const std::filesystem::path path = replaceable_file(requested_path, "--db");
  const std::filesystem::path directory = path.has_parent_path() ? path.parent_path() : ".";
  if (!std::filesystem::is_directory(directory, error)) {
    throw InputError("--db " + path.string() + ": directory " + directory.string() +
                     " does not exist");
  }
  if (::access(directory.c_str(), W_OK | X_OK) != 0) {
    throw InputError("--db " + path.string() + ": cannot write in directory " + directory.string() +
                     ": " + std::strerror(errno));
  }
}

int build_database(const VariantOptions& variant, const DatabaseRequest& request, int threads,
                   bool quiet, bool json) {
  check_output_path(request.path);
  if (request.kind == "strategy" || request.kind == "proof") {
    if (request.kind == "strategy" && !request.memory.empty()) {
      throw InputError(
          "--memory with --db limits strong builds and the table of proof builds; a strategy "
          "build's size is not known in advance");
    }
    if (request.kind == "proof" && request.book_depth) {
      throw InputError("--book-depth applies only with --kind strategy");
    }
    if (request.kind == "strategy" && request.leaf_squares) {
      throw InputError("--leaf-squares applies only with --kind proof");
    }
    return build_strategy_or_proof(variant, request, threads, quiet, json);
  }
  if (request.kind != "strong") throw InputError("--kind must be strong, strategy or proof");
  if (request.leaf_squares) throw InputError("--leaf-squares applies only with --kind proof");
  if (request.book_depth) throw InputError("--book-depth applies only with --kind strategy");
  const Rastros rastros = resolve_variant(variant);
  const double memory = physical_memory_bytes();
  const double needed = estimated_strong_bytes(rastros.board());
  if (!request.memory.empty()) {
    const double limit = static_cast<double>(parse_memory_size(request.memory));
    if (needed > limit) {
      throw InputError("a strong database of " + rastros.board().name() + " needs " +
                       memory_text(needed) + " of memory, more than --memory " +
                       escape_control(request.memory));
    }
  }
  if (memory > 0 && needed > 0.8 * memory) {
    throw InputError("a strong database of " + rastros.board().name() + " needs " +
                     memory_text(needed) + " of memory while solving, more than this machine's " +
                     gib(memory) + "; use a smaller board");
  }
  const ThreadLimit limit(threads);
  const auto started = std::chrono::steady_clock::now();
  StrongSolveControl control;
  control.checkpoint_directory = request.checkpoint;
  control.resume = request.resume;
  if (!request.checkpoint.empty()) control.stop = &stop_requested();
  const auto progress = [&](const std::string& line) {
    if (!quiet) std::cerr << line << "\n";
  };
  StrongSolveStats stats;
  try {
#ifdef RASTROS_HAVE_MPI
    if (mpi_size() > 1) {
      // Every rank solves its share of each layer, then holds a run of the table's keys and
      // writes its part of the file (cluster/distributed_database_writer.hpp).
      cluster::StrongTableRun run =
          cluster::solve_strong_distributed(mpi_world(), rastros, progress, control);
      stats = run.stats();
      cluster::write_database_distributed(mpi_world(), request.path,
                                          header_for(rastros, DatabaseKind::strong), run);
      if (mpi_rank() != 0) return 0;
      cluster::remove_distributed_strong_checkpoint(request.checkpoint);
    }
#endif
    if (mpi_size() == 1) {
      StrongTable table = solve_strong(rastros, progress, control);
      stats = table.stats();
      write_database(request.path, to_database(rastros, std::move(table)));
      remove_strong_checkpoint(request.checkpoint);
    }
    // (The checkpoints are removed only once the database is safely on disk.)
  } catch (const SolveStopped&) {
    if (mpi_rank() == 0) {
      std::cerr << "rastros solve: stopped; the layers valued so far are saved in "
                << request.checkpoint << " (run again with --resume to continue)\n";
    }
    return stopped_exit_status();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  const std::uintmax_t bytes = std::filesystem::file_size(request.path);
  const std::uint64_t positions = stats.position_count();
  const int layer_count = stats.layer_count();
  const double per_position =
      positions ? static_cast<double>(bytes) / static_cast<double>(positions) : 0;
  const Board& board = rastros.board();
  if (json) {
    Json out = variant_json(rastros);
    out.set("kind", "strong")
        .set("file", request.path)
        .set("positions", positions)
        .set("layers", static_cast<std::int64_t>(layer_count))
        .set("seconds", seconds)
        .set("bytes", static_cast<std::uint64_t>(bytes))
        .set("bytes_per_position", per_position);
    std::cout << out.dump() << "\n";
    return 0;
  }
  std::cout << "Strong database of " << board.name() << ", " << steps_name(board.steps())
            << " steps, " << rules_name(rastros.stuck_rule()) << " rules, start "
            << square_name(board, rastros.start()) << "\n"
            << "File:       " << request.path << "\n"
            << "Positions:  " << positions << " in " << layer_count << " layers\n"
            << "Solved in:  " << seconds << " s\n"
            << "On disk:    " << bytes << " bytes (" << per_position << " bytes/position)\n";
  return 0;
}

/// Longest --checkpoint-every, in seconds (a year: beyond any run, and far from overflowing
/// the clock's duration type).
constexpr double kMaxCheckpointEvery = 365.0 * 24 * 3600;

/// What a search checkpoint must match to be resumed: the game, the position, the table size.
std::string search_identity(const PositionInput& input, std::size_t table_bytes) {
  const Board& board = input.rastros.board();
  return board.name() + " " + std::string(steps_name(board.steps())) + " " +
         std::string(rules_name(input.rastros.stuck_rule())) + " start " +
         start_name(input.rastros) + " position " + position_string(board, input.position) +
         " table " + std::to_string(table_bytes);
}

}  // namespace

Json analysis_json(const AnalysisReport& report) {
  const PositionInput& input = report.input;
  const Analysis& analysis = report.analysis;
  const bool value_only = report.value_only;
  const Board& board = input.rastros.board();
  const Value value = analysis.outcome.value;
  // Key order of the contract: value, winner, remoteness.
  Json ordered = position_json(input);
  ordered.set("value", to_string(value));
  const int winner = winner_number(value, input.position.to_move);
  ordered.set("winner", winner ? Json(winner) : Json(nullptr));
  if (!value_only) {
    ordered.set("remoteness",
                analysis.outcome.remoteness ? Json(*analysis.outcome.remoteness) : Json(nullptr));
  }
  Json best = Json::array();
  for (Square move : analysis.best_moves) best.push(square_name(board, move));
  Json children = Json::array();
  for (const MoveOutcome& child : analysis.children) {
    Json entry = Json::object();
    entry.set("move", square_name(board, child.move));
    children.push(outcome_json(entry, child.outcome, value_only));
  }
  if (!report.root_only) ordered.set("best_moves", best).set("children", children);
  if (report.timing) ordered.set("nodes", analysis.nodes).set("seconds", report.seconds);
  if (report.source) ordered.set("source", *report.source);
  return ordered;
}

void print_analysis(const AnalysisReport& report, bool json) {
  if (json) {
    std::cout << analysis_json(report).dump() << "\n";
    return;
  }
  const PositionInput& input = report.input;
  const Analysis& analysis = report.analysis;
  const double seconds = report.seconds;
  const Board& board = input.rastros.board();
  const Player to_move = input.position.to_move;
  const int winner = winner_number(analysis.outcome.value, to_move);

  std::cout << "Board " << board.name() << ", " << steps_name(board.steps()) << " steps, "
            << rules_name(input.rastros.stuck_rule()) << " rules, start "
            << start_name(input.rastros) << "\n\n"
            << board_diagram(input.rastros, input.position) << "\n"
            << "Position:   " << position_string(board, input.position) << "\n";
  if (!input.moves.empty()) std::cout << "Moves:      " << game_text(board, input.moves) << "\n";
  std::cout << "To move:    player " << number_of(to_move) << "\n"
            << "Value:      " << to_string(analysis.outcome) << " for player " << number_of(to_move)
            << "\n"
            << "Winner:     "
            << (winner ? "player " + std::to_string(winner) : std::string("none (draw)"));
  if (analysis.outcome.remoteness && winner) {
    std::cout << ", " << *analysis.outcome.remoteness << " plies with perfect play";
  }
  std::cout << "\n";
  if (!analysis.children.empty()) {
    std::cout << "Best moves: " << game_text(board, analysis.best_moves) << "\nMoves:     ";
    for (const MoveOutcome& child : analysis.children) {
      std::cout << " " << square_name(board, child.move) << " " << to_string(child.outcome) << ";";
    }
    std::cout << "\n";
  }
  if (report.source == "database") {
    std::cout << "Source:     database, answered in " << seconds * 1e6 << " us\n";
    return;
  }
  if (report.source) std::cout << "Source:     search (the database lacks this position)\n";
  std::cout << "Searched:   " << analysis.nodes << " nodes in " << seconds << " s ("
            << human_count(analysis.nodes / std::max(seconds, 1e-9)) << " nodes/s)\n";
}

int run_solve(const Arguments& arguments) {
  VariantOptions variant;
  PositionOptions where;
  DatabaseRequest database;
  int threads = 0;
  int book_depth = kBookDepthUnset;
  std::string memory;
  bool value_only = false;
  bool no_region = false;
  bool no_symmetry = false;
  bool no_matching = false;
  bool no_pockets = false;
  bool no_goal_pockets = false;
  bool no_move_memory = false;
  bool no_lost_move_rule = false;
  bool no_trap_rule = false;
  bool quiet = false;
  bool json = false;
  bool root_only = false;
  std::string algorithm = "alpha-beta";
  double checkpoint_every = 600;
  bool checkpoint_every_given = false;
  po::options_description description("Options");
  add_variant_options(description, variant);
  add_position_options(description, where);
  add_threads_option(description, threads);
  add_search_options(description, memory, value_only);
  description.add_options()(
      "algorithm", po::value(&algorithm)->default_value(algorithm),
      "alpha-beta (parallel, remoteness too) or proof-number (df-pn: one thread, needs "
      "--value-only; an independent second method, often fewer nodes on big boards)")(
      "root-only", po::bool_switch(&root_only),
      "the position's value alone, not each move's: a win needs one proven move instead of "
      "all of them (big boards)")("no-region", po::bool_switch(&no_region),
                                  "search aid off: keep unreachable squares in keys")(
      "no-symmetry", po::bool_switch(&no_symmetry), "search aid off: no board symmetry")(
      "no-matching", po::bool_switch(&no_matching), "search aid off: no matching endgame")(
      "no-pockets", po::bool_switch(&no_pockets),
      "search aid off: keep pockets (goal-free parts behind one square) in value-only keys")(
      "no-goal-pockets", po::bool_switch(&no_goal_pockets),
      "search aid off: keep goal pockets (a goal and the squares round it behind one square) "
      "in value-only keys instead of a stand-in worth the same to each player stepping in")(
      "no-move-memory", po::bool_switch(&no_move_memory),
      "search aid off: do not try first the move that won where the snail's surroundings were "
      "the same")(
      "no-lost-move-rule", po::bool_switch(&no_lost_move_rule),
      "search aid off: search the moves known to lose (the opponent wins one ply ahead, or the "
      "table has the position after the move as lost) instead of counting them lost unsearched")(
      "no-trap-rule", po::bool_switch(&no_trap_rule),
      "search aid off: do not look, before searching a position's moves, for a trap (a move "
      "after which every safe reply is answered by one leaving the opponent stuck or only "
      "squares beside our goal)")(
      "db", po::value(&database.path)->notifier([](const std::string& path) {
        if (path.empty()) throw InputError("--db needs a file name");
      }),
      "build the strong database of every position reachable from the start and write it to "
      "this file (.rdb) instead of solving one position")(
      "kind", po::value(&database.kind)->default_value("strong"),
      "database kind with --db: strong (every position reachable from the start), strategy "
      "(the winner's stored move against every reply of the loser; for boards too large for a "
      "strong database) or proof (the same walk, values only, small endgames left to "
      "`rastros verify`: a certificate of the start's value for boards whose remoteness is "
      "out of reach, such as 8x8)")("quiet", po::bool_switch(&quiet),
                                    "no progress lines on stderr")("json", po::bool_switch(&json),
                                                                   "print one JSON object")(
      "checkpoint", po::value(&database.checkpoint),
      "with --db: save each valued layer (strong) or each finished ply of the walk (strategy, "
      "proof) in DIR; with --algorithm proof-number: save the search's table in DIR every "
      "--checkpoint-every seconds; Ctrl-C/SIGTERM stop after saving (a strategy or proof "
      "build abandons the ply in progress)")(
      "resume", po::bool_switch(&database.resume),
      "with --checkpoint DIR: continue the solve or search saved there")(
      "checkpoint-every", po::value<double>()->notifier([&](double seconds) {
        checkpoint_every = seconds;
        checkpoint_every_given = true;
      }),
      "with --algorithm proof-number --checkpoint DIR: seconds of search between saves "
      "(default 600)");
  description.add_options()("book-depth", po::value(&book_depth),
                            "with --kind strategy: also store every position within this many "
                            "plies of the start, for both sides (default 0)")(
      "leaf-squares",
      po::value<int>()->notifier([&](int squares) { database.leaf_squares = squares; }),
      "with --kind proof: positions whose snail can reach at most this many squares are not "
      "stored; rastros verify solves them (0 to 32, default 16)");
  if (!parse_command_line(
          arguments, description,
          "Usage: rastros solve [options]\n"
          "       rastros solve --db FILE [--board WxH ...]\n"
          "       rastros solve --db FILE --kind strategy [--book-depth K] "
          "[--board WxH ...]\n"
          "       rastros solve --db FILE --kind proof [--leaf-squares K] [--memory SIZE] "
          "[--board WxH ...]\n"
          "Solves a position with perfect play: its value for the side to move, "
          "the winner, the remoteness\n(plies to the end: the winner hurries, the "
          "loser delays), the best moves, and every legal move's value.\n"
          "With --db, solves every position reachable from the start (retrograde "
          "analysis, up to 90 bytes of\nmemory per position; --memory SIZE refuses a "
          "board estimated to need more) and writes the\nstrong database for `rastros "
          "query` and `rastros stats`. With --kind strategy or proof, walks the winner's "
          "strategy\ninstead (proof: values only, --memory is the search's table, default "
          "256M).")) {
    return 0;
  }
  // Only an explicit --book-depth counts, so that its absence can be told from 0.
  if (book_depth != kBookDepthUnset) database.book_depth = book_depth;
  if (!database.path.empty()) {
    // A database covers the whole game from the start, not one position.
    if (where.moves || where.position) {
      throw InputError(
          "--db builds the database of the whole game; --moves and --position "
          "belong to rastros query");
    }
    if (value_only || no_region || no_symmetry || no_matching || no_pockets || no_goal_pockets ||
        no_move_memory || no_lost_move_rule || no_trap_rule || root_only ||
        algorithm != "alpha-beta") {
      throw InputError(
          "--value-only, --root-only, --algorithm and the --no-* search options do not apply "
          "to --db");
    }
    database.memory = memory;
    if (database.resume && database.checkpoint.empty()) {
      throw InputError("--resume needs --checkpoint DIR");
    }
    if (checkpoint_every_given) {
      throw InputError(
          "--checkpoint-every applies to --algorithm proof-number searches; a --db "
          "build saves each layer or ply as it is finished");
    }
    return build_database(variant, database, threads, quiet, json);
  }
  if (database.kind != "strong" || database.book_depth || database.leaf_squares) {
    throw InputError("--kind, --book-depth and --leaf-squares apply only with --db FILE");
  }
  for (const auto& [off, flag, what] :
       {std::tuple{no_pockets, "--no-pockets", "pockets"},
        std::tuple{no_goal_pockets, "--no-goal-pockets", "goal pockets"}}) {
    if (off && !value_only) {
      throw InputError(std::string(flag) + " applies to --value-only searches (" + what +
                       " are never used when searching for remoteness)");
    }
  }
  const bool proof_number = is_proof_number_algorithm(algorithm, value_only);
  if (proof_number && (no_region || no_symmetry || no_matching || no_pockets || no_goal_pockets ||
                       no_move_memory || no_lost_move_rule || no_trap_rule)) {
    throw InputError("the --no-* search options apply to --algorithm alpha-beta only");
  }
  if ((!database.checkpoint.empty() || database.resume) && !proof_number) {
    throw InputError(
        "--checkpoint and --resume apply to --db builds and to --algorithm proof-number searches");
  }
  if (database.resume && database.checkpoint.empty()) {
    throw InputError("--resume needs --checkpoint DIR");
  }
  if (checkpoint_every_given && database.checkpoint.empty()) {
    throw InputError("--checkpoint-every needs --checkpoint DIR");
  }
  if (!(checkpoint_every > 0 && checkpoint_every <= kMaxCheckpointEvery)) {
    throw InputError("--checkpoint-every must be between 0 and " +
                     std::to_string(static_cast<long>(kMaxCheckpointEvery)) + " seconds");
  }
  const PositionInput input = resolve_position(variant, where);
  SolverOptions options;
  options.value_only = value_only;
  options.prune_region = !no_region;
  options.use_symmetry = !no_symmetry;
  options.use_matching = !no_matching;
  options.simplify_pockets = !no_pockets;
  options.summarize_goal_pockets = !no_goal_pockets;
  options.remember_moves = !no_move_memory;
  options.lost_move_rule = !no_lost_move_rule;
  options.trap_rule = !no_trap_rule;
  options.table_bytes =
      memory.empty() ? default_table_bytes(value_only) : parse_memory_size(memory);
  // Checked here for df-pn too, which would accept any size.
  check_table_bytes(options.table_bytes);
  const ThreadLimit limit(threads);
  std::optional<Solver> solver;
  std::optional<ProofNumberSearch> proof_search;
  if (proof_number) {
    proof_search.emplace(input.rastros, options.table_bytes);
  } else {
    solver.emplace(input.rastros, options);
  }

  // A long df-pn search saves its table in the checkpoint directory and resumes from it.
  std::optional<SearchCheckpoint> checkpoint;
  SearchProgress earlier;
  std::string save_failure;  // why the last save failed; empty when it succeeded
  if (!database.checkpoint.empty()) {
    checkpoint.emplace(database.checkpoint, search_identity(input, options.table_bytes),
                       database.resume);
    if (database.resume) earlier = checkpoint->restore(*proof_search);
  }
  const auto started = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return earlier.seconds +
           std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  if (checkpoint) {
    ProofSearchControl control;
    control.stop = &stop_requested();
    control.save_every = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(checkpoint_every));
    control.save = [&] {
      try {
        checkpoint->save(*proof_search, {proof_search->nodes(), elapsed()});
        save_failure.clear();
      } catch (const std::system_error& error) {
        // The search goes on (the previous checkpoint, if any, is intact); said once per failure.
        save_failure = error.what();
        std::cerr << "rastros solve: warning: checkpoint not saved: " << save_failure << "\n";
      }
    };
    proof_search->set_control(std::move(control));
  }
  Analysis analysis;
  try {
    ProgressReporter progress(!quiet, [&](double) {
      const double seconds = elapsed();
      const double nodes = static_cast<double>(solver ? solver->nodes() : proof_search->nodes());
      std::string line = "searching: " + human_count(nodes) + " nodes, " +
                         human_count(nodes / seconds) + " nodes/s, ";
      if (solver) {
        line +=
            "table " + std::to_string(static_cast<int>(solver->table_fill() * 100)) + "% full, ";
      }
      return line + std::to_string(static_cast<int>(seconds)) + " s";
    });
    if (!root_only) {
      analysis = solver ? solver->analyse(input.position) : proof_search->analyse(input.position);
    } else if (solver) {
      analysis.outcome = solver->solve(input.position);
      analysis.nodes = solver->nodes();
    } else {
      analysis.outcome = {proof_search->solve(input.position), std::nullopt};
      analysis.nodes = proof_search->nodes();
    }
  } catch (const SearchStopped&) {
    if (save_failure.empty()) {
      std::cerr << "rastros solve: stopped; the search is saved in " << database.checkpoint
                << " (run again with --resume to continue)\n";
    } else {
      std::cerr << "rastros solve: stopped, but the last save failed (" << save_failure
                << "); an earlier checkpoint in " << database.checkpoint << ", if any, is intact\n";
    }
    return stopped_exit_status();
  }
  // With checkpoints, nodes and seconds count every run of the search.
  if (proof_search) analysis.nodes = proof_search->nodes();
  const double seconds = elapsed();
  AnalysisReport report{input, analysis, seconds, value_only, std::nullopt};
  report.root_only = root_only;
  print_analysis(report, json);
  // Only once the answer is out is the checkpoint no longer needed.
  if (checkpoint) {
    std::cout.flush();
    if (std::cout) checkpoint->remove();
  }
  return 0;
}

}  // namespace rastros::tools
