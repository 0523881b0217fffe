// `rastros serve --game congkak` without sockets (tools/serve/congkak_api.hpp): hints (the
// solve's best moves and every move's score) equal a plain minimax written here from the
// seed-by-seed sowing, for variants the request picks; a play's laps add up to the library's
// next position; bad requests get 400 and a one-line error; a search over the time budget 503.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "games/congkak/congkak_position.hpp"
#include "games/congkak/congkak_sowing.hpp"
#include "serve/api.hpp"
#include "serve/congkak_api.hpp"

namespace rastros::tools::serve {
namespace {

using namespace rastros::congkak;

ApiOptions quick_options(double max_seconds = 10, int max_searches = 2) {
  ApiOptions options;
  options.max_seconds = max_seconds;
  options.max_searches = max_searches;
  options.table_bytes = std::size_t{4} << 20;
  return options;
}

std::unique_ptr<Api> congkak_api(ApiOptions options = quick_options()) {
  auto api = std::make_unique<Api>(std::vector<DatabaseReader>{}, std::vector<std::string>{},
                                   std::move(options));
  api->serve_congkak({Congkak(7, 7)});
  return api;
}

/// The final store margin for the side to move with perfect play: plain negamax over the
/// rules' sowing (sow, seed by seed), memoised by position, no pruning.
class Minimax {
 public:
  explicit Minimax(const Congkak& game) : game_(game), board_(game.board()) {}

  int margin(const CongkakPosition& position) {
    const std::string key = mancala::position_string(board_, position);
    if (const auto found = memo_.find(key); found != memo_.end()) return found->second;
    int best = -1000;
    if (mancala::has_ended(board_, position)) {
      const auto stores = mancala::final_stores(board_, position);
      best = stores[position.to_move] - stores[1 - position.to_move];
    } else {
      for (int house = 0; house < game_.houses(); ++house) {
        if (position.rows[position.to_move][house] == 0) continue;
        best = std::max(best, move_margin(position, static_cast<CongkakMove>(house)));
      }
    }
    memo_[key] = best;
    return best;
  }
  /// The final margin for the mover after `move`.
  int move_margin(const CongkakPosition& position, CongkakMove move) {
    const CongkakPosition after = sow(game_, position, move).after;
    const int next = margin(after);
    return after.to_move == position.to_move ? next : -next;
  }

