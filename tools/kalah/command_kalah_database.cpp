// `rastros query|verify|stats --game kalah --db FILE`: an endgame database written by
// `solve --game kalah --db FILE` answered from, checked record by record, and counted.

#include <chrono>
#include <iomanip>
#include <iostream>

#include "core/errors.hpp"
#include "games/kalah/kalah_analysis.hpp"
#include "kalah/kalah_commands.hpp"
#include "kalah/kalah_options.hpp"
#include "kalah/kalah_output.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace rastros::tools::kalah_cli {

using namespace rastros::kalah;

namespace {

// Exit status of a query the file cannot answer when searching was ruled out (as for Rastros).
constexpr int kNotInDatabase = 4;

std::string seconds_since(std::chrono::steady_clock::time_point started) {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::ostringstream text;
  text << std::fixed << std::setprecision(2) << seconds;
  return text.str();
}

}  // namespace

int run_query(const Arguments& arguments) {
  KalahOptions options;
  std::string file, memory = "64M";
  bool no_search = false, json = false, quiet = false;
  int threads = 0;
  po::options_description description("Options");
  description.add_options()("db", po::value(&file)->required(),
                            "an endgame database written by solve --game kalah --db");
  add_kalah_options(description, options);
  description.add_options()(
      "no-search", po::bool_switch(&no_search),
      "answer from the file only: a position with more seeds in play than it holds exits 4")(
      "memory", po::value(&memory)->default_value(memory), "transposition table of a search")(
      "quiet", po::bool_switch(&quiet), "no progress lines on stderr")(
      "json", po::bool_switch(&json), "print one JSON object");
  add_threads_option(description, threads);
  if (!parse_command_line(
          arguments, description,
          "Usage: rastros query --game kalah --db FILE [--moves ... | --position ...]\n"
          "Answers a Kalah position from an endgame database: its value, score and "
          "every move's score. A position with more seeds in play than the file "
          "holds is searched, the file answering the states it holds.")) {
    return 0;
  }
  const KalahInput input = resolve_input(options);
  {
    // A position the file holds is answered from the chunks its probes read, whatever the
    // file's size; a search needs every level, so the file is then read whole.
    const KalahEndgameFile opened(file, input.game);
    if (auto answer = answer_from_database(input.game, opened, input.position)) {
      const KalahReport report{input, *answer, false, 0, 0, opened.max_seeds(), "database"};
      if (json) {
        std::cout << result_json(report).dump() << "\n";
      } else {
        print_text(report);
      }
      return 0;
    }
    if (no_search) {
      std::cerr << "rastros query: " << position_string(input.game, input.position) << " has "
                << input.game.seeds_in_play(search_state(input.game, input.position))
                << " seeds in play, more than the file's " << opened.max_seeds()
                << ", and --no-search was given\n";
      return kNotInDatabase;
    }
  }
  const auto database = std::make_shared<KalahEndgame>(KalahEndgame::load(file, &input.game));
  const ThreadLimit limit(threads);
  const auto started = std::chrono::steady_clock::now();
  KalahSolver solver(input.game, {parse_memory_size(memory), false, false}, database.get());
  KalahResult result;
  {
    ProgressReporter progress(!quiet, [&](double) {
      return "query: " + human_count(static_cast<double>(solver.nodes())) + " nodes, " +
             seconds_since(started) + " s";
    });
    result = solver.solve(input.position);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const KalahReport report{input,   result, false, solver.nodes(), seconds, database->max_seeds(),
                           "search"};
  if (json) {
    std::cout << result_json(report).dump() << "\n";
  } else {
    print_text(report);
  }
  return 0;
}

int run_verify(const Arguments& arguments) {
  KalahOptions options;
  std::string file;
  bool json = false;
  int threads = 0;
  po::options_description description("Options");
  description.add_options()("db", po::value(&file)->required(),
                            "an endgame database written by solve --game kalah --db");
  add_kalah_options(description, options, false);
  description.add_options()("json", po::bool_switch(&json), "print one JSON object")(
      "quiet", po::bool_switch(), "accepted for uniformity");
  add_threads_option(description, threads);
  if (!parse_command_line(
          arguments, description,
          "Usage: rastros verify --game kalah --db FILE [--houses M --rules R]\n"
          "Checks every record of a Kalah endgame database against its moves: "
          "each score must be the best of its moves' (what the move banks, plus "
          "or minus the next state's record). Exit 0 when all hold, 1 otherwise.")) {
    return 0;
  }
  const Kalah game = resolve_game(options);
  const KalahEndgame database = KalahEndgame::load(file, &game);
  const ThreadLimit limit(threads);
  const auto started = std::chrono::steady_clock::now();
  const auto error = database.verify(game);
  if (json) {
    Json out = variant_json(game);
    out.set("db", file)
        .set("endgame_seeds", database.max_seeds())
        .set("states", database.size())
        .set("ok", !error.has_value());
    if (error) out.set("failure", *error);
    std::cout << out.dump() << "\n";
  } else {
    std::cout << "Kalah endgame database, " << game.houses() << " houses, "
              << rules_name(game.rule()) << " rules, at most " << database.max_seeds()
              << " seeds in play\n"
              << "States checked: " << database.size() << " in " << seconds_since(started) << " s\n"
              << "Result:         " << (error ? "FAILED: " + *error : std::string("OK")) << "\n";
  }
  return error ? 1 : 0;
}

int run_stats(const Arguments& arguments) {
  KalahOptions options;
  std::string file;
  bool json = false, csv = false;
  po::options_description description("Options");
  description.add_options()("db", po::value(&file)->required(),
                            "an endgame database written by solve --game kalah --db");
  add_kalah_options(description, options, false);
  description.add_options()("json", po::bool_switch(&json), "print one JSON object")(
      "csv", po::bool_switch(&csv), "print CSV: seeds,states,wins,draws,losses,mean_score")(
      "quiet", po::bool_switch(), "accepted for uniformity");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros stats --game kalah --db FILE [--houses M --rules R]\n"
                          "States of a Kalah endgame database by seeds in play: how many, and how "
                          "many the side to move wins, draws and loses from there on (the score "
                          "counts what is still in play, not the stores).")) {
    return 0;
  }
  if (json && csv) throw InputError("give either --json or --csv, not both");
  const Kalah game = resolve_game(options);
  const KalahEndgame database = KalahEndgame::load(file, &game);
  const auto counts = database.score_counts();
  Json levels = Json::array();
  if (csv) std::cout << "seeds,states,wins,draws,losses,mean_score\n";
  if (!json && !csv) {
    std::cout << "Kalah endgame database, " << game.houses() << " houses, "
              << rules_name(game.rule()) << " rules (" << database.size() << " states)\n"
              << " seeds        states          wins         draws        losses  mean score\n";
  }
  for (int seeds = 0; seeds < static_cast<int>(counts.size()); ++seeds) {
    std::uint64_t total = 0, wins = 0, draws = 0, losses = 0;
    double sum = 0;
    for (int i = 0; i < static_cast<int>(counts[seeds].size()); ++i) {
      const int score = i - seeds;
      const std::uint64_t n = counts[seeds][i];
      total += n;
      (score > 0 ? wins : score < 0 ? losses : draws) += n;
      sum += static_cast<double>(score) * static_cast<double>(n);
    }
    const double mean = total ? sum / static_cast<double>(total) : 0;
    if (json) {
      Json level = Json::object();
      level.set("seeds", seeds)
          .set("states", total)
          .set("wins", wins)
          .set("draws", draws)
          .set("losses", losses)
          .set("mean_score", mean);
      levels.push(level);
    } else if (csv) {
      std::cout << seeds << ',' << total << ',' << wins << ',' << draws << ',' << losses << ','
                << mean << "\n";
    } else {
      std::cout << std::setw(6) << seeds << std::setw(14) << total << std::setw(14) << wins
                << std::setw(14) << draws << std::setw(14) << losses << std::setw(12) << std::fixed
                << std::setprecision(3) << mean << "\n";
    }
  }
  if (json) {
    Json out = variant_json(game);
    out.set("db", file)
        .set("endgame_seeds", database.max_seeds())
        .set("states", database.size())
        .set("levels", levels);
    std::cout << out.dump() << "\n";
  }
  return 0;
}

}  // namespace rastros::tools::kalah_cli
