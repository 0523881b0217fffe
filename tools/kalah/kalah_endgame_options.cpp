#include "kalah/kalah_endgame_options.hpp"

#include <chrono>
#include <iostream>

#include "core/errors.hpp"
#include "mancala/mancala_options.hpp"
#include "progress.hpp"

namespace rastros::tools::kalah_cli {

using namespace rastros::kalah;

namespace {

// An in-memory database of this many states builds in a fraction of a second and answers
// every position near the end of a game at once.
constexpr std::uint64_t kAutoStates = std::uint64_t{2} << 20;

std::shared_ptr<const KalahEndgame> build(const Kalah& game, int seeds, bool quiet) {
  mancala_cli::check_endgame_fits(game.name(), seeds,
                                  static_cast<double>(KalahEndgame::build_bytes(game, seeds)));
  return std::make_shared<KalahEndgame>(
      KalahEndgame::build(game, seeds, mancala_cli::endgame_build_progress(quiet)));
}

}  // namespace

void add_endgame_options(po::options_description& description, EndgameOptions& options) {
  description.add_options()(
      "endgame",
      po::value<std::string>()->notifier([&](const std::string& v) { options.file = v; }),
      "an endgame database file (written by solve --db) answering states with few seeds left")(
      "endgame-seeds", po::value<int>()->notifier([&](int v) { options.seeds = v; }),
      "build an endgame database of states with at most this many seeds in play first (default: "
      "as many as build in well under a second; -1: none)");
}

std::shared_ptr<const KalahEndgame> endgame_for_search(const Kalah& game,
                                                       const EndgameOptions& options, bool quiet) {
  if (options.file && options.seeds) {
    throw InputError("give either --endgame or --endgame-seeds, not both");
  }
  if (options.file) {
    return std::make_shared<KalahEndgame>(KalahEndgame::load(*options.file, &game));
  }
  const int seeds = options.seeds.value_or(KalahEndgame::seeds_within(game, kAutoStates));
  if (seeds == -1) return nullptr;
  return build(game, seeds, quiet);
}

int write_endgame_database(const KalahOptions& options, const EndgameOptions& endgame,
                           const std::string& file, bool quiet, bool json) {
  if (options.moves || options.position) {
    throw InputError(
        "solve --db builds a database of every state: --moves and --position do not apply");
  }
  if (endgame.file) throw InputError("--endgame does not apply to solve --db");
  const Kalah game = resolve_game(options);
  const int seeds = endgame.seeds.value_or(game.total_seeds());
  const auto started = std::chrono::steady_clock::now();
  if (seeds < 0) throw InputError("--endgame-seeds must be at least 0 with --db");
  const auto database = build(game, seeds, quiet);
  database->save(file);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (json) {
    Json out = variant_json(game);
    out.set("db", file)
        .set("endgame_seeds", seeds)
        .set("states", database->size())
        .set("seconds", seconds);
    std::cout << out.dump() << "\n";
  } else {
    std::cout << "Wrote " << file << ": every state of " << 2 * game.houses()
              << " houses with at most " << seeds << " seeds in play (" << database->size()
              << " states, " << rules_name(game.rule()) << " rules) in " << seconds << " s\n";
  }
  return 0;
}

}  // namespace rastros::tools::kalah_cli
