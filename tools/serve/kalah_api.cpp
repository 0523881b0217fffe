#include "serve/kalah_api.hpp"

#include <chrono>

#include "core/errors.hpp"
#include "game_registry.hpp"
#include "games/kalah/kalah_sowing.hpp"
#include "kalah/kalah_output.hpp"
#include "search/solver.hpp"
#include "serve/stop_at_deadline.hpp"

namespace rastros::tools::serve {

using namespace rastros::kalah;

namespace {

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// {"player": 1, "pit": "3"} for a house, {"player": 1, "pit": "store"} for a store.
Json pit_json(const Kalah& game, const KalahPit& pit) {
  const std::string name = pit.house == game.houses()
                               ? std::string("store")
                               : move_name(static_cast<KalahMove>(pit.house));
  Json json = Json::object();
  json.set("player", pit.player + 1).set("pit", name);
  return json;
}

}  // namespace

KalahApi::KalahApi(Api& api, KalahServe serve)
    : api_(api), serve_(std::move(serve)), cache_(api.options().cache_entries) {}

std::optional<Response> KalahApi::respond(std::string_view path,
                                          const std::map<std::string, std::string>& values,
                                          Clock::time_point received, bool may_search) {
  if (path == "/api/kalah/info") {
    Parameters(values, {}, path);
    return info();
  }
  if (path == "/api/kalah/solve") {
    return solve(Parameters(values, {"houses", "seeds", "rules", "moves", "position"}, path),
                 received, may_search);
  }
  if (path == "/api/kalah/moves") {
    const Parameters parameters(values, {"houses", "seeds", "rules", "moves", "position"}, path);
    return json_response(200, kalah_cli::show_json(input_of(parameters)));
  }
  if (path == "/api/kalah/play") {
    return play(
        Parameters(values, {"houses", "seeds", "rules", "moves", "position", "move"}, path));
  }
  return error_response(404, "no such endpoint: " + std::string(path) +
                                 " (try /api/kalah/solve, /api/kalah/moves, /api/kalah/play or "
                                 "/api/kalah/info)");
}

kalah_cli::KalahInput KalahApi::input_of(const Parameters& parameters) const {
  const Kalah& game = serve_.game;
  // The variant is the server's: a request may name it, to be sure, but not change it.
  const std::pair<const char*, std::string> served[] = {
      {"houses", std::to_string(game.houses())},
      {"seeds", std::to_string(game.seeds())},
      {"rules", std::string(rules_name(game.rule()))}};
  for (const auto& [name, value] : served) {
    const std::optional<std::string> given = parameters.get(name);
    if (given && *given != value) {
      throw InputError("this server plays " + game.name() + ": " + name + "=" +
                       quote_input(*given) +
                       " does not apply (start another with rastros "
                       "serve --game kalah --" +
                       name + " ...)");
    }
  }
  kalah_cli::KalahOptions options;
  options.houses = game.houses();
  options.seeds = game.seeds();
  options.rules = rules_name(game.rule());
  options.moves = parameters.get("moves");
  options.position = parameters.get("position");
  return kalah_cli::resolve_input(options);
}

std::optional<Response> KalahApi::solve(const Parameters& parameters, Clock::time_point received,
                                        bool may_search) {
  const kalah_cli::KalahInput input = input_of(parameters);
  const Kalah& game = input.game;
  const int endgame_seeds = serve_.endgame ? serve_.endgame->max_seeds() : -1;
  const auto respond_with = [&](const KalahResult& result, std::uint64_t nodes,
                                const char* source) {
    return json_response(
        200, kalah_cli::result_json({input, result, false, nodes, seconds_since(received),
                                     endgame_seeds, std::string(source)}));
  };
  if (has_ended(game, input.position)) {
    // The solver's own answer for an ended game, without building a solver.
    KalahResult result;
    const auto stores = final_stores(game, input.position);
    result.score = stores[input.position.to_move] - stores[1 - input.position.to_move];
    result.value = value_of_margin(*result.score);
    return respond_with(result, 0, "search");
  }
  if (serve_.endgame) {
    if (const auto answer = answer_from_database(game, *serve_.endgame, input.position)) {
      return respond_with(*answer, 0, "database");
    }
  }
  const std::string key = position_string(game, input.position);
  if (const auto cached = cache_.find(key)) {
    return respond_with(cached->result, cached->nodes, "search");
  }
  if (!may_search) return std::nullopt;

  std::optional<Solved> solved;
  api_.with_search_slot(received, [&](const std::atomic<bool>& stopped, Clock::time_point until) {
    // Another request may have solved the same position while this one waited.
    if (const auto cached = cache_.find(key)) {
      solved = *cached;
      return;
    }
    KalahSolver solver(game, {api_.options().table_bytes, false, false}, serve_.endgame.get());
    try {
      const StopAtDeadline watch([&solver] { solver.stop(); }, stopped, until);
      solved = Solved{solver.solve(input.position), solver.nodes()};
    } catch (const engine::SearchStopped&) {
      throw SearchCancelled();
    }
    cache_.store(key, *solved);
  });
  return respond_with(solved->result, solved->nodes, "search");
}

Response KalahApi::play(const Parameters& parameters) const {
  kalah_cli::KalahInput input = input_of(parameters);
  const Kalah& game = input.game;
  const std::optional<std::string> text = parameters.get("move");
  if (!text) {
    throw InputError("/api/kalah/play needs move=N, the house to sow (1.." +
                     std::to_string(game.houses()) + ")");
  }
  const KalahPosition before = input.position;
  const KalahMove move = parse_move(game, before, *text);
  const KalahSowing sowing = sow(game, before, move);
  if (!parameters.get("position")) input.moves.push_back(move);
  input.position = sowing.after;
  Json out = kalah_cli::position_json(input);
  Json path = Json::array();
  for (const KalahPit& pit : sowing.path) path.push(pit_json(game, pit));
  Json capture = nullptr;
  if (sowing.capture) {
    capture = Json::object();
    capture.set("house", pit_json(game, sowing.capture->house))
        .set("opposite", pit_json(game, sowing.capture->opposite))
        .set("seeds", sowing.capture->seeds);
  }
  const bool ended = has_ended(game, sowing.after);
  out.set("move", move_name(move))
      .set("player", sowing.mover + 1)
      .set("before", position_string(game, before))
      .set("path", path)
      .set("capture", capture)
      .set("again", sowing.again)
      .set("ended", ended);
  if (ended) {
    const auto stores = final_stores(game, sowing.after);
    Json totals = Json::array();
    totals.push(stores[0]).push(stores[1]);
    out.set("final_stores", totals)
        .set("winner",
             stores[0] == stores[1] ? Json(nullptr) : Json(stores[0] > stores[1] ? 1 : 2));
  }
  return json_response(200, out);
}

Response KalahApi::info() const {
  const Kalah& game = serve_.game;
  Json out = kalah_cli::variant_json(game);
  out.set("start", position_string(game, start_position(game)))
      .set("endgame_seeds", serve_.endgame ? serve_.endgame->max_seeds() : -1)
      .set("endgame_states", serve_.endgame ? serve_.endgame->size() : std::uint64_t{0})
      .set("endgame_file", serve_.endgame_file.empty() ? Json(nullptr) : Json(serve_.endgame_file))
      .set("max_seconds", api_.options().max_seconds)
      .set("max_searches", api_.options().max_searches);
  return json_response(200, out);
}

void add_kalah_serve_options(boost::program_options::options_description& description,
                             KalahServeOptions& options) {
  namespace po = boost::program_options;
  description.add_options()("houses",
                            po::value<int>()->notifier([&](int v) { options.houses = v; }),
                            "with --game kalah: houses per player, 1..8 (default 4)")(
      "seeds", po::value<int>()->notifier([&](int v) { options.seeds = v; }),
      "with --game kalah: seeds per house at the start (default 4)")(
      "rules", po::value<std::string>()->notifier([&](const std::string& v) { options.rules = v; }),
      "with --game kalah: standard or empty-capture (default standard)");
  kalah_cli::add_endgame_options(description, options.endgame);
}

std::string configure_game(Api& api, const std::vector<std::string>& arguments,
                           const KalahServeOptions& options,
                           const std::vector<std::string>& databases, bool quiet) {
  if (game_of(arguments) != "kalah") {
    const char* given = options.houses          ? "--houses"
                        : options.seeds         ? "--seeds"
                        : options.rules         ? "--rules"
                        : options.endgame.file  ? "--endgame"
                        : options.endgame.seeds ? "--endgame-seeds"
                                                : nullptr;
    if (given) throw InputError(std::string(given) + " applies to rastros serve --game kalah");
    return "";
  }
  if (!databases.empty()) {
    throw InputError(
        "--db reads Rastros databases: with --game kalah give an endgame database "
        "with --endgame FILE");
  }
  const Kalah game(options.houses.value_or(4), options.seeds.value_or(4),
                   parse_rules(options.rules.value_or("standard")));
  KalahServe serve{game, kalah_cli::endgame_for_search(game, options.endgame, quiet),
                   options.endgame.file.value_or("")};
  std::string line = game.name();
  line += serve.endgame ? ", endgame database of " + std::to_string(serve.endgame->max_seeds()) +
                              " seeds in play"
                        : ", no endgame database";
  api.serve_kalah(std::move(serve));
  return line;
}

}  // namespace rastros::tools::serve
