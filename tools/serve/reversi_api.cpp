#include "serve/reversi_api.hpp"

#include <algorithm>
#include <chrono>

#include "core/errors.hpp"
#include "engine/score_solver.hpp"
#include "game_registry.hpp"
#include "reversi/reversi_options.hpp"
#include "serve/stop_at_deadline.hpp"

namespace rastros::tools::serve {

using namespace rastros::reversi;

namespace {

std::string board_name(const Reversi& game) {
  return std::to_string(game.size()) + "x" + std::to_string(game.size());
}

Json advice_json(const ReversiInput& input, const ReversiAdvice& advice) {
  Json out = reversi_cli::position_json(input);
  Json best = Json::array();
  Json children = Json::array();
  if (advice.exact) {
    for (const auto& [move, score] : advice.moves) {
      if (score == advice.score) best.push(reversi::move_name(move));
      Json child = Json::object();
      child.set("move", reversi::move_name(move)).set("score", score);
      children.push(child);
    }
  } else {
    best.push(reversi::move_name(advice.best));
  }
  out.set("exact", advice.exact).set("best_moves", best).set("move", reversi::move_name(advice.best));
  if (advice.exact) {
    out.set("score", advice.score).set("children", children);
  } else {
    out.set("estimate", advice.score).set("depth", advice.depth);
  }
  out.set("nodes", advice.nodes);
  return out;
}

}  // namespace

ReversiApi::ReversiApi(Api& api, ReversiServe serve)
    : api_(api),
      serve_(std::move(serve)),
      exact_empties_(serve_.play.exact_empties < 0 ? default_exact_empties(serve_.game.size())
                                                   : serve_.play.exact_empties),
      cache_(api.options().cache_entries) {
  check_play_options(serve_.play);
}

std::optional<Response> ReversiApi::respond(std::string_view path,
                                            const std::map<std::string, std::string>& values,
                                            Clock::time_point received, bool may_search) {
  if (path == "/api/reversi/info") {
    Parameters(values, {}, path);
    return info();
  }
  if (path == "/api/reversi/hint") {
    return hint(Parameters(values, {"board", "moves", "position"}, path), received, may_search);
  }
  if (path == "/api/reversi/moves") {
    const Parameters parameters(values, {"board", "moves", "position"}, path);
    return json_response(200, reversi_cli::show_json(input_of(parameters)));
  }
  if (path == "/api/reversi/play") {
    return play(Parameters(values, {"board", "moves", "position", "move"}, path));
  }
  return error_response(404, "no such endpoint: " + std::string(path) +
                                 " (try /api/reversi/hint, /api/reversi/moves, "
                                 "/api/reversi/play or /api/reversi/info)");
}

ReversiInput ReversiApi::input_of(const Parameters& parameters) const {
  const std::string served = board_name(serve_.game);
  // The board is the server's: a request may name it, to be sure, but not change it.
  const std::optional<std::string> given = parameters.get("board");
  if (given && *given != served) {
    throw InputError("this server plays reversi " + served + ": board=" + quote_input(*given) +
                     " does not apply (start another with rastros serve --game reversi "
                     "--board ...)");
  }
  return resolve_reversi_input(served, parameters.get("moves"), parameters.get("position"));
}

std::optional<Response> ReversiApi::hint(const Parameters& parameters, Clock::time_point received,
                                         bool may_search) {
  const ReversiInput input = input_of(parameters);
  const Reversi& game = input.game;
  const ReversiState state = search_state(input.position);
  if (game.is_terminal(state)) {
    // The game is over: its exact margin, no move to advise.
    Json out = reversi_cli::show_json(input);
    out.set("exact", true).set("best_moves", Json::array()).set("children", Json::array());
    return json_response(200, out);
  }
  const std::string key = position_string(game, input.position);
  const auto respond_with = [&](const ReversiAdvice& advice, const char* source) {
    Json out = advice_json(input, advice);
    out.set("seconds", seconds_since(received)).set("source", source);
    return json_response(200, out);
  };
  if (const auto cached = cache_.find(key)) return respond_with(cached->advice, "cache");
  if (!may_search) return std::nullopt;

  std::optional<Advised> advised;
  api_.with_search_slot(received, [&](const std::atomic<bool>& stopped, Clock::time_point until) {
    // Another request may have advised on the same position while this one waited.
    if (const auto cached = cache_.find(key)) {
      advised = *cached;
      return;
    }
    ReversiAdvisor advisor(game, {exact_empties_, serve_.play.depth}, api_.options().table_bytes);
    try {
      const StopAtDeadline watch([&advisor] { advisor.stop(); }, stopped, until);
      advised = Advised{advisor.advise(input.position)};
    } catch (const engine::SearchStopped&) {
      throw SearchCancelled();
    }
    cache_.store(key, *advised);
  });
  return respond_with(advised->advice, "search");
}

Response ReversiApi::play(const Parameters& parameters) const {
  ReversiInput input = input_of(parameters);
  const Reversi& game = input.game;
  const std::optional<std::string> text = parameters.get("move");
  if (!text) throw InputError("/api/reversi/play needs move=SQUARE (a1..) or move=pass");
  const ReversiPosition before = input.position;
  const ReversiMove move = parse_move(game, *text);
  const ReversiMoveList legal = game.legal_moves(search_state(before));
  if (std::find(legal.begin(), legal.end(), move) == legal.end()) {
    throw InputError(reversi::move_name(move) + " is not a legal move for " +
                     reversi_cli::side_name(before.to_move) + " here");
  }
  input.position = play_move(game, before, move);
  if (!parameters.get("position")) input.moves.push_back(move);
  // The discs the move turned: those of the opponent's colour before that are the mover's now.
  const Bits mover_before = before.to_move == 0 ? before.black : before.white;
  const Bits mover_after = before.to_move == 0 ? input.position.black : input.position.white;
  const Bits turned = mover_after & ~mover_before & ~(move == kPass ? Bits{0} : Bits{1} << move);
  Json flipped = Json::array();
  for (int square = 0; square < 64; ++square) {
    if (turned >> square & 1) flipped.push(reversi::move_name(static_cast<ReversiMove>(square)));
  }
  Json out = reversi_cli::show_json(input);
  out.set("move", reversi::move_name(move))
      .set("player", before.to_move + 1)
      .set("before", position_string(game, before))
      .set("flipped", flipped);
  return json_response(200, out);
}

Response ReversiApi::info() const {
  const Reversi& game = serve_.game;
  Json out = Json::object();
  out.set("game", "reversi")
      .set("board", board_name(game))
      .set("start", position_string(game, start_position(game)))
      .set("exact_empties", exact_empties_)
      .set("depth", serve_.play.depth)
      .set("max_seconds", api_.options().max_seconds)
      .set("max_searches", api_.options().max_searches);
  return json_response(200, out);
}

void add_reversi_serve_options(boost::program_options::options_description& description,
                               ReversiServeOptions& options) {
  namespace po = boost::program_options;
  description.add_options()(
      "board", po::value<std::string>()->notifier([&](const std::string& v) { options.board = v; }),
      "with --game reversi: 4x4, 6x6 or 8x8 (default 8x8)")(
      "exact-empties", po::value<int>()->notifier([&](int v) { options.exact_empties = v; }),
      "with --game reversi: exact hints with at most this many empty squares (default 16 on "
      "4x4, 20 on 6x6, 18 on 8x8)")(
      "depth", po::value<int>()->notifier([&](int v) { options.depth = v; }),
      "with --game reversi: plies of the evaluation search before that, 1 to 12 (default 6)");
}

std::string configure_reversi(Api& api, const std::vector<std::string>& arguments,
                              const ReversiServeOptions& options,
                              const std::vector<std::string>& databases) {
  if (game_of(arguments) != "reversi") {
    const char* given = options.board           ? "--board"
                        : options.exact_empties ? "--exact-empties"
                        : options.depth         ? "--depth"
                                                : nullptr;
    if (given) throw InputError(std::string(given) + " applies to rastros serve --game reversi");
    return "";
  }
  if (!databases.empty()) throw InputError("--db reads Rastros databases: not with --game reversi");
  ReversiServe serve{Reversi(parse_board_size(options.board.value_or("8x8"))),
                     {options.exact_empties.value_or(-1), options.depth.value_or(6)}};
  check_play_options(serve.play);
  const int exact = serve.play.exact_empties < 0 ? default_exact_empties(serve.game.size())
                                                 : serve.play.exact_empties;
  std::string line = serve.game.name() + ", exact within " + std::to_string(exact) +
                     " empty squares, else depth " + std::to_string(serve.play.depth);
  api.serve_reversi(std::move(serve));
  return line;
}

}  // namespace rastros::tools::serve
