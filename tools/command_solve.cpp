// `rastros solve`: the perfect-play value of a position and of every move from it; with --db,
// the strong database of every position reachable from the start (or, with --kind strategy, the
// positions of the winner's strategy against every reply) written to a file. This file reads the
// options and hands over to the job (solve_requests.hpp).

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>

#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "solve_requests.hpp"

namespace rastros::tools {
namespace {

// --book-depth not given (the option has no default value so that giving it can be detected).
constexpr int kBookDepthUnset = std::numeric_limits<int>::min();

struct SolveArguments {
  PositionRequest position;
  DatabaseRequest database;
  SolveOutput output;
  int threads = 0;
  int book_depth = kBookDepthUnset;
};

void add_search_aid_options(po::options_description& description, SearchAidsOff& off) {
  description.add_options()("no-region", po::bool_switch(&off.region),
                            "search aid off: keep unreachable squares in keys")(
      "no-symmetry", po::bool_switch(&off.symmetry), "search aid off: no board symmetry")(
      "no-matching", po::bool_switch(&off.matching), "search aid off: no matching endgame")(
      "no-pockets", po::bool_switch(&off.pockets),
      "search aid off: keep pockets (goal-free parts behind one square) in value-only keys")(
      "no-goal-pockets", po::bool_switch(&off.goal_pockets),
      "search aid off: keep goal pockets (a goal and the squares round it behind one square) "
      "in value-only keys instead of a stand-in worth the same to each player stepping in")(
      "no-move-memory", po::bool_switch(&off.move_memory),
      "search aid off: do not try first the move that won where the snail's surroundings were "
      "the same")(
      "no-lost-move-rule", po::bool_switch(&off.lost_move_rule),
      "search aid off: search the moves known to lose (the opponent wins one ply ahead, or the "
      "table has the position after the move as lost) instead of counting them lost unsearched")(
      "no-trap-rule", po::bool_switch(&off.trap_rule),
      "search aid off: do not look, before searching a position's moves, for a trap (a move "
      "after which every safe reply is answered by one leaving the opponent stuck or only "
      "squares beside our goal)");
}

void require_file_name(const std::string& path) {
  if (path.empty()) throw InputError("--db needs a file name");
}

void add_database_options(po::options_description& description, SolveArguments& solve) {
  DatabaseRequest& database = solve.database;
  PositionRequest& position = solve.position;
  description.add_options()(
      "db", po::value(&database.path)->notifier(&require_file_name),
      "build the strong database of every position reachable from the start and write it to "
      "this file (.rdb) instead of solving one position")(
      "kind", po::value(&database.kind)->default_value("strong"),
      "database kind with --db: strong (every position reachable from the start), strategy "
      "(the winner's stored move against every reply of the loser; for boards too large for a "
      "strong database) or proof (the same walk, values only, small endgames left to "
      "`rastros verify`: a certificate of the start's value for boards whose remoteness is "
      "out of reach, such as 8x8)")("quiet", po::bool_switch(&solve.output.quiet),
                                    "no progress lines on stderr")(
      "json", po::bool_switch(&solve.output.json), "print one JSON object")(
      "checkpoint", po::value(&database.checkpoint),
      "with --db: save each valued layer (strong) or each finished ply of the walk (strategy, "
      "proof) in DIR; with --algorithm proof-number: save the search's table in DIR every "
      "--checkpoint-every seconds; Ctrl-C/SIGTERM stop after saving (a strategy or proof "
      "build abandons the ply in progress)")(
      "resume", po::bool_switch(&database.resume),
      "with --checkpoint DIR: continue the solve or search saved there")(
      "checkpoint-every", po::value<double>()->notifier([&position](double seconds) {
        position.checkpoint_every = seconds;
        position.checkpoint_every_given = true;
      }),
      "with --algorithm proof-number --checkpoint DIR: seconds of search between saves "
      "(default 600)");
  description.add_options()("book-depth", po::value(&solve.book_depth),
                            "with --kind strategy: also store every position within this many "
                            "plies of the start, for both sides (default 0)")(
      "leaf-squares",
      po::value<int>()->notifier([&database](int squares) { database.leaf_squares = squares; }),
      "with --kind proof: positions whose snail can reach at most this many squares are not "
      "stored; rastros verify solves them (0 to 32, default 16)");
}

void add_solve_options(po::options_description& description, SolveArguments& solve) {
  PositionRequest& position = solve.position;
  add_variant_options(description, position.variant);
  add_position_options(description, position.where);
  add_threads_option(description, solve.threads);
  add_search_options(description, position.memory, position.value_only);
  description.add_options()(
      "algorithm", po::value(&position.algorithm)->default_value(position.algorithm),
      "alpha-beta (parallel, remoteness too) or proof-number (df-pn: one thread, needs "
      "--value-only; an independent second method, often fewer nodes on big boards)")(
      "root-only", po::bool_switch(&position.root_only),
      "the position's value alone, not each move's: a win needs one proven move instead of "
      "all of them (big boards)");
  add_search_aid_options(description, position.off);
  add_database_options(description, solve);
}

constexpr const char* kSolveUsage =
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
    "256M).";

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

// Refuses options of one kind of database given with another.
void check_database_kind(const DatabaseRequest& request) {
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
    return;
  }
  if (request.kind != "strong") throw InputError("--kind must be strong, strategy or proof");
  if (request.leaf_squares) throw InputError("--leaf-squares applies only with --kind proof");
  if (request.book_depth) throw InputError("--book-depth applies only with --kind strategy");
}

int build_database(const SolveArguments& solve) {
  const PositionRequest& position = solve.position;
  DatabaseRequest database = solve.database;
  // A database covers the whole game from the start, not one position.
  if (position.where.moves || position.where.position) {
    throw InputError(
        "--db builds the database of the whole game; --moves and --position "
        "belong to rastros query");
  }
  if (position.value_only || position.off.any() || position.root_only ||
      position.algorithm != "alpha-beta") {
    throw InputError(
        "--value-only, --root-only, --algorithm and the --no-* search options do not apply "
        "to --db");
  }
  database.memory = position.memory;
  if (database.resume && database.checkpoint.empty()) {
    throw InputError("--resume needs --checkpoint DIR");
  }
  if (position.checkpoint_every_given) {
    throw InputError(
        "--checkpoint-every applies to --algorithm proof-number searches; a --db "
        "build saves each layer or ply as it is finished");
  }
  check_output_path(database.path);
  check_database_kind(database);
  if (database.kind == "strong") {
    return build_strong_database(position.variant, database, solve.threads, solve.output);
  }
  return build_walk_database(position.variant, database, solve.threads, solve.output);
}

int solve_one_position(const SolveArguments& solve) {
  const DatabaseRequest& database = solve.database;
  if (database.kind != "strong" || database.book_depth || database.leaf_squares) {
    throw InputError("--kind, --book-depth and --leaf-squares apply only with --db FILE");
  }
  PositionRequest position = solve.position;
  position.checkpoint = database.checkpoint;
  position.resume = database.resume;
  return solve_position(position, solve.threads, solve.output);
}

}  // namespace

int run_solve(const Arguments& arguments) {
  SolveArguments solve;
  po::options_description description("Options");
  add_solve_options(description, solve);
  if (!parse_command_line(arguments, description, kSolveUsage)) return 0;
  // Only an explicit --book-depth counts, so that its absence can be told from 0.
  if (solve.book_depth != kBookDepthUnset) solve.database.book_depth = solve.book_depth;
  return solve.database.path.empty() ? solve_one_position(solve) : build_database(solve);
}

}  // namespace rastros::tools
