#include "oware/oware_endgame_options.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>

#include "core/errors.hpp"

namespace rastros::tools::oware_cli {

using namespace rastros::oware;

namespace {

constexpr std::uint64_t kDefaultPositions = 1'000'000;

int default_seeds(const Oware& game) {
  int seeds = 0;
  while (seeds < kMaxDatabaseSeeds &&
         OwareDatabase::states_up_to(game, seeds + 1) <= kDefaultPositions) {
    ++seeds;
  }
  return seeds;
}

BuildOptions progress_options(bool quiet) {
  BuildOptions options;
  if (!quiet) {
    options.progress = [](int seeds, std::uint64_t states, bool resumed) {
      std::cerr << "oware database: level " << seeds << ", " << states << " positions"
                << (resumed ? " (read from the checkpoint)" : "") << "\n";
    };
  }
  return options;
}

}  // namespace

void add_endgame_options(po::options_description& description, EndgameOptions& options) {
  description.add_options()(
      "endgame", po::value<std::string>()->notifier([&](const std::string& v) { options.file = v; }),
      "an endgame database written by solve --game oware --db")(
      "endgame-seeds", po::value<int>()->notifier([&](int v) { options.seeds = v; }),
      "the most seeds on the board of the database (built in memory, or by --db)")(
      "max-positions", po::value(&options.max_positions)->default_value(options.max_positions),
      "the most positions beyond the database a solve may gather before it refuses");
}

std::shared_ptr<const OwareDatabase> database_for_solve(const Oware& game,
                                                        const EndgameOptions& options, bool quiet) {
  return database_for_solve(game, options.file, options.seeds, quiet);
}

std::shared_ptr<const OwareDatabase> database_for_solve(const Oware& game,
                                                        const std::optional<std::string>& file,
                                                        std::optional<int> seeds, bool quiet) {
  if (file && seeds) throw InputError("give --endgame or --endgame-seeds, not both");
  if (file) return std::make_shared<OwareDatabase>(OwareDatabase::load(*file, &game));
  // No level above the variant's seeds can occur.
  const int k = seeds ? *seeds : std::min(default_seeds(game), game.total_seeds());
  return std::make_shared<OwareDatabase>(
      OwareDatabase::build(game, k, progress_options(quiet || !seeds)));
}

int write_database(const Oware& game, const EndgameOptions& endgame, const std::string& file,
                   const std::string& checkpoint, bool resume, bool quiet, bool json) {
  if (!endgame.seeds) throw InputError("solve --game oware --db FILE needs --endgame-seeds K");
  if (resume && checkpoint.empty()) throw InputError("--resume needs --checkpoint DIR");
  BuildOptions options = progress_options(quiet);
  options.checkpoint = checkpoint;
  options.resume = resume;
  const auto started = std::chrono::steady_clock::now();
  const OwareDatabase database = OwareDatabase::build(game, *endgame.seeds, options);
  database.save(file);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (json) {
    Json out = Json::object();
    out.set("game", "oware").set("houses", game.houses()).set("max_seeds", database.max_seeds())
        .set("positions", database.size()).set("file", file).set("seconds", seconds);
    std::cout << out.dump() << "\n";
  } else {
    std::cout << "Oware endgame database, " << game.houses() << " houses, 0.." << database.max_seeds()
              << " seeds: " << database.size() << " positions, written to " << file << "\n";
  }
  return 0;
}

}  // namespace rastros::tools::oware_cli
