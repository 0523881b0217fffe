// `rastros serve --game reversi` without sockets (tools/serve/reversi_api.hpp): exact hints
// equal plain minimax over the naive rules of reversi_reference.hpp, estimates equal the
// library's evaluation search, the play endpoint's turned discs equal the naive rules', bad
// requests get 400 and a one-line error, and hints share the search slots and time budget.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "games/reversi/reversi_evaluation.hpp"
#include "reversi_reference.hpp"
#include "serve/api.hpp"
#include "serve/reversi_api.hpp"

namespace rastros::tools::serve {
namespace {

using namespace rastros::reversi;

ApiOptions quick_options(double max_seconds = 10, int max_searches = 2) {
  ApiOptions options;
  options.max_seconds = max_seconds;
  options.max_searches = max_searches;
  options.table_bytes = std::size_t{4} << 20;
  options.web_root = RASTROS_DATA_DIR "/web";
  return options;
}

std::unique_ptr<Api> reversi_api(int n, ReversiPlayOptions play = {},
                                 ApiOptions options = quick_options()) {
  auto api = std::make_unique<Api>(std::vector<DatabaseReader>{}, std::vector<std::string>{},
                                   std::move(options));
  api->serve_reversi({Reversi(n), play});
  return api;
}

std::string plus(std::string moves) {
  for (char& c : moves) c = c == ' ' ? '+' : c;
  return moves;
}

bool has(const std::string& body, const std::string& part) {
  return body.find(part) != std::string::npos;
}

TEST(ServeReversiApi, InfoNamesTheBoardAndThreshold) {
  const auto api = reversi_api(6, {18, 4});
  const Response info = api->handle("GET", "/api/reversi/info");
  EXPECT_EQ(info.status, 200u);
  EXPECT_EQ(info.body, R"({"game": "reversi", "board": "6x6", "start": ")" +
                           position_string(Reversi(6), start_position(Reversi(6))) +
                           R"(", "exact_empties": 18, "depth": 4, "max_seconds": 10, )"
                           R"("max_searches": 2})");
  // The page of a Reversi server.
  const Response page = api->handle("GET", "/");
  EXPECT_EQ(page.status, 200u);
  EXPECT_TRUE(has(page.body, "reversi.js")) << page.body.substr(0, 200);
}

TEST(ServeReversiApi, ExactHintsEqualPlainMinimax) {
  const Reversi game(4);
  const auto api = reversi_api(4);
  for (const std::string moves : {"", "b1", "b1 a1", "a2 a3 a4"}) {
    const std::string target = "/api/reversi/hint?moves=" + plus(moves);
    const Response response = api->handle("GET", target);
    ASSERT_EQ(response.status, 200u) << target << ": " << response.body;
    const ReversiPosition position = resolve_reversi_input("4x4", moves, std::nullopt).position;
    const reference::Board board = reference::from_state(search_state(position), 4);
    EXPECT_TRUE(has(response.body, R"("exact": true)")) << response.body;
    EXPECT_TRUE(has(response.body, "\"score\": " + std::to_string(reference::minimax(board))))
        << target << ": " << response.body;
    for (const ReversiMove move : game.legal_moves(search_state(position))) {
      const int score = -reference::minimax(move == kPass ? reference::swapped(board)
                                                          : reference::naive_play(board, move));
      EXPECT_TRUE(has(response.body, R"({"move": ")" + move_name(move) + R"(", "score": )" +
                                         std::to_string(score) + "}"))
          << target << " " << move_name(move) << ": " << response.body;
    }
    // Asked again, it is answered at once from the cache.
    const std::optional<Response> again = api->answer_now("GET", target);
    ASSERT_TRUE(again) << target;
    EXPECT_TRUE(has(again->body, R"("source": "cache")"));
  }
}

TEST(ServeReversiApi, EstimatesBeforeTheThresholdAreTheEvaluationSearch) {
  const Reversi game(8);
  const auto api = reversi_api(8, {-1, 3});
  EXPECT_FALSE(api->answer_now("GET", "/api/reversi/hint?moves=f5")) << "a search waits for a slot";
  const Response response = api->handle("GET", "/api/reversi/hint?moves=f5");
  ASSERT_EQ(response.status, 200u) << response.body;
  const ReversiPosition position = resolve_reversi_input("8x8", "f5", std::nullopt).position;
  const EvaluationResult expected = search_evaluation(Evaluator(game), search_state(position), 3);
  EXPECT_TRUE(has(response.body, R"("exact": false, "best_moves": [")" + move_name(expected.best) +
                                     R"("], "move": ")" + move_name(expected.best) +
                                     R"(", "estimate": )" + std::to_string(expected.value) +
                                     R"(, "depth": 3)"))
      << response.body;
  EXPECT_FALSE(has(response.body, "children")) << response.body;
}

