#pragma once
// Kalah in `rastros serve --game kalah`: the endpoints under /api/kalah/ for the one variant
// the server was started with (its houses, seeds and rule; requests may name them, and must
// then name the same). The rules, the solver and the seed-by-seed sowing are the library's
// (solver/games/kalah/); this file only reads requests and writes JSON.
//
//   GET /api/kalah/info                     the variant, its start, the endgame database, limits
//   GET /api/kalah/solve?moves=1+3          (or position=...) the JSON of
//       `rastros solve --game kalah --json` plus "source": "database" or "search"
//   GET /api/kalah/moves?moves=...          the JSON of `rastros show --game kalah --json`
//   GET /api/kalah/play?moves=...&move=3    the position after the move and its sowing path
//
// Solves go through the Api's search slots and time budget; answers from the endgame database,
// ended games, moves, plays, errors and solves already made (a cache) are answered at once.

#include <boost/program_options.hpp>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/kalah/kalah_analysis.hpp"
#include "kalah/kalah_endgame_options.hpp"
#include "kalah/kalah_options.hpp"
#include "serve/api.hpp"
#include "serve/lru_cache.hpp"

namespace rastros::tools::serve {

/// The variant a Kalah server plays and its endgame database (null: none).
struct KalahServe {
  kalah::Kalah game;
  std::shared_ptr<const kalah::KalahEndgame> endgame;
  /// The file it was read from; empty when built in memory.
  std::string endgame_file;
};

class KalahApi {
 public:
  KalahApi(Api& api, KalahServe serve);

  /// The response to /api/kalah/...; nothing when it needs a search and `may_search` is false.
  /// Throws InputError (400) and SearchCancelled (503) as the Api's own endpoints do.
  std::optional<Response> respond(std::string_view path,
                                  const std::map<std::string, std::string>& values,
                                  Clock::time_point received, bool may_search);

 private:
  struct Solved {
    kalah::KalahResult result;
    std::uint64_t nodes = 0;
  };
  kalah_cli::KalahInput input_of(const Parameters& parameters) const;
  std::optional<Response> solve(const Parameters& parameters, Clock::time_point received,
                                bool may_search);
  Response play(const Parameters& parameters) const;
  Response info() const;

  Api& api_;
  KalahServe serve_;
  LruCache<Solved> cache_;
};

/// `rastros serve`'s Kalah options: --houses --seeds --rules (no defaults here: given only with
/// --game kalah) and --endgame FILE / --endgame-seeds K.
struct KalahServeOptions {
  std::optional<int> houses;
  std::optional<int> seeds;
  std::optional<std::string> rules;
  kalah_cli::EndgameOptions endgame;
};
void add_kalah_serve_options(boost::program_options::options_description& description,
                             KalahServeOptions& options);

/// Sets `api` up for the game of `arguments` (--game): for kalah, the variant (default
/// Kalah(4,4), standard rules) and its endgame database (built, or read from --endgame); for
/// rastros, checks that no Kalah option was given. Throws InputError for options that do not
/// apply (--db with kalah, --houses without it), FileError for an unusable --endgame file.
/// Returns a line describing the game served ("kalah(4,4), endgame database of 20 seeds").
std::string configure_game(Api& api, const std::vector<std::string>& arguments,
                           const KalahServeOptions& options,
                           const std::vector<std::string>& databases, bool quiet);

}  // namespace rastros::tools::serve
