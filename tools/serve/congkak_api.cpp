#include "serve/congkak_api.hpp"

#include "games/congkak/congkak_sowing.hpp"
#include "mancala/mancala_output.hpp"

namespace rastros::tools::serve {

using namespace rastros::congkak;

template class MancalaApi<CongkakRules>;

namespace {

/// {"player": 1, "pit": "3"} for a house, {"player": 1, "pit": "store"} for a store.
Json pit_json(const Congkak& game, const CongkakPit& pit) {
  const std::string name = pit.house == game.houses()
                               ? std::string("store")
                               : mancala::move_name(static_cast<CongkakMove>(pit.house));
  Json json = Json::object();
  json.set("player", pit.player + 1).set("pit", name);
  return json;
}

/// {"start", "seeds", "end", "path"}: the house lifted, its seeds, where the last fell, and
/// where each fell.
Json lap_json(const Congkak& game, const CongkakLap& lap) {
  Json path = Json::array();
  for (const CongkakPit& pit : lap.path) path.push(pit_json(game, pit));
  Json json = Json::object();
  json.set("start", pit_json(game, lap.start))
      .set("seeds", lap.seeds)
      .set("end", pit_json(game, lap.end))
      .set("path", path);
  return json;
}

Json result_json(const CongkakInput& input, const CongkakResult& result, std::uint64_t nodes,
                 double seconds) {
  const mancala_cli::MancalaView view = congkak_cli::congkak_view(input);
  return mancala_cli::result_json({view, result, false, nodes, seconds, -1, "search"});
}

}  // namespace

CongkakRules::Input CongkakRules::resolve(const Serve& serve, const Parameters& parameters) {
  return resolve_congkak_input(int_parameter(parameters, "houses", serve.game.houses()),
                               int_parameter(parameters, "seeds", serve.game.seeds()),
                               parameters.get("moves"), parameters.get("position"));
}

Json CongkakRules::show_json(const Input& input) {
  return mancala_cli::show_json(congkak_cli::congkak_view(input));
}

std::optional<Json> CongkakRules::answer_now(const Serve&, const Input& input, double seconds) {
  const mancala::MancalaBoard board = input.game.board();
  if (!mancala::has_ended(board, input.position)) return std::nullopt;
  // The solver's own answer for an ended game, without building a solver.
  CongkakResult result;
  const auto stores = mancala::final_stores(board, input.position);
  result.score = stores[input.position.to_move] - stores[1 - input.position.to_move];
  result.value = mancala::value_of_margin(*result.score);
  return result_json(input, result, 0, seconds);
}

std::string CongkakRules::key(const Input& input) {
  return input.game.name() + " " + mancala::position_string(input.game.board(), input.position);
}

CongkakRules::Solved CongkakRules::search(const Serve&, const ApiOptions& options,
                                          const Input& input, const std::atomic<bool>& stopped,
                                          Clock::time_point until) {
  CongkakSolver solver(input.game, {options.table_bytes, false, false});
  return solve_by_deadline(
      [&] {
        return Solved{solver.solve(input.position), solver.nodes()};
      },
      [&solver] { solver.stop(); }, stopped, until);
}

Json CongkakRules::answer_json(const Serve&, const Input& input, const Solved& solved,
                               double seconds) {
  return result_json(input, solved.result, solved.nodes, seconds);
}

Json CongkakRules::play_json(Input input, const std::string& text, bool from_moves) {
  const Congkak& game = input.game;
  const mancala::MancalaBoard board = game.board();
  const CongkakPosition before = input.position;
  const CongkakMove move = mancala::parse_move(board, before, text);
  const CongkakSowing sowing = sow(game, before, move);
  if (from_moves) input.moves.push_back(move);
  input.position = sowing.after;
  Json out = mancala_cli::position_json(congkak_cli::congkak_view(input));
  Json laps = Json::array();
  for (const CongkakLap& lap : sowing.laps) laps.push(lap_json(game, lap));
  Json capture = nullptr;
  if (sowing.capture) {
    capture = Json::object();
    capture.set("house", pit_json(game, sowing.capture->house))
        .set("opposite", pit_json(game, sowing.capture->opposite))
        .set("seeds", sowing.capture->seeds);
  }
  const bool ended = mancala::has_ended(board, sowing.after);
  out.set("move", mancala::move_name(move))
      .set("player", sowing.mover + 1)
      .set("before", mancala::position_string(board, before))
      .set("laps", laps)
      .set("capture", capture)
      .set("again", sowing.again)
      .set("ended", ended);
  if (ended) {
    const auto stores = mancala::final_stores(board, sowing.after);
    out.set("final_stores", Json::array().push(stores[0]).push(stores[1]))
        .set("winner",
             stores[0] == stores[1] ? Json(nullptr) : Json(stores[0] > stores[1] ? 1 : 2));
  }
  return out;
}

Json CongkakRules::info_json(const Serve&, const Congkak& game) {
  Json out = congkak_cli::variant_json(game);
  const mancala::MancalaBoard board = game.board();
  // The page lets a person pick any variant: it says so, and the sizes the rules allow.
  out.set("start", mancala::position_string(board, mancala::start_position(board)))
      .set("variable_variant", true)
      .set("max_houses", mancala::kMaxHouses)
      .set("endgame_seeds", -1);
  return out;
}

}  // namespace rastros::tools::serve