TEST(ServeReversiApi, PlayTurnsTheDiscsOfTheNaiveRules) {
  const Reversi game(6);
  const auto api = reversi_api(6);
  std::mt19937_64 random(3);
  std::string moves;
  ReversiPosition position = start_position(game);
  for (int ply = 0; ply < 20 && !game.is_terminal(search_state(position)); ++ply) {
    const reference::Board board = reference::from_state(search_state(position), 6);
    const auto legal = game.legal_moves(search_state(position));
    for (const ReversiMove move : legal) {
      const std::optional<Response> response = api->answer_now(
          "GET", "/api/reversi/play?moves=" + plus(moves) + "&move=" + move_name(move));
      ASSERT_TRUE(response) << "a play never searches";
      ASSERT_EQ(response->status, 200u) << response->body;
      std::string flipped = "[";
      if (move != kPass) {
        std::vector<int> turned = reference::naive_flips(board, move / 8, move % 8, 1);
        std::sort(turned.begin(), turned.end());
        for (const int square : turned) {
          flipped += (flipped.size() > 1 ? ", \"" : "\"") +
                     move_name(static_cast<ReversiMove>(square)) + "\"";
        }
      }
      flipped += "]";
      const ReversiPosition after = play_move(game, position, move);
      EXPECT_TRUE(has(response->body, "\"position\": \"" + position_string(game, after) + "\""))
          << response->body;
      EXPECT_TRUE(has(response->body, "\"flipped\": " + flipped)) << response->body;
      EXPECT_TRUE(has(response->body, "\"player\": " + std::to_string(position.to_move + 1)));
    }
    const ReversiMove chosen = legal[random() % legal.size()];
    moves += (moves.empty() ? "" : " ") + move_name(chosen);
    position = play_move(game, position, chosen);
  }
}

TEST(ServeReversiApi, BadRequestsGet400WithAnError) {
  const auto api = reversi_api(8);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/api/reversi/hint?moves=a1", "illegal move 'a1'"},
      {"/api/reversi/hint?moves=f5+z9", "bad move 'z9'"},
      {"/api/reversi/hint?position=nonsense", "bad position"},
      {"/api/reversi/hint?moves=f5&position=nonsense", "not both"},
      {"/api/reversi/hint?board=6x6", "this server plays reversi 8x8"},
      {"/api/reversi/hint?depth=2", "unknown parameter 'depth'"},
      {"/api/reversi/moves?move=f5", "unknown parameter 'move'"},
      {"/api/reversi/play?moves=f5", "needs move="},
      {"/api/reversi/play?move=a1", "not a legal move"},
      {"/api/reversi/play?move=pass", "not a legal move"},
      {"/api/reversi/play?move=f5&move=d3", "twice"},
      {"/api/reversi/info?x=1", "unknown parameter"},
  };
  for (const auto& [target, words] : cases) {
    const std::optional<Response> response = api->answer_now("GET", target);
    ASSERT_TRUE(response) << target << ": bad input is answered at once";
    EXPECT_EQ(response->status, 400u) << target << ": " << response->body;
    EXPECT_EQ(response->body.rfind(R"({"error": ")", 0), 0u) << target << ": " << response->body;
    EXPECT_EQ(response->body.find('\n'), std::string::npos) << target;
    EXPECT_TRUE(has(response->body, words)) << target << ": " << response->body;
  }
  EXPECT_EQ(api->handle("GET", "/api/reversi/nothing").status, 404u);
  // An ended game: its margin, no moves, without a search.
  const std::optional<Response> ended =
      api->answer_now("GET", "/api/reversi/hint?position=" + std::string(64, 'X') + "+O");
  ASSERT_TRUE(ended);
  EXPECT_TRUE(
      has(ended->body,
          R"("ended": true, "score": -64, "exact": true, "best_moves": [], "children": [])"))
      << ended->body;
  // A Rastros server has no Reversi endpoints.
  Api rastros({}, {}, quick_options());
  EXPECT_EQ(rastros.handle("GET", "/api/reversi/info").status, 404u);
}

TEST(ServeReversiApi, OverTheTimeBudgetGets503) {
  // An exact solve of 8x8 from the start (60 empties) takes far longer than 0.3 s.
  const auto api = reversi_api(8, {64, 6}, quick_options(0.3, 1));
  const auto started = Clock::now();
  const Response response = api->handle("GET", "/api/reversi/hint");
  EXPECT_EQ(response.status, 503u) << response.body;
  EXPECT_TRUE(has(response.body, "time budget")) << response.body;
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - started).count(), 2.0);
  EXPECT_EQ(api->handle("GET", "/api/reversi/play?move=f5").status, 200u);
  api->stop();
  EXPECT_EQ(api->handle("GET", "/api/reversi/hint?moves=f5").status, 503u);
}

}  // namespace
}  // namespace rastros::tools::serve
