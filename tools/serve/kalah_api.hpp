#pragma once
// Kalah in `rastros serve --game kalah`: the endpoints under /api/kalah/ for the one variant
// the server was started with (its houses, seeds and rule; requests may name them, and must
// then name the same), on the endpoints every mancala game shares (mancala_api.hpp). The rules,
// the solver and the seed-by-seed sowing are the library's (solver/games/kalah/); this file
// only reads requests and writes JSON.
//
//   GET /api/kalah/info                     the variant, its start, the endgame database, limits
//   GET /api/kalah/solve?moves=1+3          (or position=...) the JSON of
//       `rastros solve --game kalah --json` plus "source": "database" or "search"
//   GET /api/kalah/moves?moves=...          the JSON of `rastros show --game kalah --json`
//   GET /api/kalah/play?moves=...&move=3    the position after the move and its sowing path
//
// Solves go through the Api's search slots and time budget; answers from the endgame database,
// ended games, moves, plays, errors and solves already made (a cache) are answered at once.

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "games/kalah/kalah_analysis.hpp"
#include "kalah/kalah_options.hpp"
#include "serve/api.hpp"
#include "serve/mancala_api.hpp"

namespace rastros::tools::serve {

/// The variant a Kalah server plays and its endgame database (null: none).
struct KalahServe {
  kalah::Kalah game;
  std::shared_ptr<const kalah::KalahEndgame> endgame;
  /// The file it was read from; empty when built in memory.
  std::string endgame_file;
};

/// What MancalaApi (mancala_api.hpp) needs of Kalah: one variant a server, its endgame
/// database answering at once, KalahSolver searching, and the seed-by-seed sowing path.
struct KalahRules {
  static constexpr std::string_view kName = "kalah";
  static constexpr bool kVariableVariant = false;
  static constexpr std::array<std::string_view, 3> kVariantKeys{"houses", "seeds", "rules"};
  using Serve = KalahServe;
  using Input = kalah_cli::KalahInput;
  struct Solved {
    kalah::KalahResult result;
    std::uint64_t nodes = 0;
  };

  static std::vector<std::pair<std::string_view, std::string>> served(const Serve& serve);
  static std::string variant_name(const Serve& serve) { return serve.game.name(); }
  static Input resolve(const Serve& serve, const Parameters& parameters);
  static Json show_json(const Input& input);
  /// Ended games and database positions; nothing when a search is needed.
  static std::optional<Json> answer_now(const Serve& serve, const Input& input, double seconds);
  static std::string key(const Input& input);
  static Solved search(const Serve& serve, const ApiOptions& options, const Input& input,
                       const std::atomic<bool>& stopped, Clock::time_point until);
  static Json answer_json(const Serve& serve, const Input& input, const Solved& solved,
                          double seconds);
  static Json play_json(Input input, const std::string& move, bool from_moves);
  static Json info_json(const Serve& serve, const kalah::Kalah& game);
};

using KalahApi = MancalaApi<KalahRules>;
extern template class MancalaApi<KalahRules>;

}  // namespace rastros::tools::serve
