#pragma once
// Oware in `rastros serve --game oware`: the endpoints every mancala game shares
// (mancala_api.hpp) under /api/oware/, for the variant the server was started with. A position
// with at most the endgame database's K seeds on the board is answered from it at once; one
// beyond is solved by the library's exact search (games/oware/oware_analysis.hpp), whose
// leaves are the database, within the server's time budget and at most --max-positions
// positions: past that the answer is "value": "unknown", never a guess. A play answers with
// the move seed by seed and the houses captured (games/oware/oware_sowing.hpp).

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "games/oware/oware_analysis.hpp"
#include "games/oware/oware_database.hpp"
#include "games/oware/oware_play.hpp"
#include "oware/oware_options.hpp"
#include "serve/mancala_api.hpp"

namespace rastros::tools::serve {

/// The variant an Oware server plays, its endgame database and the search's budget.
struct OwareServe {
  oware::Oware game{6, 4};
  std::shared_ptr<const oware::OwareDatabase> database;
  /// The file it was read from; empty when built in memory.
  std::string database_file;
  /// The most positions beyond the database a solve may gather; beyond, "unknown".
  std::uint64_t max_positions = 2'000'000;
  /// The computer's move among the best (made from `game` and `database` when absent).
  std::shared_ptr<const oware::ProgressChooser> chooser;
};

struct OwareRules {
  static constexpr std::string_view kName = "oware";
  static constexpr bool kVariableVariant = false;
  static constexpr std::array<std::string_view, 2> kVariantKeys{"houses", "seeds"};
  using Serve = OwareServe;
  using Input = oware::OwareInput;
  /// Nothing: over the positions budget.
  using Solved = std::optional<oware::OwareAnalysis>;

  static std::vector<std::pair<std::string_view, std::string>> served(const Serve& serve);
  static std::string variant_name(const Serve& serve) { return serve.game.name(); }
  static Input resolve(const Serve& serve, const Parameters& parameters);
  static Json show_json(const Input& input);
  /// Ended games and positions of the database; nothing when a search is needed.
  static std::optional<Json> answer_now(const Serve& serve, const Input& input, double seconds);
  static std::string key(const Input& input);
  static Solved search(const Serve& serve, const ApiOptions& options, const Input& input,
                       const std::atomic<bool>& stopped, Clock::time_point until);
  static Json answer_json(const Serve& serve, const Input& input, const Solved& solved,
                          double seconds);
  static Json play_json(Input input, const std::string& move, bool from_moves);
  static Json info_json(const Serve& serve, const oware::Oware& game);
};

using OwareApi = MancalaApi<OwareRules>;
extern template class MancalaApi<OwareRules>;

}  // namespace rastros::tools::serve
