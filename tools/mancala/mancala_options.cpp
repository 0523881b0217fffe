#include "mancala/mancala_options.hpp"

#include <chrono>
#include <iostream>

#include "core/errors.hpp"
#include "progress.hpp"

namespace rastros::tools::mancala_cli {

void add_size_options(po::options_description& description, MancalaOptions& options) {
  description.add_options()("houses", po::value(&options.houses)->default_value(options.houses),
                            "houses per player, 1..8")(
      "seeds", po::value(&options.seeds)->default_value(options.seeds),
      "seeds per house at the start (at most 250 seeds in all)");
}

void add_position_options(po::options_description& description, MancalaOptions& options,
                          const std::string& example) {
  description.add_options()(
      "moves", po::value<std::string>()->notifier([&](const std::string& v) { options.moves = v; }),
      "moves from the start, house numbers 1..M counted from the mover's side: \"3 6 1\"")(
      "position",
      po::value<std::string>()->notifier([&](const std::string& v) { options.position = v; }),
      ("position string instead of moves: \"" + example + "\"").c_str());
}

std::string player_name(int player) {
  return "player " + std::to_string(player + 1);
}

void check_endgame_fits(const std::string& game_name, int seeds, double bytes) {
  const double machine = physical_memory_bytes();
  if (machine > 0 && bytes > 0.8 * machine) {
    throw InputError("an endgame database of " + std::to_string(seeds) + " seeds for " + game_name +
                     " needs about " + human_count(bytes) + "B; this machine has " +
                     human_count(machine) + "B: lower --endgame-seeds");
  }
}

std::function<void(int, std::uint64_t)> endgame_build_progress(bool quiet) {
  const auto started = std::chrono::steady_clock::now();
  return [quiet, started](int level, std::uint64_t states) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (quiet || elapsed < 1) return;  // a quick build says nothing
    std::cerr << "endgame database: " << level << " seeds ("
              << human_count(static_cast<double>(states)) << " states) done after "
              << static_cast<int>(elapsed) << " s\n";
  };
}

}  // namespace rastros::tools::mancala_cli
