// The strong database of Reversi 4×4: built by `solve --game reversi --board 4x4 --db FILE`,
// answered from by `query`, recomputed by `verify`, counted by `stats`.

#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>

#include "core/errors.hpp"
#include "games/reversi/reversi_database.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "reversi/reversi_commands.hpp"
#include "reversi/reversi_options.hpp"
#include "reversi/reversi_result_json.hpp"
#include "score_database_output.hpp"

namespace rastros::tools::reversi_cli {

using namespace rastros::reversi;

namespace {

// Exit status of a position the database does not hold.
constexpr int kNotHeld = 4;

/// The keys every JSON output on a database starts with.
Json database_head(const ReversiOptions& options) {
  Json head = Json::object();
  head.set("game", "reversi").set("board", options.board);
  return head;
}

/// The board of the commands on a database: 4x4 unless --board names another (refused when
/// the file is read).
Reversi database_game(const ReversiOptions& options) {
  return Reversi(parse_board_size(options.board));
}

}  // namespace

int write_database(const ReversiOptions& options, const std::string& file, bool quiet, bool json) {
  const ReversiInput input = resolve_input(options);
  if (!input.moves.empty() || options.position) {
    throw InputError(
        "solve --db builds the database of the whole game: drop --moves and --position");
  }
  const auto started = std::chrono::steady_clock::now();
  const engine::ScoreRecords records =
      build_reversi_database(input.game, [&](std::uint64_t states) {
        if (!quiet)
          std::cerr << "solve: " << human_count(static_cast<double>(states)) << " positions\n";
      });
  save_reversi_database(file, input.game, records);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const auto bytes = std::filesystem::file_size(file);
  const int start_score = *records.find(input.game.key(input.game.start()));
  if (json) {
    Json out = Json::object();
    out.set("game", "reversi")
        .set("board", options.board)
        .set("positions", records.keys.size())
        .set("bytes", bytes)
        .set("start_score", start_score)
        .set("file", file)
        .set("seconds", seconds);
    std::cout << out.dump() << "\n";
  } else {
    std::cout << "Reversi " << options.board << " strong database: " << records.keys.size()
              << " positions, " << bytes << " bytes, start " << (start_score > 0 ? "+" : "")
              << start_score << " for black, written to " << file << " in " << seconds << " s\n";
  }
  return 0;
}

int run_query(const Arguments& arguments) {
  ReversiOptions options;
  options.board = "4x4";
  std::string file;
  bool json = false, root_only = false;
  po::options_description description("Options");
  add_database_options(description, file, json, "solve --game reversi --board 4x4 --db");
  add_reversi_options(description, options);
  description.add_options()("root-only", po::bool_switch(&root_only),
                            "the position's value and score alone, not each move's");
  if (!parse_command_line(
          arguments, description,
          "Usage: rastros query --game reversi --db FILE [--moves ... | --position ...]\n"
          "Answers a Reversi 4x4 position from a strong database: its value, "
          "score and every move's score. A position the database does not hold "
          "(not reachable from the start) is refused with exit 4.")) {
    return 0;
  }
  const ReversiInput input = resolve_input(options);
  const engine::ScoreDatabaseReader records = open_reversi_database(file, input.game);
  const auto result = query_reversi_database(input.game, records, input.position, root_only);
  if (!result) {
    std::cerr << "rastros query: " << file << " does not hold position "
              << position_string(input.game, input.position) << " (not reachable from the start)\n";
    return kNotHeld;
  }
  const ReversiReport report{input, *result, root_only, 0, 0, false};
  if (json) {
    std::cout << result_json(report).dump() << "\n";
  } else {
    print_result_text(report);
  }
  return 0;
}

namespace {

/// A database named on the command line with the board it must be of.
struct NamedDatabase {
  ReversiOptions options;
  Reversi game;
  engine::ScoreRecords records;
  bool json = false;
};

/// The options of verify and stats: the database and its board, loaded (nullopt after --help).
std::optional<NamedDatabase> load_named_database(const Arguments& arguments, const char* usage) {
  ReversiOptions options;
  options.board = "4x4";
  std::string file;
  bool json = false;
  po::options_description description("Options");
  add_database_options(description, file, json, "solve --game reversi --board 4x4 --db");
  description.add_options()("board", po::value(&options.board)->default_value(options.board),
                            "the database's board: 4x4");
  if (!parse_command_line(arguments, description, usage)) return std::nullopt;
  Reversi game = database_game(options);
  engine::ScoreRecords records = load_reversi_database(file, game);
  return NamedDatabase{options, game, std::move(records), json};
}

}  // namespace

int run_verify(const Arguments& arguments) {
  const auto named = load_named_database(
      arguments,
      "Usage: rastros verify --game reversi --db FILE\n"
      "Walks every position reachable from the start, recomputes its record from its moves' "
      "records and the rules, and checks that the file holds exactly those positions. Exit 0 "
      "when all agree, 1 otherwise.");
  if (!named) return 0;
  return print_database_verify(database_head(named->options), named->records.keys.size(),
                               verify_reversi_database(named->game, named->records), named->json);
}

int run_stats(const Arguments& arguments) {
  const auto named = load_named_database(
      arguments,
      "Usage: rastros stats --game reversi --db FILE\n"
      "Counts the positions of a Reversi strong database by empty squares and by score for the "
      "side to move.");
  if (!named) return 0;
  print_database_stats(database_head(named->options), "empties", named->records.keys.size(),
                       count_reversi_database(named->game, named->records), named->json);
  return 0;
}

}  // namespace rastros::tools::reversi_cli
