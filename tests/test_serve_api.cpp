// The request handler of `rastros serve` without sockets (tools/serve/api.hpp): database and
// search answers equal the live solver's JSON, every bad request gets 400 and an error object,
// searches are bounded and over-budget searches get 503, and the page's files are served.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "analysis_output.hpp"
#include "core/errors.hpp"
#include "db/database_file.hpp"
#include "map_output.hpp"
#include "options.hpp"
#include "search/start_map.hpp"
#include "serve/api.hpp"

namespace rastros::tools::serve {
namespace {

namespace fs = std::filesystem;

const fs::path kData = RASTROS_DATA_DIR;

// Read a block at a time, as `rastros serve --db` reads it.
std::vector<DatabaseReader> five_by_five() {
  std::vector<DatabaseReader> databases;
  databases.emplace_back(kData / "5x5-standard.rdb");
  return databases;
}

ApiOptions quick_options(double max_seconds = 10, int max_searches = 2) {
  ApiOptions options;
  options.max_seconds = max_seconds;
  options.max_searches = max_searches;
  options.table_bytes = std::size_t{4} << 20;
  options.web_root = kData / "web";
  return options;
}

/// `text` with the value after each `"key": ` (up to the next ',' or '}') replaced by `blank`.
std::string blank_values(std::string text, const std::string& key, const std::string& blank) {
  const std::string prefix = "\"" + key + "\": ";
  for (std::size_t at = text.find(prefix); at != std::string::npos;
       at = text.find(prefix, at + prefix.size())) {
    const std::size_t begin = at + prefix.size();
    const std::size_t end = text.find_first_of(",}", begin);
    text.replace(begin, end - begin, blank);
  }
  return text;
}

/// The body with the values that differ between runs ("nodes", "seconds") blanked and the
/// "source" key (which `rastros solve` lacks) left out. (No std::regex: GCC 12 warns inside it
/// under the sanitizers.)
std::string stable(const std::string& body) {
  std::string out = blank_values(blank_values(body, "nodes", "N"), "seconds", "S");
  const std::size_t source = out.find(", \"source\": ");
  if (source != std::string::npos) out.erase(source, out.find('}', source) - source);
  return out;
}

/// What `rastros solve --json` prints for the position, from a fresh live solver.
std::string solve_json(const std::string& board, const std::string& moves) {
  VariantOptions variant;
  variant.board = board;
  const PositionInput input = resolve_position(variant, {moves, std::nullopt});
  Solver solver(input.rastros);
  const Analysis analysis = solver.analyse(input.position);
  return analysis_json({input, analysis, 0, false, std::nullopt}).dump();
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

TEST(ServeApi, ParsesQueryStrings) {
  const auto parameters = parse_query("a=1&moves=c3+b2&&empty=&pos=5%2F5+1");
  ASSERT_EQ(parameters.size(), 4u);
  EXPECT_EQ(parameters.at("a"), "1");
  EXPECT_EQ(parameters.at("moves"), "c3 b2");
  EXPECT_EQ(parameters.at("empty"), "");
  EXPECT_EQ(parameters.at("pos"), "5/5 1");
  EXPECT_THROW(parse_query("a=%zz"), InputError);
  EXPECT_THROW(parse_query("a=%4"), InputError);
  EXPECT_THROW(parse_query("a=1&a=2"), InputError);
  EXPECT_THROW(parse_query("a=%C3%A9"), InputError);
  EXPECT_THROW(parse_query("=1"), InputError);
  EXPECT_THROW(parse_query("a=1&bare"), InputError);  // a name needs "=", even for ""
}

TEST(ServeApi, DatabaseAnswersEqualTheLiveSolver) {
  Api api(five_by_five(), {"5x5-standard.rdb"}, quick_options());
  for (const std::string moves : {"", "b2", "b2 c1", "c2 d1 e1 e2", "d4 e4 d5"}) {
    std::string target = "/api/solve?board=5x5&start=c3&rules=standard&steps=king&moves=";
    for (char c : moves) target += c == ' ' ? '+' : c;
    const std::optional<Response> response = api.answer_now("GET", target);
    ASSERT_TRUE(response) << moves << ": a database answer needs no search";
    EXPECT_EQ(response->status, 200u) << response->body;
    EXPECT_EQ(response->content_type, "application/json");
    EXPECT_NE(response->body.find(R"("source": "database")"), std::string::npos) << moves;
    EXPECT_EQ(stable(response->body), stable(solve_json("5x5", moves))) << moves;
  }
  const std::optional<Response> response =
      api.answer_now("GET", "/api/solve?board=5x5&moves=b2+c1");
  ASSERT_TRUE(response);
  EXPECT_EQ(response->body.rfind(R"({"board": "5x5", "start": "c3", "rules": "standard", )"
                                 R"("steps": "king", "moves": ["b2", "c1"], )"
                                 R"("position": "5/5/2x2/1x3/2o2 1", "to_move": 1, )"
                                 R"("value": "loss", "winner": 2, "remoteness": 16, )",
                                 0),
            0u)
      << response->body;
}

TEST(ServeApi, PositionStringsAndEndedGames) {
  Api api(five_by_five(), {"5x5-standard.rdb"}, quick_options());
  const std::optional<Response> position =
      api.answer_now("GET", "/api/solve?board=5x5&position=5%2F5%2F2x2%2F1x3%2F2o2+1");
  ASSERT_TRUE(position);
  EXPECT_EQ(position->status, 200u) << position->body;
  EXPECT_NE(position->body.find(R"("remoteness": 16)"), std::string::npos) << position->body;
  // The game ended with player 1 entering a1: no children, player 1 the winner.
  const Response ended = api.handle("GET", "/api/solve?board=5x5&moves=b2+b1+a1");
  EXPECT_EQ(ended.status, 200u) << ended.body;
  EXPECT_NE(ended.body.find(R"("winner": 1, "remoteness": 0, "best_moves": [], "children": [])"),
            std::string::npos)
      << ended.body;
}

TEST(ServeApi, SearchesWhatNoDatabaseHoldsAndCachesIt) {
  Api api({}, {}, quick_options());
  const std::string target = "/api/solve?board=4x5&moves=b3";
  EXPECT_FALSE(api.answer_now("GET", target)) << "a search is not answered at once";
  const Response searched = api.handle("GET", target);
  EXPECT_EQ(searched.status, 200u) << searched.body;
  EXPECT_NE(searched.body.find(R"("source": "search")"), std::string::npos);
  EXPECT_EQ(stable(searched.body), stable(solve_json("4x5", "b3")));
  const std::optional<Response> cached = api.answer_now("GET", target);
  ASSERT_TRUE(cached) << "a searched position is answered at once the next time";
  EXPECT_EQ(stable(cached->body), stable(searched.body));
  // Another board than the database's is searched too.
  Api with_database(five_by_five(), {"5x5-standard.rdb"}, quick_options());
  EXPECT_FALSE(with_database.answer_now("GET", "/api/solve?board=4x4"));
  EXPECT_FALSE(with_database.answer_now("GET", "/api/solve?board=5x5&rules=stuck-draw"));
  EXPECT_EQ(with_database.handle("GET", "/api/solve?board=5x5&start=b3").status, 200u);
}

TEST(ServeApi, MapEqualsTheMapCommand) {
  Api api({}, {}, quick_options());
  const Response response = api.handle("GET", "/api/map?board=4x4&steps=king&rules=standard");
  ASSERT_EQ(response.status, 200u) << response.body;
  const Rastros rastros(parse_board("4x4"));
  Solver solver(rastros);
  const Json expected = map_json(rastros, solve_start_map(rastros, solver), false);
  std::string body = stable(response.body);
  EXPECT_EQ(body, expected.dump().substr(0, expected.dump().size() - 1) + ", \"seconds\": S}");
  const Response value_only = api.handle("GET", "/api/map?board=4x4&value_only=1");
  EXPECT_EQ(value_only.status, 200u);
  EXPECT_EQ(value_only.body.find("remoteness"), std::string::npos) << value_only.body;
}

TEST(ServeApi, BadRequestsGet400WithAnError) {
  Api api(five_by_five(), {"5x5-standard.rdb"}, quick_options());
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/api/solve?board=99x99", "board"},
      {"/api/solve?board=banana", "board"},
      {"/api/solve?board=5x5&start=a1", "goal"},
      {"/api/solve?board=5x5&start=z9", "z9"},
      {"/api/solve?board=5x5&moves=b2+zz", "zz"},
      {"/api/solve?board=5x5&moves=b2+b2", "b2"},
      {"/api/solve?board=5x5&moves=b2&position=5/5/5/5/5+1", "either"},
      {"/api/solve?board=5x5&position=nonsense", "position"},
      {"/api/solve?board=5x5&position=5/5/2o2/5/5+2", "so player 1 is to move, not player 2"},
      {"/api/solve?board=5x5&position=5/5/5/1o3/5+1", "the start square c3, not b2"},
      {"/api/solve?board=5x5&position=x4/5/2x2/1o3/5+1", "slime on a5 not joined"},
      {"/api/solve?board=5x5&rules=chess", "chess"},
      {"/api/solve?board=5x5&steps=knight", "knight"},
      {"/api/solve?board=5x5&depth=3", "unknown parameter 'depth'"},
      {"/api/solve?board=5x5&board=6x6", "twice"},
      {"/api/solve?board", "'board' has no value"},
      {"/api/solve?moves=%zz", "escape"},
      {"/api/solve?moves=%00", "ASCII"},
      {"/api/map?board=4x4&start=b2", "unknown parameter 'start'"},
      {"/api/map?board=4x4&value_only=maybe", "value_only"},
      {"/api/map?board=1x1", "board"},
      {"/api/info?x=1", "unknown parameter"},
  };
  for (const auto& [target, words] : cases) {
    const std::optional<Response> response = api.answer_now("GET", target);
    ASSERT_TRUE(response) << target << ": bad input is answered at once";
    EXPECT_EQ(response->status, 400u) << target << ": " << response->body;
    EXPECT_EQ(response->body.rfind(R"({"error": ")", 0), 0u) << target << ": " << response->body;
    EXPECT_NE(response->body.find(words), std::string::npos) << target << ": " << response->body;
  }
}

TEST(ServeApi, OtherErrors) {
  Api api({}, {}, quick_options());
  EXPECT_EQ(api.handle("GET", "/api/nothing").status, 404u);
  EXPECT_EQ(api.handle("POST", "/api/solve?board=4x4").status, 405u);
  EXPECT_EQ(api.handle("DELETE", "/").status, 405u);
  EXPECT_EQ(api.handle("GET", "/api/solve?moves=" + std::string(3000, 'a')).status, 414u);
}

TEST(ServeApi, ServesThePageFiles) {
  Api api({}, {}, quick_options());
  const Response index = api.handle("GET", "/");
  EXPECT_EQ(index.status, 200u);
  EXPECT_EQ(index.content_type, "text/html; charset=utf-8");
  EXPECT_NE(index.body.find("<svg id=\"board\""), std::string::npos);
  EXPECT_EQ(api.handle("GET", "/app.js").content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(api.handle("GET", "/style.css?v=1").content_type, "text/css; charset=utf-8");
  for (const char* missing :
       {"/nothing.js", "/../README.md", "/..%2FREADME.md", "/.git", "/sub/app.js", "/index.txt"}) {
    EXPECT_EQ(api.handle("GET", missing).status, 404u) << missing;
  }
  ApiOptions no_files = quick_options();
  no_files.web_root.clear();
  EXPECT_EQ(Api({}, {}, no_files).handle("GET", "/").status, 404u);
}

TEST(ServeApi, OverTheTimeBudgetGets503) {
  Api api({}, {}, quick_options(0.3));
  const auto started = Clock::now();
  // The 7x7 game from c4 takes far longer than 0.3 s.
  const Response response = api.handle("GET", "/api/solve?board=7x7&start=c4");
  EXPECT_EQ(response.status, 503u) << response.body;
  EXPECT_NE(response.body.find("time budget"), std::string::npos) << response.body;
  EXPECT_LT(seconds_since(started), 2.0);
  EXPECT_EQ(api.handle("GET", "/api/map?board=7x7").status, 503u);
  // The server is still fine afterwards.
  EXPECT_EQ(api.handle("GET", "/api/solve?board=4x4").status, 200u);
}

TEST(ServeApi, SearchesBeyondTheBoundWaitWithinTheBudget) {
  // One search at a time: the second request waits for the first, which runs out of time, and
  // then has no time left itself.
  Api api({}, {}, quick_options(0.5, 1));
  const auto started = Clock::now();
  auto first = std::async(std::launch::async,
                          [&] { return api.handle("GET", "/api/solve?board=7x7&start=c4"); });
  auto second = std::async(std::launch::async,
                           [&] { return api.handle("GET", "/api/solve?board=7x7&start=e4"); });
  EXPECT_EQ(first.get().status, 503u);
  EXPECT_EQ(second.get().status, 503u);
  EXPECT_LT(seconds_since(started), 2.5);

  // Small searches all get through the single slot, one after the other.
  Api queued({}, {}, quick_options(20, 1));
  std::vector<std::future<Response>> answers;
  for (const char* start : {"a2", "b2", "c2", "a3", "b3", "c3", "d3", "b4"}) {
    answers.push_back(std::async(std::launch::async, [&queued, start] {
      return queued.handle("GET", std::string("/api/solve?board=4x5&start=") + start);
    }));
  }
  for (auto& answer : answers) EXPECT_EQ(answer.get().status, 200u);
}

TEST(ServeApi, DatabaseAnswersDoNotWaitForSearches) {
  Api api(five_by_five(), {"5x5-standard.rdb"}, quick_options(2, 1));
  auto search = std::async(std::launch::async,
                           [&] { return api.handle("GET", "/api/solve?board=7x7&start=c4"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto started = Clock::now();
  const std::optional<Response> answer = api.answer_now("GET", "/api/solve?board=5x5&moves=b2");
  EXPECT_LT(seconds_since(started), 0.5);
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, 200u);
  EXPECT_EQ(search.get().status, 503u);
}

TEST(ServeApi, StopCancelsRunningSearches) {
  Api api({}, {}, quick_options(60, 1));
  auto search = std::async(std::launch::async,
                           [&] { return api.handle("GET", "/api/solve?board=7x7&start=c4"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto started = Clock::now();
  api.stop();
  const Response response = search.get();
  EXPECT_LT(seconds_since(started), 2.0);
  EXPECT_EQ(response.status, 503u);
  EXPECT_NE(response.body.find("shutting down"), std::string::npos) << response.body;
  EXPECT_EQ(api.handle("GET", "/api/solve?board=4x4").status, 503u);
}

TEST(ServeApi, RefusesBadLimits) {
  EXPECT_THROW(Api({}, {}, quick_options(10, 0)), InputError);
  EXPECT_THROW(Api({}, {}, quick_options(0, 1)), InputError);
}

}  // namespace
}  // namespace rastros::tools::serve
