#pragma once
// Congkak in `rastros serve --game congkak`: the endpoints every mancala game shares
// (mancala_api.hpp) under /api/congkak/, for any variant: a request names its houses and seeds
// (the server's --houses and --seeds when it does not), so the page can start a game of any
// Congkak(M,N). Solves are the library's CongkakSolver within the server's time budget; a play
// answers with the move's relay sowing lap by lap (games/congkak/congkak_sowing.hpp), each
// lap's seeds in the pits they fell into, which the page animates.

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "congkak/congkak_options.hpp"
#include "games/congkak/congkak_analysis.hpp"
#include "serve/mancala_api.hpp"

namespace rastros::tools::serve {

/// The variant a Congkak server starts its page with.
struct CongkakServe {
  congkak::Congkak game{7, 7};
};

struct CongkakRules {
  static constexpr std::string_view kName = "congkak";
  static constexpr bool kVariableVariant = true;
  static constexpr std::array<std::string_view, 2> kVariantKeys{"houses", "seeds"};
  using Serve = CongkakServe;
  using Input = congkak::CongkakInput;
  struct Solved {
    congkak::CongkakResult result;
    std::uint64_t nodes = 0;
  };

  static Input resolve(const Serve& serve, const Parameters& parameters);
  static Json show_json(const Input& input);
  /// Ended games; nothing when a search is needed (Congkak has no endgame database).
  static std::optional<Json> answer_now(const Serve& serve, const Input& input, double seconds);
  static std::string key(const Input& input);
  static Solved search(const Serve& serve, const ApiOptions& options, const Input& input,
                       const std::atomic<bool>& stopped, Clock::time_point until);
  static Json answer_json(const Serve& serve, const Input& input, const Solved& solved,
                          double seconds);
  static Json play_json(Input input, const std::string& move, bool from_moves);
  static Json info_json(const Serve& serve, const congkak::Congkak& game);
};

using CongkakApi = MancalaApi<CongkakRules>;
extern template class MancalaApi<CongkakRules>;

}  // namespace rastros::tools::serve