 private:
  Congkak game_;
  mancala::MancalaBoard board_;
  std::map<std::string, int> memo_;
};

std::string plus(std::string text) {
  std::replace(text.begin(), text.end(), ' ', '+');
  return text;
}

/// The moves of "best_moves": [...], sorted.
std::vector<std::string> best_moves_of(const std::string& body) {
  const std::string key = "\"best_moves\": [";
  const std::size_t begin = body.find(key) + key.size();
  std::vector<std::string> moves;
  std::string list = body.substr(begin, body.find(']', begin) - begin);
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t comma = std::min(list.find(", ", at), list.size());
    moves.push_back(list.substr(at, comma - at));
    at = comma + 2;
  }
  std::sort(moves.begin(), moves.end());
  return moves;
}

TEST(ServeCongkakApi, HintsEqualAPlainMinimax) {
  const auto api = congkak_api();
  for (const auto& [houses, seeds] : {std::pair{2, 2}, std::pair{3, 2}, std::pair{3, 3}}) {
    const Congkak game(houses, seeds);
    Minimax minimax(game);
    for (const std::string moves : {"", "1", "2", "1 2"}) {
      const CongkakInput input = resolve_congkak_input(houses, seeds, moves, std::nullopt);
      const CongkakPosition& position = input.position;
      if (mancala::has_ended(game.board(), position)) continue;
      const std::string target = "/api/congkak/solve?houses=" + std::to_string(houses) +
                                 "&seeds=" + std::to_string(seeds) + "&moves=" + plus(moves);
      const Response response = api->handle("GET", target);
      ASSERT_EQ(response.status, 200u) << target << ": " << response.body;
      const int best = minimax.margin(position);
      const std::string& body = response.body;
      EXPECT_NE(body.find("\"score\": " + std::to_string(best) + ", \"best_moves\""),
                std::string::npos)
          << target << ": " << body;
      std::vector<std::string> expected_best;
      for (int house = 0; house < houses; ++house) {
        if (position.rows[position.to_move][house] == 0) continue;
        const int margin = minimax.move_margin(position, static_cast<CongkakMove>(house));
        const std::string name = "\"" + std::to_string(house + 1) + "\"";
        if (margin == best) expected_best.push_back(name);
        const char* value = margin > 0 ? "win" : margin < 0 ? "loss" : "draw";
        EXPECT_NE(body.find("{\"move\": " + name + ", \"value\": \"" + value +
                            "\", \"score\": " + std::to_string(margin) + "}"),
                  std::string::npos)
            << target << " move " << name << " (" << margin << "): " << body;
      }
      EXPECT_EQ(best_moves_of(body), expected_best) << target << ": " << body;
    }
  }
}

TEST(ServeCongkakApi, PlayLapsAddUpToTheNextPosition) {
  const auto api = congkak_api();
  const Congkak game(7, 7);
  int relays = 0;
  // The start and the positions after the first legal move, a few times over.
  std::string moves;
  for (int ply = 0; ply < 6; ++ply) {
    const CongkakPosition position = resolve_congkak_input(7, 7, moves, std::nullopt).position;
    if (mancala::has_ended(game.board(), position)) break;
    for (int house = 0; house < 7; ++house) {
      if (position.rows[position.to_move][house] == 0) continue;
      const auto move = static_cast<CongkakMove>(house);
      const std::optional<Response> response = api->answer_now(
          "GET", "/api/congkak/play?moves=" + plus(moves) + "&move=" + std::to_string(house + 1));
      ASSERT_TRUE(response) << "a play never searches";
      ASSERT_EQ(response->status, 200u) << response->body;
      const std::string& body = response->body;
      const CongkakPosition after = play(game, position, move);
      EXPECT_NE(
          body.find("\"position\": \"" + mancala::position_string(game.board(), after) + "\""),
          std::string::npos)
          << moves << " " << house + 1 << ": " << body;
      // One "path" a lap, and the pits of each as many as the seeds lifted.
      const CongkakSowing sowing = sow(game, position, move);
      std::size_t laps = 0;
      for (std::size_t at = body.find("\"path\""); at != std::string::npos;
           at = body.find("\"path\"", at + 1)) {
        ++laps;
      }
      EXPECT_EQ(laps, sowing.laps.size()) << body;
      for (const CongkakLap& lap : sowing.laps) EXPECT_EQ(lap.path.size(), std::size_t(lap.seeds));
      relays += sowing.laps.size() > 1;
    }
    const auto legal = game.legal_moves(search_state(game, position));
    moves += (moves.empty() ? "" : " ") + mancala::move_name(legal[ply % legal.size()]);
  }
  EXPECT_GT(relays, 0) << "some move relays: the laps are tested";
}

TEST(ServeCongkakApi, InfoAndMovesForTheVariantAsked) {
  const auto api = congkak_api();
  const Response info = api->handle("GET", "/api/congkak/info?houses=3&seeds=2");
  EXPECT_EQ(info.status, 200u);
  EXPECT_EQ(info.body.rfind(R"({"game": "congkak", "houses": 3, "seeds": 2, )"
                            R"("start": "2,2,2,0/2,2,2,0 1", "variable_variant": true)",
                            0),
            0u)
      << info.body;
  const Response start = api->handle("GET", "/api/congkak/info");
  EXPECT_NE(start.body.find(R"("houses": 7, "seeds": 7)"), std::string::npos) << start.body;
  const Response moves = api->handle("GET", "/api/congkak/moves?houses=2&seeds=1&moves=1");
  EXPECT_EQ(moves.status, 200u) << moves.body;
  EXPECT_NE(moves.body.find(R"("legal_moves": [)"), std::string::npos) << moves.body;
}

TEST(ServeCongkakApi, BadRequestsGet400WithAnError) {
  const auto api = congkak_api();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/api/congkak/solve?houses=9", "houses"},
      {"/api/congkak/solve?houses=x", "whole number"},
      {"/api/congkak/solve?seeds=2.5", "whole number"},
      {"/api/congkak/solve?moves=8", "bad move '8'"},
      {"/api/congkak/solve?position=nonsense", "bad position"},
      {"/api/congkak/solve?depth=2", "unknown parameter 'depth'"},
      {"/api/congkak/play?moves=1", "needs move="},
      {"/api/congkak/play?move=0", "bad move '0'"},
      {"/api/congkak/play?houses=2&seeds=1&position=0,1,1/1,1,0+1&move=1", "empty"},
      {"/api/congkak/info?moves=1", "unknown parameter"},
  };
  for (const auto& [target, words] : cases) {
    const std::optional<Response> response = api->answer_now("GET", target);
    ASSERT_TRUE(response) << target << ": bad input is answered at once";
    EXPECT_EQ(response->status, 400u) << target << ": " << response->body;
    EXPECT_EQ(response->body.rfind(R"({"error": ")", 0), 0u) << target << ": " << response->body;
    EXPECT_EQ(response->body.find('\n'), std::string::npos) << target;
    EXPECT_NE(response->body.find(words), std::string::npos) << target << ": " << response->body;
  }
  EXPECT_EQ(api->handle("GET", "/api/congkak/nothing").status, 404u);
}

TEST(ServeCongkakApi, OverTheTimeBudgetGets503) {
  // Congkak(7,7) from the start takes far longer than 0.3 s.
  const auto api = congkak_api(quick_options(0.3, 1));
  const auto started = Clock::now();
  const Response response = api->handle("GET", "/api/congkak/solve");
  EXPECT_EQ(response.status, 503u) << response.body;
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - started).count(), 2.0);
  EXPECT_EQ(api->handle("GET", "/api/congkak/play?move=1").status, 200u);
}

}  // namespace
}  // namespace rastros::tools::serve
