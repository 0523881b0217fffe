// `rastros serve --game oware` without sockets (tools/serve/oware_api.hpp): hints (best moves,
// every move's final margin) beyond a small endgame database equal the scores of the naive
// reference solver written from the rules (oware_reference.hpp) over the whole game; over the
// positions budget the answer is "unknown", over the time budget 503;
// a play's seeds and captures add up to the library's next position (Oware::play), its sowing
// seed by seed (oware_sowing) agrees with Oware::play over random games; bad requests get 400
// and a one-line error.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "games/oware/oware_analysis.hpp"
#include "games/oware/oware_input.hpp"
#include "games/oware/oware_sowing.hpp"
#include "oware_reference.hpp"
#include "serve/api.hpp"
#include "serve/oware_api.hpp"

namespace rastros::tools::serve {
namespace {

using namespace rastros::oware;

ApiOptions quick_options(double max_seconds = 10) {
  ApiOptions options;
  options.max_seconds = max_seconds;
  options.max_searches = 1;
  options.table_bytes = std::size_t{4} << 20;
  return options;
}

std::unique_ptr<Api> oware_api(const Oware& game, int database_seeds,
                               std::uint64_t max_positions = 2'000'000,
                               ApiOptions options = quick_options()) {
  auto api = std::make_unique<Api>(std::vector<DatabaseReader>{}, std::vector<std::string>{},
                                   std::move(options));
  auto database = std::make_shared<OwareDatabase>(OwareDatabase::build(game, database_seeds));
  api->serve_oware(make_oware_serve(game, database, "", max_positions));
  return api;
}

/// Rule 7's score of a state by the reference solver: its table is keyed on the houses seen
/// from the side to move, as the state holds them.
int reference_score(const std::map<std::vector<int>, int>& reference, const Oware& game,
                    const OwareState& state) {
  return reference.at({state.houses.begin(), state.houses.begin() + 2 * game.houses()});
}

std::string plus(std::string text) {
  std::replace(text.begin(), text.end(), ' ', '+');
  return text;
}

TEST(ServeOwareApi, HintsBeyondTheDatabaseEqualTheReferenceSolver) {
  const Oware game(3, 2);
  const auto api = oware_api(game, 4);  // the start's 12 seeds are searched
  const auto reference = oware_reference::ref_solve(game.houses(), game.total_seeds());
  int tested = 0;
  for (const std::string moves :
       {"", "1", "2", "3", "1 1", "1 2", "2 2", "3 3", "1 2 3", "2 3 1"}) {
    OwareInput input{game, {}, {}};
    try {
      input = resolve_oware_input(3, 2, moves, std::nullopt);
    } catch (const InputError&) {
      continue;  // not a game: the candidates are not all legal
    }
    ++tested;
    const OwareState state = search_state(game, input.position);
    const std::string target = "/api/oware/solve?moves=" + plus(moves);
    const Response response = api->handle("GET", target);
    ASSERT_EQ(response.status, 200u) << target << ": " << response.body;
    const std::string& body = response.body;
    const int banked = captured_margin(input.position);
    const int score = reference_score(reference, game, state);
    EXPECT_NE(body.find("\"score\": " + std::to_string(score) + ", "), std::string::npos)
        << target << ": " << body;
    EXPECT_NE(body.find("\"margin\": " + std::to_string(banked + score) + ", "), std::string::npos)
        << target << ": " << body;
    std::string best = "\"best_moves\": [";
    for (const OwareMove move : game.legal_moves(state)) {
      const OwarePlayed played = game.play(state, move);
      const int move_score = played.gain - reference_score(reference, game, played.next);
      const int margin = banked + move_score;
      const char* value = margin > 0 ? "win" : margin < 0 ? "loss" : "draw";
      EXPECT_NE(body.find("{\"move\": \"" + move_name(move) + "\", \"value\": \"" + value +
                          "\", \"score\": " + std::to_string(margin) + "}"),
                std::string::npos)
          << target << " move " << move_name(move) << ": " << body;
      if (move_score == score) {
        best += std::string(best.back() == '[' ? "\"" : ", \"") + move_name(move) + "\"";
      }
    }
    EXPECT_NE(body.find(best + "]"), std::string::npos) << target << ": " << body;
    // Asked again, it is answered at once (cached, or from the database).
    EXPECT_TRUE(api->answer_now("GET", target)) << target;
  }
  EXPECT_GE(tested, 6);
  // A position of the database needs no search.
  const auto answer = api->answer_now("GET", "/api/oware/solve?position=1,0,1,5/0,2,0,3+1");
  ASSERT_TRUE(answer);
  EXPECT_NE(answer->body.find(R"("source": "database")"), std::string::npos) << answer->body;
}

// The computer's move on the page: one of the best, the one that makes progress. From a
// position where the lowest of the best moves goes round a cycle (test_oware_distances.cpp's
// TheLowestOfTheBestMovesGoesRoundACycle), the moves the server names, played for both sides,
// reach a capture within the position's distance to exit.
TEST(ServeOwareApi, TheComputersMoveIsABestMoveThatMakesProgress) {
  const Oware game(4, 4);
  const auto api = oware_api(game, 6);
  OwarePosition position =
      resolve_oware_input(4, 4, std::nullopt, "0,0,0,1,14/0,0,1,3,13 1").position;
  const int distance = OwareDatabase::build(game, 5).distances(game, 5)[game.level_rank(
      search_state(game, position))];
  ASSERT_GT(distance, 0);
  for (int ply = 0; game.seeds_in_play(search_state(game, position)) == 5; ++ply) {
    ASSERT_LE(ply, distance) << "no capture in sight";
    const std::string target =
        "/api/oware/solve?position=" + plus(position_string(game, position));
    const Response response = api->handle("GET", target);
    ASSERT_EQ(response.status, 200u) << target << ": " << response.body;
    // The computer's move: the "move" key just before "margin" (the moves' own come later).
    // (No std::regex: GCC 12 warns inside it under the sanitizers.)
    const auto end = response.body.find("\", \"margin\": ");
    ASSERT_NE(end, std::string::npos) << response.body;
    const auto start = response.body.rfind("\"move\": \"", end);
    ASSERT_NE(start, std::string::npos) << response.body;
    const std::string move = response.body.substr(start + 9, end - start - 9);
    const auto best = response.body.find("\"best_moves\": [");
    const auto best_end = response.body.find(']', best);
    EXPECT_NE(response.body.substr(best, best_end - best).find("\"" + move + "\""),
              std::string::npos)
        << response.body;
    position = play(game, position, parse_move(game, position, move));
  }
}

TEST(ServeOwareApi, OverThePositionsBudgetIsUnknown) {
  const auto api = oware_api(Oware(3, 2), 2, 10);
  const Response response = api->handle("GET", "/api/oware/solve");
  EXPECT_EQ(response.status, 200u) << response.body;
  EXPECT_NE(response.body.find(R"("value": "unknown", "reason": "more than 10 positions)"),
            std::string::npos)
      << response.body;
  EXPECT_EQ(response.body.find("best_moves"), std::string::npos) << "never a guess";
}

TEST(ServeOwareApi, OverTheTimeBudgetGets503) {
  // Oware(6,4) from the start over a 2-seed database gathers millions of positions: the
  // deadline stops it.
  const auto api = oware_api(Oware(6, 4), 2, 100'000'000, quick_options(0.3));
  const auto started = Clock::now();
  const Response response = api->handle("GET", "/api/oware/solve");
  EXPECT_EQ(response.status, 503u) << response.body;
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - started).count(), 2.0);
  EXPECT_EQ(api->handle("GET", "/api/oware/play?move=1").status, 200u);
}

