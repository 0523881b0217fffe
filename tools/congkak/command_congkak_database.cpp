// Strong databases of small Congkak variants: built by `solve --game congkak --db FILE`,
// answered from by `query`, recomputed by `verify`, counted by `stats`.

#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>

#include "congkak/congkak_commands.hpp"
#include "congkak/congkak_options.hpp"
#include "core/errors.hpp"
#include "games/congkak/congkak_database.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "score_database_output.hpp"

namespace rastros::tools::congkak_cli {

using namespace rastros::congkak;

namespace {

// Exit status of a position the database does not hold.
constexpr int kNotHeld = 4;

}  // namespace

int write_database(const CongkakOptions& options, const std::string& file,
                   std::uint64_t memory_bytes, bool quiet, bool json) {
  if (options.moves || options.position) {
    throw InputError(
        "solve --db builds the database of the whole game: drop --moves and --position");
  }
  const Congkak game = resolve_input(options).game;
  const auto started = std::chrono::steady_clock::now();
  const engine::ScoreRecords records = build_congkak_database(game, [&](std::uint64_t states) {
    if (!quiet)
      std::cerr << "solve: " << human_count(static_cast<double>(states)) << " positions\n";
  }, memory_bytes);
  save_congkak_database(file, game, records);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const auto bytes = std::filesystem::file_size(file);
  const int start_score = *records.find(game.key(game.start()));
  if (json) {
    Json out = variant_json(game);
    out.set("positions", records.keys.size())
        .set("bytes", bytes)
        .set("start_score", start_score)
        .set("file", file)
        .set("seconds", seconds);
    std::cout << out.dump() << "\n";
  } else {
    std::cout << "Congkak(" << game.houses() << "," << game.seeds()
              << ") strong database: " << records.keys.size() << " positions, " << bytes
              << " bytes, start " << (start_score > 0 ? "+" : "") << start_score
              << " for player 1, written to " << file << " in " << seconds << " s\n";
  }
  return 0;
}

int run_query(const Arguments& arguments) {
  CongkakOptions options;
  std::string file;
  bool json = false, root_only = false;
  po::options_description description("Options");
  add_database_options(description, file, json, "solve --game congkak --db");
  add_congkak_options(description, options);
  description.add_options()("root-only", po::bool_switch(&root_only),
                            "the position's value and score alone, not each move's");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros query --game congkak --db FILE --houses M --seeds N "
                          "[--moves ... | --position ...]\n"
                          "Answers a Congkak position from a strong database: its value, final "
                          "score and every move's score. A position the database does not hold "
                          "(not reachable from the start) is refused with exit 4.")) {
    return 0;
  }
  const CongkakInput input = resolve_input(options);
  const engine::ScoreDatabaseReader records = open_congkak_database(file, input.game);
  const auto result = query_congkak_database(input.game, records, input.position, root_only);
  if (!result) {
    std::cerr << "rastros query: " << file << " does not hold position "
              << mancala::position_string(board_of(input.game), input.position)
              << " (not reachable from the start)\n";
    return kNotHeld;
  }
  const auto view = congkak_view(input);
  const mancala_cli::MancalaReport report{view, *result, root_only, 0, 0, -1, "database", false};
  if (json) {
    std::cout << mancala_cli::result_json(report).dump() << "\n";
  } else {
    mancala_cli::print_text(report);
  }
  return 0;
}

namespace {

/// A database named on the command line with the variant it must be of.
struct NamedDatabase {
  Congkak game;
  engine::ScoreRecords records;
  bool json = false;
};

/// The options of verify and stats: the database and its variant, loaded (nullopt after --help).
std::optional<NamedDatabase> load_named_database(const Arguments& arguments, const char* usage) {
  CongkakOptions options;
  std::string file;
  bool json = false;
  po::options_description description("Options");
  add_database_options(description, file, json, "solve --game congkak --db");
  add_congkak_options(description, options, false);
  if (!parse_command_line(arguments, description, usage)) return std::nullopt;
  Congkak game = resolve_input(options).game;
  engine::ScoreRecords records = load_congkak_database(file, game);
  return NamedDatabase{std::move(game), std::move(records), json};
}

}  // namespace

int run_verify(const Arguments& arguments) {
  const auto named = load_named_database(
      arguments,
      "Usage: rastros verify --game congkak --db FILE --houses M --seeds N\n"
      "Walks every position reachable from the start, recomputes its record from its moves' "
      "records and the rules, and checks that the file holds exactly those positions. Exit 0 "
      "when all agree, 1 otherwise.");
  if (!named) return 0;
  return print_database_verify(variant_json(named->game), named->records.keys.size(),
                               verify_congkak_database(named->game, named->records), named->json);
}

int run_stats(const Arguments& arguments) {
  const auto named = load_named_database(
      arguments,
      "Usage: rastros stats --game congkak --db FILE --houses M --seeds N\n"
      "Counts the positions of a Congkak strong database by seeds in the houses and by score "
      "(what the side to move gains from there on).");
  if (!named) return 0;
  print_database_stats(variant_json(named->game), "seeds", named->records.keys.size(),
                       count_congkak_database(named->game, named->records), named->json);
  return 0;
}

}  // namespace rastros::tools::congkak_cli
