#pragma once
// Oware in `rastros serve --game oware`: the endpoints every mancala game shares
// (mancala_api.hpp) under /api/oware/, for any variant a request names (by default the one
// the server was started with, whose endgame database --endgame or --endgame-seeds gives;
// another variant's is built in memory when first asked for, as solve's default). A position
// with at most the endgame database's K seeds on the board is answered from it at once; one
// beyond is solved by the library's exact search (games/oware/oware_analysis.hpp), whose
// leaves are the database, within the server's time budget and at most --max-positions
// positions: past that the answer is "value": "unknown", never a guess. A play answers with
// the move seed by seed and the houses captured (games/oware/oware_sowing.hpp).

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
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

/// A variant's endgame database and the chooser of the computer's moves over it.
struct OwareVariantData {
  std::shared_ptr<const oware::OwareDatabase> database;
  std::shared_ptr<const oware::ProgressChooser> chooser;
};

/// The databases of the variants requests have named: the server's, given, and the others',
/// built in memory (the default K of solve) the first time each is asked for. Thread-safe.
class OwareVariants {
 public:
  OwareVariants(const oware::Oware& served, std::shared_ptr<const oware::OwareDatabase> database);
  /// The variant's database and chooser. Throws InputError for a database too large to build.
  OwareVariantData of(const oware::Oware& game) const;

  /// The most variants other than the server's kept at once (then the oldest go).
  static constexpr std::size_t kMaxKept = 8;

 private:
  std::string served_;
  OwareVariantData served_data_;
  mutable std::mutex mutex_;
  mutable std::vector<std::pair<std::string, OwareVariantData>> others_;  // oldest first
};

/// The variant an Oware server starts with, its endgame database and the search's budget.
struct OwareServe {
  oware::Oware game{6, 4};
  std::shared_ptr<const oware::OwareDatabase> database;
  /// The file it was read from; empty when built in memory.
  std::string database_file;
  /// The most positions beyond the database a solve may gather; beyond, "unknown".
  std::uint64_t max_positions = 2'000'000;
  /// Every variant's database and chooser, the server's among them.
  std::shared_ptr<const OwareVariants> variants;
};

/// A server's settings with its variants made from `game` and `database`.
OwareServe make_oware_serve(const oware::Oware& game,
                            std::shared_ptr<const oware::OwareDatabase> database,
                            std::string database_file, std::uint64_t max_positions);

struct OwareRules {
  static constexpr std::string_view kName = "oware";
  static constexpr bool kVariableVariant = true;
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
