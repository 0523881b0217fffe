#include "games/reversi/reversi_play.hpp"

#include <algorithm>
#include <string>

#include "core/errors.hpp"

namespace rastros::reversi {

namespace {

int empties(const Reversi& game, const ReversiPosition& position) {
  return count(game.geometry().inside & ~(position.black | position.white));
}

}  // namespace

// Measured (docs/commands.md): every move's exact score of FFO #40 (8×8, 20 empties) takes
// about 5 s of CPU, a whole game from 18 empties 0.5 s; 6×6 from 20 empties about 1 s.
int default_exact_empties(int n) {
  return n == 4 ? 16 : n == 6 ? 20 : 18;
}

void check_play_options(const ReversiPlayOptions& options) {
  if (options.exact_empties < -1 || options.exact_empties > 64) {
    throw InputError("--exact-empties must be between 0 and 64, not " +
                     std::to_string(options.exact_empties));
  }
  if (options.depth < 1 || options.depth > 12) {
    throw InputError("--depth must be between 1 and 12, not " + std::to_string(options.depth));
  }
}

ReversiAdvisor::ReversiAdvisor(const Reversi& game, ReversiPlayOptions options,
                               std::size_t table_bytes)
    : game_(game),
      exact_empties_(options.exact_empties < 0 ? default_exact_empties(game.size())
                                               : options.exact_empties),
      depth_(options.depth),
      solver_(game, {table_bytes}),
      evaluator_(game) {
  check_play_options(options);
}

bool ReversiAdvisor::within_reach(const ReversiPosition& position) const {
  return empties(game_, position) <= exact_empties_;
}

void ReversiAdvisor::stop() {
  stopped_.store(true, std::memory_order_relaxed);
  solver_.stop();
}

ReversiAdvice ReversiAdvisor::advise(const ReversiPosition& position) {
  const ReversiState state = search_state(position);
  ReversiAdvice advice;
  if (!within_reach(position)) {
    const EvaluationResult result = search_evaluation(evaluator_, state, depth_, &stopped_);
    advice.depth = depth_;
    advice.score = result.value;
    advice.best = result.best;
    advice.nodes = result.nodes;
    return advice;
  }
  const std::uint64_t before = solver_.nodes();
  advice.exact = true;
  advice.moves = solver_.analyse(state);
  advice.nodes = solver_.nodes() - before;
  // The first move in square order of the best score: a reproducible choice among equals.
  const auto best =
      std::max_element(advice.moves.begin(), advice.moves.end(),
                       [](const ReversiSolver::MoveScore& a, const ReversiSolver::MoveScore& b) {
                         return a.score < b.score;
                       });
  advice.score = best->score;
  advice.best = best->move;
  return advice;
}

ReversiPlaySession::ReversiPlaySession(const ReversiInput& start, std::array<bool, 2> human,
                                       ReversiPlayOptions options, std::size_t table_bytes)
    : game_(start.game),
      human_(human),
      advisor_(start.game, options, table_bytes),
      start_ply_(start.moves.size()),
      positions_{start.position},
      moves_(start.moves) {}

bool ReversiPlaySession::is_over() const {
  return game_.is_terminal(search_state(position()));
}

ReversiMove ReversiPlaySession::play(std::string_view text) {
  if (is_over()) throw InputError("the game is over");
  if (!humans_turn()) throw InputError("it is the program's turn");
  const ReversiMove move = parse_move(game_, text);
  if (!is_legal(game_, position(), move)) {
    const bool only_pass = game_.legal_moves(search_state(position()))[0] == kPass;
    throw InputError(move == kPass ? "you have a move: pass only when there is none"
                     : only_pass   ? move_name(move) + " is not legal: you have no move, pass"
                                   : move_name(move) + " is not a legal move here");
  }
  push(move);
  return move;
}

ReversiPlaySession::ComputerMove ReversiPlaySession::computer_move() {
  if (is_over() || humans_turn()) throw InputError("it is not the program's turn");
  ReversiAdvice advice = advisor_.advise(position());
  push(advice.best);
  return {advice.best, std::move(advice)};
}

ReversiAdvice ReversiPlaySession::hint() {
  if (is_over()) throw InputError("the game is over");
  return advisor_.advise(position());
}

std::vector<ReversiMove> ReversiPlaySession::undo() {
  // positions_[i] is the position before moves_[start_ply_ + i].
  std::size_t back = positions_.size() - 1;
  while (back > 0 && !is_human(positions_[back - 1].to_move)) --back;
  if (back == 0) throw InputError("nothing to take back");
  --back;
  const auto first = moves_.begin() + static_cast<std::ptrdiff_t>(start_ply_ + back);
  std::vector<ReversiMove> taken(first, moves_.end());
  moves_.erase(first, moves_.end());
  positions_.resize(back + 1);
  return taken;
}

void ReversiPlaySession::push(ReversiMove move) {
  positions_.push_back(play_move(game_, position(), move));
  moves_.push_back(move);
}

}  // namespace rastros::reversi
