// `rastros serve --game kalah` without sockets (tools/serve/kalah_api.hpp): solve answers equal
// the library's solver (from the endgame database or searched), the play endpoint's sowing
// path adds up to the library's next position, bad requests get 400 and a one-line error, and
// solves share the server's search slots and time budget.

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "games/kalah/kalah_analysis.hpp"
#include "games/kalah/kalah_endgame.hpp"
#include "kalah/kalah_output.hpp"
#include "serve/api.hpp"
#include "serve/kalah_api.hpp"

namespace rastros::tools::serve {
namespace {

using namespace rastros::kalah;

ApiOptions quick_options(double max_seconds = 10, int max_searches = 2) {
  ApiOptions options;
  options.max_seconds = max_seconds;
  options.max_searches = max_searches;
  options.table_bytes = std::size_t{4} << 20;
  options.web_root = RASTROS_DATA_DIR "/web";
  return options;
}

/// A Kalah server's Api: `endgame_seeds` -1 for none.
std::unique_ptr<Api> kalah_api(const Kalah& game, int endgame_seeds,
                               ApiOptions options = quick_options()) {
  auto api = std::make_unique<Api>(std::vector<DatabaseReader>{}, std::vector<std::string>{},
                                   std::move(options));
  std::shared_ptr<const KalahEndgame> endgame;
  if (endgame_seeds >= 0)
    endgame = std::make_shared<KalahEndgame>(KalahEndgame::build(game, endgame_seeds));
  api->serve_kalah({game, endgame, ""});
  return api;
}

/// The body without "source" and with "nodes" and "seconds" blanked.
std::string stable(std::string body) {
  for (const std::string key : {"nodes", "seconds"}) {
    const std::string prefix = "\"" + key + "\": ";
    const std::size_t at = body.find(prefix);
    if (at == std::string::npos) continue;
    const std::size_t begin = at + prefix.size();
    body.replace(begin, body.find_first_of(",}", begin) - begin, "X");
  }
  for (const std::string source : {"\"source\": \"database\", ", "\"source\": \"search\", "}) {
    if (const std::size_t at = body.find(source); at != std::string::npos)
      body.erase(at, source.size());
  }
  return body;
}

/// What `rastros solve --game kalah --json` prints, from the library's solver.
std::string library_json(const Kalah& game, const std::string& moves, int endgame_seeds) {
  kalah_cli::KalahOptions options;
  options.houses = game.houses();
  options.seeds = game.seeds();
  options.rules = rules_name(game.rule());
  options.moves = moves;
  const kalah_cli::KalahInput input = kalah_cli::resolve_input(options);
  std::shared_ptr<const KalahEndgame> endgame;
  if (endgame_seeds >= 0)
    endgame = std::make_shared<KalahEndgame>(KalahEndgame::build(game, endgame_seeds));
  KalahSolver solver(game, {std::size_t{4} << 20, false, false}, endgame.get());
  const KalahResult result = solver.solve(input.position);
  return stable(
      kalah_cli::result_json({input, result, false, 0, 0, endgame_seeds, std::nullopt}).dump());
}

std::string plus(const std::string& moves) {
  std::string out = moves;
  for (char& c : out) c = c == ' ' ? '+' : c;
  return out;
}

TEST(ServeKalahApi, InfoNamesTheVariant) {
  const auto api = kalah_api(Kalah(3, 3), 6);
  const Response info = api->handle("GET", "/api/kalah/info");
  EXPECT_EQ(info.status, 200u);
  EXPECT_EQ(info.body.rfind(R"({"game": "kalah", "houses": 3, "seeds": 3, "rules": "standard", )"
                            R"("start": "3,3,3,0/3,3,3,0 1", "endgame_seeds": 6, )",
                            0),
            0u)
      << info.body;
  EXPECT_NE(info.body.find(R"("max_seconds": 10, "max_searches": 2)"), std::string::npos)
      << info.body;
}

TEST(ServeKalahApi, SolveAnswersEqualTheLibrarysSolver) {
  for (const CaptureRule rule : {CaptureRule::standard, CaptureRule::empty_capture}) {
    const Kalah game(3, 3, rule);
    const auto api = kalah_api(game, 6);
    for (const std::string moves : {"", "1", "3 1", "1 2 3", "2 1 3 3 2"}) {
      const std::string target = "/api/kalah/solve?moves=" + plus(moves);
      const Response response = api->handle("GET", target);
      ASSERT_EQ(response.status, 200u) << target << ": " << response.body;
      EXPECT_EQ(stable(response.body), library_json(game, moves, 6))
          << game.name() << " " << target;
      // Asked again, it is answered at once (cached or from the database).
      const std::optional<Response> again = api->answer_now("GET", target);
      ASSERT_TRUE(again) << target;
      EXPECT_EQ(stable(again->body), stable(response.body));
    }
  }
  // Without an endgame database, and with a position string instead of moves.
  const Kalah game(3, 2);
  const auto api = kalah_api(game, -1);
  EXPECT_FALSE(api->answer_now("GET", "/api/kalah/solve?moves=1")) << "a search waits for a slot";
  const Response searched = api->handle("GET", "/api/kalah/solve?moves=1");
  EXPECT_NE(searched.body.find(R"("source": "search")"), std::string::npos) << searched.body;
  EXPECT_EQ(stable(searched.body), library_json(game, "1", -1));
  const Response by_position = api->handle("GET", "/api/kalah/solve?position=2,2,0,2/2,2,2,0+1");
  EXPECT_EQ(by_position.status, 200u) << by_position.body;
}

TEST(ServeKalahApi, EndgamePositionsComeFromTheDatabase) {
  const Kalah game(3, 3);
  const auto api = kalah_api(game, 18);  // the whole game
  const std::optional<Response> answer = api->answer_now("GET", "/api/kalah/solve?moves=1+2");
  ASSERT_TRUE(answer) << "a database answer needs no search";
  EXPECT_NE(answer->body.find(R"("source": "database")"), std::string::npos) << answer->body;
  EXPECT_EQ(stable(answer->body), library_json(game, "1 2", 18));
  // An ended game: its final margin, no moves.
  const Response ended = api->handle("GET", "/api/kalah/solve?position=0,0,0,10/1,2,5,0+2");
  EXPECT_EQ(ended.status, 200u) << ended.body;
  EXPECT_NE(ended.body.find(R"("value": "loss", "winner": 1, "score": -2, "best_moves": [], )"
                            R"("children": [])"),
            std::string::npos)
      << ended.body;
}

TEST(ServeKalahApi, MovesAreShowsJson) {
  const auto api = kalah_api(Kalah(3, 3), -1);
  const Response moves = api->handle("GET", "/api/kalah/moves?moves=3");
  EXPECT_EQ(moves.status, 200u);
  EXPECT_EQ(moves.body, R"({"game": "kalah", "houses": 3, "seeds": 3, "rules": "standard", )"
                        R"("moves": ["3"], "position": "3,3,0,1/4,4,3,0 2", "to_move": 2, )"
                        R"("legal_moves": ["1", "2", "3"], "ended": false})");
}

TEST(ServeKalahApi, PlayPathAddsUpToTheNextPosition) {
  const Kalah game(4, 4);
  const auto api = kalah_api(game, -1);
  // Every move of a few plies: the path's seeds land where the library's position says.
  std::vector<std::string> games = {""};
  for (std::size_t i = 0; i < games.size() && i < 40; ++i) {
    KalahPosition position = start_position(game);
    for (const KalahMove move : parse_moves(game, games[i])) position = play(game, position, move);
    for (const KalahMove move : game.legal_moves(search_state(game, position))) {
      const std::string moves =
          games[i].empty() ? move_name(move) : games[i] + " " + move_name(move);
      const std::optional<Response> response = api->answer_now(
          "GET", "/api/kalah/play?moves=" + plus(games[i]) + "&move=" + move_name(move));
      ASSERT_TRUE(response) << "a play never searches";
      ASSERT_EQ(response->status, 200u) << response->body;
      const std::string& body = response->body;
      const KalahPosition after = play(game, position, move);
      EXPECT_NE(body.find("\"position\": \"" + position_string(game, after) + "\""),
                std::string::npos)
          << moves << ": " << body;
      // One pit a seed.
      std::size_t pits = 0;
      for (std::size_t at = body.find("{\"player\"", body.find("\"path\""));
           at < body.find("\"capture\""); at = body.find("{\"player\"", at + 1)) {
        ++pits;
      }
      EXPECT_EQ(pits, static_cast<std::size_t>(position.rows[position.to_move][move]))
          << moves << ": " << body;
      // The seeds banked: those sown into the store plus the capture.
      std::size_t stored = 0;
      for (std::size_t at = body.find("\"pit\": \"store\""); at != std::string::npos;
           at = body.find("\"pit\": \"store\"", at + 1)) {
        ++stored;
      }
      int captured = 0;
      if (const std::size_t at = body.find("\"capture\": {"); at != std::string::npos) {
        const std::size_t seeds = body.find("\"seeds\": ", at) + 9;
        captured = std::stoi(body.substr(seeds));
      } else {
        EXPECT_NE(body.find("\"capture\": null"), std::string::npos) << body;
      }
      EXPECT_EQ(static_cast<int>(stored) + captured,
                after.stores[position.to_move] - position.stores[position.to_move])
          << moves << ": " << body;
      EXPECT_NE(
          body.find(after.to_move == position.to_move ? "\"again\": true" : "\"again\": false"),
          std::string::npos)
          << moves;
      if (games.size() < 40) games.push_back(moves);
    }
  }
  // The start's house 4 of Kalah(4,4) ends in player 1's store: another turn.
  const Response again = api->handle("GET", "/api/kalah/play?move=4");
  EXPECT_EQ(again.body,
            R"({"game": "kalah", "houses": 4, "seeds": 4, "rules": "standard", "moves": ["4"], )"
            R"("position": "4,4,4,0,1/5,5,5,4,0 2", "to_move": 2, "move": "4", "player": 1, )"
            R"("before": "4,4,4,4,0/4,4,4,4,0 1", "path": [{"player": 1, "pit": "store"}, )"
            R"({"player": 2, "pit": "1"}, {"player": 2, "pit": "2"}, {"player": 2, "pit": "3"}], )"
            R"("capture": null, "again": false, "ended": false})");
  // A move that ends the game reports the final stores.
  const Response last =
      api->handle("GET", "/api/kalah/play?position=0,0,0,1,15/4,4,4,4,0+1&move=4");
  EXPECT_NE(
      last.body.find(R"("again": true, "ended": true, "final_stores": [16, 16], "winner": null})"),
      std::string::npos)
      << last.body;
}

TEST(ServeKalahApi, BadRequestsGet400WithAnError) {
  const auto api = kalah_api(Kalah(3, 3), -1);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/api/kalah/solve?moves=4", "bad move '4'"},
      {"/api/kalah/solve?moves=1+x", "'x'"},
      {"/api/kalah/solve?moves=3+3+3", "empty"},
      {"/api/kalah/solve?position=nonsense", "bad position"},
      {"/api/kalah/solve?position=3,3,3,0/3,3,3,1+1", "19 seeds"},
      {"/api/kalah/solve?moves=1&position=3,3,3,0/3,3,3,0+1", "either"},
      {"/api/kalah/solve?houses=6", "this server plays kalah(3,3)"},
      {"/api/kalah/solve?rules=empty-capture", "rules='empty-capture'"},
      {"/api/kalah/solve?depth=2", "unknown parameter 'depth'"},
      {"/api/kalah/moves?move=1", "unknown parameter 'move'"},
      {"/api/kalah/play?moves=1", "needs move="},
      {"/api/kalah/play?move=0", "bad move '0'"},
      {"/api/kalah/play?moves=3+3&move=3", "empty"},
      {"/api/kalah/play?position=0,0,0,9/3,3,3,0+2&move=1", "ended"},
      {"/api/kalah/play?move=1&move=2", "twice"},
      {"/api/kalah/info?x=1", "unknown parameter"},
  };
  for (const auto& [target, words] : cases) {
    const std::optional<Response> response = api->answer_now("GET", target);
    ASSERT_TRUE(response) << target << ": bad input is answered at once";
    EXPECT_EQ(response->status, 400u) << target << ": " << response->body;
    EXPECT_EQ(response->body.rfind(R"({"error": ")", 0), 0u) << target << ": " << response->body;
    EXPECT_EQ(response->body.find('\n'), std::string::npos) << target;
    EXPECT_NE(response->body.find(words), std::string::npos) << target << ": " << response->body;
  }
  EXPECT_EQ(api->handle("GET", "/api/kalah/nothing").status, 404u);
  // A Rastros server has no Kalah endpoints, and its own stay.
  Api rastros({}, {}, quick_options());
  EXPECT_EQ(rastros.handle("GET", "/api/kalah/info").status, 404u);
  EXPECT_EQ(api->handle("GET", "/api/solve?board=3x3").status, 200u);
}

TEST(ServeKalahApi, OverTheTimeBudgetGets503) {
  // Kalah(6,5) from the start, without an endgame database, takes far longer than 0.3 s.
  const auto api = kalah_api(Kalah(6, 5), -1, quick_options(0.3, 1));
  const auto started = Clock::now();
  const Response response = api->handle("GET", "/api/kalah/solve");
  EXPECT_EQ(response.status, 503u) << response.body;
  EXPECT_NE(response.body.find("time budget"), std::string::npos) << response.body;
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - started).count(), 2.0);
  // The server is still fine afterwards; stop() cancels and refuses searches.
  EXPECT_EQ(api->handle("GET", "/api/kalah/play?move=1").status, 200u);
  api->stop();
  EXPECT_EQ(api->handle("GET", "/api/kalah/solve?moves=1").status, 503u);
}

}  // namespace
}  // namespace rastros::tools::serve
