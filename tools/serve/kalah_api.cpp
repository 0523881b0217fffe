#include "serve/kalah_api.hpp"

#include "games/kalah/kalah_sowing.hpp"
#include "kalah/kalah_output.hpp"

namespace rastros::tools::serve {

using namespace rastros::kalah;

template class MancalaApi<KalahRules>;

namespace {

/// {"player": 1, "pit": "3"} for a house, {"player": 1, "pit": "store"} for a store.
Json pit_json(const Kalah& game, const KalahPit& pit) {
  const std::string name = pit.house == game.houses()
                               ? std::string("store")
                               : move_name(static_cast<KalahMove>(pit.house));
  Json json = Json::object();
  json.set("player", pit.player + 1).set("pit", name);
  return json;
}

Json result_json(const KalahServe& serve, const kalah_cli::KalahInput& input,
                 const KalahResult& result, std::uint64_t nodes, double seconds,
                 const char* source) {
  const int endgame_seeds = serve.endgame ? serve.endgame->max_seeds() : -1;
  return kalah_cli::result_json(
      {input, result, false, nodes, seconds, endgame_seeds, std::string(source)});
}

}  // namespace

std::vector<std::pair<std::string_view, std::string>> KalahRules::served(const Serve& serve) {
  const Kalah& game = serve.game;
  return {{"houses", std::to_string(game.houses())},
          {"seeds", std::to_string(game.seeds())},
          {"rules", std::string(rules_name(game.rule()))}};
}

KalahRules::Input KalahRules::resolve(const Serve& serve, const Parameters& parameters) {
  const Kalah& game = serve.game;
  kalah_cli::KalahOptions options;
  options.houses = game.houses();
  options.seeds = game.seeds();
  options.rules = rules_name(game.rule());
  options.moves = parameters.get("moves");
  options.position = parameters.get("position");
  return kalah_cli::resolve_input(options);
}

Json KalahRules::show_json(const Input& input) {
  return kalah_cli::show_json(input);
}

std::optional<Json> KalahRules::answer_now(const Serve& serve, const Input& input, double seconds) {
  const Kalah& game = input.game;
  if (has_ended(game, input.position)) {
    // The solver's own answer for an ended game, without building a solver.
    KalahResult result;
    const auto stores = final_stores(game, input.position);
    result.score = stores[input.position.to_move] - stores[1 - input.position.to_move];
    result.value = value_of_margin(*result.score);
    return result_json(serve, input, result, 0, seconds, "search");
  }
  if (serve.endgame) {
    if (const auto answer = answer_from_database(game, *serve.endgame, input.position)) {
      return result_json(serve, input, *answer, 0, seconds, "database");
    }
  }
  return std::nullopt;
}

std::string KalahRules::key(const Input& input) {
  return position_string(input.game, input.position);
}

KalahRules::Solved KalahRules::search(const Serve& serve, const ApiOptions& options,
                                      const Input& input, const std::atomic<bool>& stopped,
                                      Clock::time_point until) {
  KalahSolver solver(input.game, {options.table_bytes, false, false}, serve.endgame.get());
  return solve_by_deadline(
      [&] {
        return Solved{solver.solve(input.position), solver.nodes()};
      },
      [&solver] { solver.stop(); }, stopped, until);
}

Json KalahRules::answer_json(const Serve& serve, const Input& input, const Solved& solved,
                             double seconds) {
  return result_json(serve, input, solved.result, solved.nodes, seconds, "search");
}

Json KalahRules::play_json(Input input, const std::string& text, bool from_moves) {
  const Kalah& game = input.game;
  const KalahPosition before = input.position;
  const KalahMove move = parse_move(game, before, text);
  const KalahSowing sowing = sow(game, before, move);
  if (from_moves) input.moves.push_back(move);
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
  return out;
}

Json KalahRules::info_json(const Serve& serve, const Kalah& game) {
  Json out = kalah_cli::variant_json(game);
  out.set("start", position_string(game, start_position(game)))
      .set("endgame_seeds", serve.endgame ? serve.endgame->max_seeds() : -1)
      .set("endgame_states", serve.endgame ? serve.endgame->size() : std::uint64_t{0})
      .set("endgame_file", serve.endgame_file.empty() ? Json(nullptr) : Json(serve.endgame_file));
  return out;
}

}  // namespace rastros::tools::serve
