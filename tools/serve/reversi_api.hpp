#pragma once
// Reversi in `rastros serve --game reversi`: the endpoints under /api/reversi/ for the board
// the server was started with (requests may name it with board=, and must then name the same).
// The rules, the exact solver and the evaluation search are the library's
// (solver/games/reversi/); this file only reads requests and writes JSON.
//
//   GET /api/reversi/info                 the board, its start, the exact threshold, limits
//   GET /api/reversi/moves?moves=f5+d6    (or position=...) the JSON of
//       `rastros show --game reversi --json`
//   GET /api/reversi/play?moves=...&move=d3   that JSON after the move, with the discs it
//       turned ("flipped") and the move's player
//   GET /api/reversi/hint?moves=...       the program's advice: within the exact threshold
//       every move's exact final margin ("exact": true), else the best move of the evaluation
//       search and its estimate ("exact": false, "depth")
//
// Hints go through the Api's search slots and time budget (an exact solve is only tried within
// the threshold); moves, plays, errors and hints already given (a cache) are answered at once.

#include <boost/program_options.hpp>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/reversi/reversi_play.hpp"
#include "serve/api.hpp"
#include "serve/lru_cache.hpp"

namespace rastros::tools::serve {

/// The board a Reversi server plays and how its program plays.
struct ReversiServe {
  reversi::Reversi game;
  reversi::ReversiPlayOptions play;
};

class ReversiApi {
 public:
  ReversiApi(Api& api, ReversiServe serve);

  /// The response to /api/reversi/...; nothing when it needs a search and `may_search` is
  /// false. Throws InputError (400) and SearchCancelled (503) as the Api's own endpoints do.
  std::optional<Response> respond(std::string_view path,
                                  const std::map<std::string, std::string>& values,
                                  Clock::time_point received, bool may_search);

 private:
  struct Advised {
    reversi::ReversiAdvice advice;
  };
  reversi::ReversiInput input_of(const Parameters& parameters) const;
  std::optional<Response> hint(const Parameters& parameters, Clock::time_point received,
                               bool may_search);
  Response play(const Parameters& parameters) const;
  Response info() const;

  Api& api_;
  ReversiServe serve_;
  int exact_empties_;
  LruCache<Advised> cache_;
};

/// `rastros serve`'s Reversi options: --board, --exact-empties, --depth (given only with
/// --game reversi).
struct ReversiServeOptions {
  std::optional<std::string> board;
  std::optional<int> exact_empties;
  std::optional<int> depth;
};
void add_reversi_serve_options(boost::program_options::options_description& description,
                               ReversiServeOptions& options);

/// Sets `api` up for Reversi when `arguments` name --game reversi, and returns a line
/// describing the game served; otherwise checks that no Reversi option was given and returns
/// "". Throws InputError for options that do not apply (--db with reversi, --board without).
std::string configure_reversi(Api& api, const std::vector<std::string>& arguments,
                              const ReversiServeOptions& options,
                              const std::vector<std::string>& databases);

}  // namespace rastros::tools::serve