TEST(ServeOwareApi, SowingSeedBySeedAgreesWithPlay) {
  std::mt19937 random(7);
  int captures = 0;
  for (const auto& [houses, seeds] : {std::pair{6, 4}, std::pair{3, 2}, std::pair{2, 5}}) {
    const Oware game(houses, seeds);
    for (int round = 0; round < 60; ++round) {
      OwarePosition position = start_position(game);
      for (int ply = 0; ply < 80 && !has_ended(game, position); ++ply) {
        const auto moves = game.legal_moves(search_state(game, position));
        const OwareMove move = moves[random() % moves.size()];
        const OwareSowing sowing = sow(game, position, move);
        const OwarePosition after = play(game, position, move);
        ASSERT_EQ(sowing.after, after) << position_string(game, position) << " " << int(move);
        ASSERT_EQ(sowing.path.size(),
                  static_cast<std::size_t>(position.rows[position.to_move][move]));
        captures += sowing.seeds_captured > 0;
        position = after;
      }
    }
  }
  EXPECT_GT(captures, 0);
  // A grand slam, set up: the last seed makes the opponent's only seeds 2, all captured.
  const Oware game(2, 2);
  const OwarePosition position = parse_position(game, "0,1,3/1,0,3 1");
  const OwareSowing slam = sow(game, position, 1);
  EXPECT_TRUE(slam.grand_slam);
  EXPECT_EQ(slam.seeds_captured, 0);
  EXPECT_EQ(slam.after, play(game, position, 1));
}

