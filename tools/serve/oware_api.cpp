#include "serve/oware_api.hpp"

#include <algorithm>

#include "games/oware/oware_sowing.hpp"
#include "oware/oware_endgame_options.hpp"
#include "oware/oware_output.hpp"

namespace rastros::tools::serve {

using namespace rastros::oware;

template class MancalaApi<OwareRules>;

namespace {

/// {"player": 1, "pit": "3"}: a house.
Json pit_json(const OwarePit& pit) {
  Json json = Json::object();
  json.set("player", pit.player + 1).set("pit", move_name(static_cast<OwareMove>(pit.house)));
  return json;
}

Json winner_json(int margin_of_player_1) {
  return margin_of_player_1 == 0 ? Json(nullptr) : Json(margin_of_player_1 > 0 ? 1 : 2);
}

/// `solve --game oware --json`, then what the page shows and the other mancala games print:
/// "margin" (the final margin for the side to move), "winner", "best_moves", "hints", each
/// move's value and final margin for the mover, and "move", the best move the computer plays
/// (one that makes progress where positions repeat: ProgressChooser).
Json known_json(const OwareServe& serve, const OwareInput& input, const OwareAnalysis& analysis,
                double seconds) {
  const OwareVariantData variant = serve.variants->of(input.game);
  Json out = oware_cli::report_json({input, analysis, variant.database->max_seeds()});
  const int banked = captured_margin(input.position);
  const int margin = banked + analysis.score;
  const auto value = [](int m) { return m > 0 ? "win" : m < 0 ? "loss" : "draw"; };
  Json hints = Json::array();
  Json best = Json::array();
  for (const OwareMoveScore& move : analysis.moves) {
    const int after = banked + move.score;
    Json hint = Json::object();
    hint.set("move", move_name(move.move)).set("value", value(after)).set("score", after);
    hints.push(hint);
    if (move.score == analysis.score) best.push(move_name(move.move));
  }
  if (!analysis.moves.empty()) {  // not an ended game
    out.set("move", move_name(variant.chooser->choose(input.position, analysis)));
  }
  out.set("margin", margin)
      .set("winner", winner_json(input.position.to_move == 0 ? margin : -margin))
      .set("best_moves", best)
      .set("hints", hints)
      .set("max_positions", serve.max_positions)
      .set("seconds", seconds);
  return out;
}

/// Over the budget: the position, and that its value is not known (never a guess).
Json unknown_json(const OwareServe& serve, const OwareInput& input, double seconds) {
  Json out = oware_cli::position_json(input);
  out.set("value", "unknown")
      .set("reason", "more than " + std::to_string(serve.max_positions) +
                         " positions beyond the endgame database (--max-positions)")
      .set("source", "search")
      .set("database_seeds", serve.variants->of(input.game).database->max_seeds())
      .set("max_positions", serve.max_positions)
      .set("seconds", seconds);
  return out;
}

}  // namespace

OwareVariants::OwareVariants(const Oware& served,
                             std::shared_ptr<const OwareDatabase> database)
    : served_(served.name()),
      served_data_{database, std::make_shared<const ProgressChooser>(served, *database)} {}

OwareVariantData OwareVariants::of(const Oware& game) const {
  const std::string name = game.name();
  if (name == served_) return served_data_;
  const std::lock_guard lock(mutex_);
  for (const auto& [kept, data] : others_) {
    if (kept == name) return data;
  }
  // Built under the lock: two requests for one new variant build it once.
  const auto database = oware_cli::database_for_solve(game, std::nullopt, std::nullopt, true);
  OwareVariantData data{database, std::make_shared<const ProgressChooser>(game, *database)};
  if (others_.size() >= kMaxKept) others_.erase(others_.begin());
  others_.emplace_back(name, data);
  return data;
}

OwareServe make_oware_serve(const Oware& game, std::shared_ptr<const OwareDatabase> database,
                            std::string database_file, std::uint64_t max_positions) {
  auto variants = std::make_shared<const OwareVariants>(game, database);
  return {game, std::move(database), std::move(database_file), max_positions,
          std::move(variants)};
}

std::vector<std::pair<std::string_view, std::string>> OwareRules::served(const Serve& serve) {
  return {{"houses", std::to_string(serve.game.houses())},
          {"seeds", std::to_string(serve.game.seeds())}};
}

OwareRules::Input OwareRules::resolve(const Serve& serve, const Parameters& parameters) {
  return resolve_oware_input(int_parameter(parameters, "houses", serve.game.houses()),
                             int_parameter(parameters, "seeds", serve.game.seeds()),
                             parameters.get("moves"), parameters.get("position"));
}

Json OwareRules::show_json(const Input& input) {
  return oware_cli::show_json(input);
}

std::optional<Json> OwareRules::answer_now(const Serve& serve, const Input& input, double seconds) {
  const OwareState state = search_state(input.game, input.position);
  // In the database, or ended: no search beyond it (at most the root).
  const OwareVariantData variant = serve.variants->of(input.game);
  if (input.game.seeds_in_play(state) > variant.database->max_seeds() &&
      !input.game.is_terminal(state)) {
    return std::nullopt;
  }
  const auto analysis = analyse(input.game, *variant.database, state, serve.max_positions);
  return answer_json(serve, input, analysis, seconds);
}

std::string OwareRules::key(const Input& input) {
  return input.game.name() + " " + position_string(input.game, input.position);
}

OwareRules::Solved OwareRules::search(const Serve& serve, const ApiOptions&, const Input& input,
                                      const std::atomic<bool>& stopped, Clock::time_point until) {
  std::atomic<bool> stop{false};
  const OwareState state = search_state(input.game, input.position);
  return solve_by_deadline(
      [&] {
        return analyse(input.game, *serve.variants->of(input.game).database, state,
                       serve.max_positions, &stop);
      },
      [&stop] { stop = true; }, stopped, until);
}

Json OwareRules::answer_json(const Serve& serve, const Input& input, const Solved& solved,
                             double seconds) {
  return solved ? known_json(serve, input, *solved, seconds) : unknown_json(serve, input, seconds);
}

Json OwareRules::play_json(Input input, const std::string& text, bool from_moves) {
  const Oware& game = input.game;
  const OwarePosition before = input.position;
  const OwareMove move = parse_move(game, before, text);
  const OwareSowing sowing = sow(game, before, move);
  if (from_moves) input.moves.push_back(move);
  input.position = sowing.after;
  Json out = oware_cli::show_json(input);
  Json path = Json::array();
  for (const OwarePit& pit : sowing.path) path.push(pit_json(pit));
  Json captured = Json::array();
  for (const OwarePit& pit : sowing.captured) captured.push(pit_json(pit));
  out.set("move", move_name(move))
      .set("player", sowing.mover + 1)
      .set("before", position_string(game, before))
      .set("path", path)
      .set("captured", captured)
      .set("seeds_captured", sowing.seeds_captured)
      .set("grand_slam", sowing.grand_slam)
      .set("again", false);
  if (has_ended(game, sowing.after)) {
    const auto captures = final_captures(game, sowing.after);
    out.set("final_stores", Json::array().push(captures[0]).push(captures[1]))
        .set("winner", winner_json(captures[0] - captures[1]));
  }
  return out;
}

Json OwareRules::info_json(const Serve& serve, const Oware& game) {
  const OwareInput start{game, {}, start_position(game)};
  const OwareVariantData variant = serve.variants->of(game);
  const bool served = game.name() == serve.game.name();
  Json out = oware_cli::show_json(start);
  out.set("start", position_string(game, start.position))
      .set("endgame_seeds", variant.database->max_seeds())
      .set("endgame_states", variant.database->size())
      .set("endgame_file", served && !serve.database_file.empty() ? Json(serve.database_file)
                                                                  : Json(nullptr))
      .set("variable_variant", true)
      .set("max_houses", kMaxHouses)
      .set("max_positions", serve.max_positions);
  return out;
}

}  // namespace rastros::tools::serve
