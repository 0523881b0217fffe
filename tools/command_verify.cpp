// `rastros verify`: every record of a database recomputed from its children, and the no-draw
// property of the standard rules, from a file or exhaustively on a small board.

#include <iostream>

#include "commands.hpp"
#include "core/errors.hpp"
#include "db/strong_database.hpp"
#include "db/verify.hpp"
#include "options.hpp"

namespace rastros::tools {
namespace {

constexpr const char* kVerifyUsage =
    "Usage: rastros verify --db FILE [--json] [--threads N] [--quiet]\n"
    "       rastros verify --board WxH [--start SQ] [--rules R] [--steps S] --no-draw\n"
    "Recomputes every stored record from its children by the rules (value, remoteness, best\n"
    "move), checks the database is closed (every child it needs is stored) and, under standard\n"
    "rules, the no-draw property: no position is a draw and no remoteness exceeds W*H-1. Under\n"
    "stuck-draw rules the draws are counted instead. --no-draw without --db solves the board in\n"
    "memory first (at most 30 squares).\n"
    "A proof database (solve --kind proof) is checked for values only: each stored win's move\n"
    "must leave the opponent lost, each stored loss's every move must leave the opponent\n"
    "winning; the small endgames it leaves out are solved here by proof-number search, a\n"
    "different algorithm from the alpha-beta search that built it (they share the rules, the\n"
    "canonical keys and the matching endgame). When every check holds, the start's value is\n"
    "proven.\n"
    "Exit status: 0 every check holds; 1 a check failed (the report on stdout says which; 1 is\n"
    "the design's status for anything other than bad input or an unusable file); 2 bad usage;\n"
    "3 a database file that cannot be read.";

std::string no_draw_text(const VerificationReport& report, StuckRule rules) {
  if (!report.no_draw) {
    return "not checked (a strategy or proof database does not hold every position)";
  }
  if (rules == StuckRule::draws) {
    return std::to_string(report.draws) +
           " draws (stuck-draw rules allow draws; the property is not claimed)";
  }
  return *report.no_draw ? "holds (no draws, every game within the W*H-1 plies bound)" : "FAILS";
}

}  // namespace

int run_verify(const Arguments& arguments) {
  VariantOptions variant;
  std::string db;
  int threads = 0;
  bool no_draw = false;
  bool quiet = false;
  bool json = false;
  int listed = static_cast<int>(kDefaultListedFailures);
  po::options_description description("Options");
  description.add_options()("db", po::value(&db), "database file (.rdb) to verify");
  add_variant_options(description, variant);
  add_threads_option(description, threads);
  description.add_options()(
      "no-draw", po::bool_switch(&no_draw),
      "verify the no-draw property of --board, solved in memory (with --db: always checked)")(
      "failures", po::value(&listed)->default_value(listed), "failures to list (all are counted)")(
      "quiet", po::bool_switch(&quiet), "no progress lines on stderr")(
      "json", po::bool_switch(&json), "print one JSON object");
  if (!parse_command_line(arguments, description, kVerifyUsage)) return 0;
  if (listed < 0) throw InputError("--failures must be 0 or more");

  const ThreadLimit limit(threads);
  const VerifyProgress progress = [quiet](const std::string& line) {
    if (!quiet) std::cerr << line << "\n";
  };
  VerificationReport report;
  std::optional<Rastros> game;
  std::string kind = "strong";
  if (!db.empty()) {
    // The file names the game; variant options would only contradict it.
    // --no-draw is accepted and redundant here: a database is always checked for draws.
    const VariantOptions defaults;
    if (variant.board != defaults.board || variant.start || variant.rules != defaults.rules ||
        variant.steps != defaults.steps) {
      throw InputError(
          "--board, --start, --rules and --steps go with --no-draw; a --db file "
          "names its own game");
    }
    const Database database = read_database(db);
    game.emplace(game_of(database.header()));
    kind = std::string(kind_name(database.header().kind));
    report = verify_database(database, progress, static_cast<std::size_t>(listed));
  } else {
    if (!no_draw) throw InputError("give --db FILE, or --board WxH --no-draw");
    game.emplace(resolve_variant(variant));
    report = verify_no_draw(*game, progress, static_cast<std::size_t>(listed));
  }

  const Board& board = game->board();
  const StuckRule rules = game->stuck_rule();
  if (json) {
    Json failures = Json::array();
    for (const VerificationFailure& failure : report.failures) {
      Json entry = Json::object();
      entry.set("position", failure.position).set("problem", failure.description);
      failures.push(entry);
    }
    Json out = Json::object();
    out.set("board", board.name())
        .set("start", square_name(board, game->start()))
        .set("rules", rules_name(rules))
        .set("steps", steps_name(board.steps()))
        .set("kind", kind)
        .set("checked", report.checked)
        .set("children", report.children)
        .set("failure_count", report.failure_count)
        .set("failures", failures)
        .set("draws", report.draws)
        .set("no_draw", report.no_draw ? Json(*report.no_draw) : Json(nullptr))
        .set("ok", report.ok());
    // A proof database stores no remoteness: the key is left out rather than given as 0.
    if (kind != "proof") out.set("max_remoteness", report.max_remoteness);
    if (kind == "proof") {
      out.set("leaves_solved", report.leaves_solved).set("leaf_nodes", report.leaf_nodes);
      // What the proof certifies, once every record has passed.
      if (report.ok() && report.proven_start_value) {
        out.set("proven_value", to_string(*report.proven_start_value));
      }
    }
    out.set("solve_seconds", report.solve_seconds).set("seconds", report.seconds);
    std::cout << out.dump() << "\n";
    return report.ok() ? 0 : 1;
  }

  std::cout << "Board " << board.name() << ", " << steps_name(board.steps()) << " steps, "
            << rules_name(rules) << " rules, start " << square_name(board, game->start()) << ", "
            << kind << " database"
            << (db.empty() ? " (solved in memory in " + std::to_string(report.solve_seconds) + " s)"
                           : std::string(": ") + db)
            << "\n"
            << "Checked:        " << report.checked << " positions, " << report.children
            << " children looked up, in " << report.seconds << " s\n";
  if (kind == "proof") {
    std::cout << "Leaves solved:  " << report.leaves_solved
              << " small endgames, by proof-number search (" << report.leaf_nodes << " nodes)\n";
  } else {
    std::cout << "Max remoteness: " << report.max_remoteness << " plies (bound "
              << board.square_count() - 1 << ")\n"
              << "Draws:          " << report.draws << "\n"
              << "No-draw:        " << no_draw_text(report, rules) << "\n";
  }
  std::cout << "Failures:       " << report.failure_count << "\n";
  for (const VerificationFailure& failure : report.failures) {
    std::cout << "  " << failure.position << ": " << failure.description << "\n";
  }
  if (report.failure_count > report.failures.size()) {
    std::cout << "  ... and " << report.failure_count - report.failures.size() << " more\n";
  }
  std::cout << "Result:         " << (report.ok() ? "OK" : "FAILED") << "\n";
  if (kind == "proof" && report.ok() && report.proven_start_value) {
    std::cout << "Proven:         the start is a " << to_string(*report.proven_start_value)
              << " for player 1\n";
  }
  return report.ok() ? 0 : 1;
}

}  // namespace rastros::tools