TEST(ServeOwareApi, PlayShowsTheSeedsAndTheCapture) {
  const Oware game(2, 2);
  const auto api = oware_api(game, 8);
  // Player 1's house 2 (3 seeds) sows into player 2's houses 1 and 2 (1 and 2 before) and
  // its own house 1: the last seed is not the opponent's, nothing is captured.
  const Response quiet = api->handle("GET", "/api/oware/play?position=1,3,0/1,2,1+1&move=2");
  ASSERT_EQ(quiet.status, 200u) << quiet.body;
  EXPECT_NE(quiet.body.find(R"("path": [{"player": 2, "pit": "1"}, {"player": 2, "pit": "2"}, )"
                            R"({"player": 1, "pit": "1"}], "captured": [], "seeds_captured": 0)"),
            std::string::npos)
      << quiet.body;
  // House 2 (1 seed) into player 2's house 1 (1 before, then 2): captured.
  const Response capture = api->handle("GET", "/api/oware/play?position=2,1,0/1,3,1+1&move=2");
  ASSERT_EQ(capture.status, 200u) << capture.body;
  EXPECT_NE(capture.body.find(R"("position": "2,0,2/0,3,1 2")"), std::string::npos) << capture.body;
  EXPECT_NE(capture.body.find(R"("captured": [{"player": 2, "pit": "1"}], "seeds_captured": 2)"),
            std::string::npos)
      << capture.body;
}

// A request names any variant: it is answered from that variant's own database (built when
// first asked for), the scores those of the reference solver; the server's stays its own.
TEST(ServeOwareApi, AnyVariantIsAnsweredWithItsOwnDatabase) {
  const auto api = oware_api(Oware(3, 2), 4);
  for (const auto& [houses, seeds] : {std::pair{2, 2}, {2, 3}, {3, 1}}) {
    const Oware other(houses, seeds);
    const auto reference = oware_reference::ref_solve(houses, other.total_seeds());
    const std::string variant =
        "houses=" + std::to_string(houses) + "&seeds=" + std::to_string(seeds);
    for (int twice = 0; twice < 2; ++twice) {
      const Response response = api->handle("GET", "/api/oware/solve?" + variant);
      ASSERT_EQ(response.status, 200u) << variant << ": " << response.body;
      const int score =
          reference_score(reference, other, search_state(other, start_position(other)));
      EXPECT_NE(response.body.find("\"score\": " + std::to_string(score) + ", "), std::string::npos)
          << variant << ": " << response.body;
    }
    const Response info = api->handle("GET", "/api/oware/info?" + variant);
    EXPECT_NE(info.body.find("\"houses\": " + std::to_string(houses)), std::string::npos)
        << info.body;
    EXPECT_NE(info.body.find(R"("variable_variant": true)"), std::string::npos) << info.body;
  }
  const Response served = api->handle("GET", "/api/oware/info");
  EXPECT_NE(served.body.find(R"("endgame_seeds": 4)"), std::string::npos) << served.body;
}

TEST(ServeOwareApi, BadRequestsGet400WithAnError) {
  const auto api = oware_api(Oware(3, 2), 4);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/api/oware/solve?houses=99", "between 1 and 8"},
      {"/api/oware/solve?houses=2&seeds=0", "at least 1"},
      {"/api/oware/solve?moves=4", "bad move '4'"},
      {"/api/oware/solve?position=nonsense", "bad position"},
      {"/api/oware/solve?depth=2", "unknown parameter 'depth'"},
      {"/api/oware/play?moves=1", "needs move="},
      {"/api/oware/play?move=x", "bad move 'x'"},
      // Player 2 has no seeds: player 1 must feed them (house 3 reaches them, house 1 not).
      {"/api/oware/play?position=1,0,4,7/0,0,0,0+1&move=1", "does not feed"},
      {"/api/oware/info?moves=1", "unknown parameter"},
  };
  for (const auto& [target, words] : cases) {
    const std::optional<Response> response = api->answer_now("GET", target);
    ASSERT_TRUE(response) << target << ": bad input is answered at once";
    EXPECT_EQ(response->status, 400u) << target << ": " << response->body;
    EXPECT_EQ(response->body.rfind(R"({"error": ")", 0), 0u) << target << ": " << response->body;
    EXPECT_EQ(response->body.find('\n'), std::string::npos) << target;
    EXPECT_NE(response->body.find(words), std::string::npos) << target << ": " << response->body;
  }
  EXPECT_EQ(api->handle("GET", "/api/oware/nothing").status, 404u);
}

}  // namespace
}  // namespace rastros::tools::serve
