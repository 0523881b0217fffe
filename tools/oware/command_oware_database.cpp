// `rastros query|verify|stats --game oware --db FILE`: an endgame database written by
// `solve --game oware --db FILE` answered from, recomputed level by level, and counted.

#include <iostream>

#include "core/errors.hpp"
#include "games/oware/oware_analysis.hpp"
#include "options.hpp"
#include "oware/oware_commands.hpp"
#include "oware/oware_endgame_options.hpp"

namespace rastros::tools::oware_cli {

using namespace rastros::oware;

int answer(const OwareInput& input, const OwareDatabase& database, std::uint64_t max_positions,
           bool json, const char* command);
int print_analysis(const OwareInput& input, const OwareAnalysis& analysis, int max_seeds,
                   bool json);

int run_query(const Arguments& arguments) {
  OwareOptions options;
  std::string file;
  std::uint64_t max_positions = 2'000'000;
  bool json = false;
  int threads = 0;
  po::options_description description("Options");
  description.add_options()("db", po::value(&file)->required(),
                            "an endgame database written by solve --game oware --db");
  add_oware_options(description, options);
  description.add_options()("max-positions",
                            po::value(&max_positions)->default_value(max_positions),
                            "the most positions beyond the database to search (0: none)")(
      "quiet", po::bool_switch(), "accepted for uniformity")("json", po::bool_switch(&json),
                                                             "print one JSON object");
  add_threads_option(description, threads);
  if (!parse_command_line(
          arguments, description,
          "Usage: rastros query --game oware --db FILE [--moves ... | --position ...]\n"
          "Answers an Oware position from an endgame database: its score, value "
          "and every move's score. A position with more seeds than the file holds "
          "is searched, the file answering the positions it holds, or refused "
          "(exit 4).")) {
    return 0;
  }
  const OwareInput input = resolve_input(options);
  {
    // A position the file holds is answered from the chunks its probes read, whatever the
    // file's size; a search needs every level, so the file is then read whole.
    const OwareDatabaseFile opened(file, input.game);
    const OwareState state = search_state(input.game, input.position);
    if (const auto analysis = answer_from_database(input.game, opened, state)) {
      return print_analysis(input, *analysis, opened.max_seeds(), json);
    }
  }
  const OwareDatabase database = OwareDatabase::load(file, &input.game);
  const ThreadLimit limit(threads);
  return answer(input, database, max_positions, json, "query");
}

int run_verify(const Arguments& arguments) {
  OwareOptions options;
  std::string file;
  bool json = false;
  int threads = 0;
  po::options_description description("Options");
  description.add_options()("db", po::value(&file)->required(),
                            "an endgame database written by solve --game oware --db");
  add_oware_options(description, options, false);
  description.add_options()("json", po::bool_switch(&json), "print one JSON object")(
      "quiet", po::bool_switch(), "accepted for uniformity");
  add_threads_option(description, threads);
  if (!parse_command_line(arguments, description,
                          "Usage: rastros verify --game oware --db FILE [--houses M]\n"
                          "Recomputes every level of an Oware endgame database from the rules "
                          "and the levels below it (cycles included) and compares every record. "
                          "Exit 0 when all agree, 1 otherwise.")) {
    return 0;
  }
  const Oware game = resolve_game(options);
  const OwareDatabase database = OwareDatabase::load(file, &game);
  const ThreadLimit limit(threads);
  const auto problem = database.verify(game);
  if (json) {
    Json out = Json::object();
    out.set("game", "oware")
        .set("houses", database.houses())
        .set("max_seeds", database.max_seeds())
        .set("positions", database.size())
        .set("ok", !problem);
    if (problem) out.set("problem", *problem);
    std::cout << out.dump() << "\n";
  } else if (problem) {
    std::cout << "verify: FAILED at " << *problem << "\n";
  } else {
    std::cout << "verify: ok, " << database.size() << " positions of 0.." << database.max_seeds()
              << " seeds recomputed\n";
  }
  return problem ? 1 : 0;
}

int run_stats(const Arguments& arguments) {
  OwareOptions options;
  std::string file;
  bool json = false;
  po::options_description description("Options");
  description.add_options()("db", po::value(&file)->required(),
                            "an endgame database written by solve --game oware --db");
  add_oware_options(description, options, false);
  description.add_options()("json", po::bool_switch(&json), "print one JSON object")(
      "quiet", po::bool_switch(), "accepted for uniformity");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros stats --game oware --db FILE [--houses M]\n"
                          "Counts the positions of an Oware endgame database by seeds on the "
                          "board and by score.")) {
    return 0;
  }
  const Oware game = resolve_game(options);
  const OwareDatabase database = OwareDatabase::load(file, &game);
  const auto counts = database.score_counts();
  Json levels = Json::array();
  for (std::size_t seeds = 0; seeds < counts.size(); ++seeds) {
    std::uint64_t total = 0, ahead = 0, level = 0, behind = 0;
    Json by_score = Json::object();
    for (std::size_t i = 0; i < counts[seeds].size(); ++i) {
      const int score = static_cast<int>(i) - static_cast<int>(seeds);
      const std::uint64_t n = counts[seeds][i];
      total += n;
      (score > 0 ? ahead : score < 0 ? behind : level) += n;
      if (n) by_score.set(std::to_string(score), n);
    }
    if (json) {
      Json entry = Json::object();
      entry.set("seeds", static_cast<int>(seeds)).set("positions", total).set("by_score", by_score);
      levels.push(entry);
    } else {
      std::cout << "seeds " << seeds << ": " << total << " positions, score > 0: " << ahead
                << ", 0: " << level << ", < 0: " << behind << "\n";
    }
  }
  if (json) {
    Json out = Json::object();
    out.set("game", "oware")
        .set("houses", database.houses())
        .set("max_seeds", database.max_seeds())
        .set("levels", levels);
    std::cout << out.dump() << "\n";
  }
  return 0;
}

}  // namespace rastros::tools::oware_cli
