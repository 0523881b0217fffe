#include "analysis/play_session.hpp"

#include <string>

#include "core/errors.hpp"
#include "rastros/notation.hpp"

namespace rastros {
namespace {

SolverOptions with_remoteness(SolverOptions options) {
  options.value_only = false;
  return options;
}

}  // namespace

PlaySession::PlaySession(const Rastros& rastros, Player human, SolverOptions options)
    : game_(rastros),
      human_(human),
      solver_options_(with_remoteness(options)),
      positions_{rastros.start_position()} {}

PlaySession::PlaySession(const Database& database, Player human, SolverOptions options)
    : game_(DatabaseQuery(database).game()),
      human_(human),
      solver_options_(with_remoteness(options)),
      positions_{game_.start_position()} {
  query_.emplace(database);
}

PlaySession::PlaySession(const DatabaseReader& database, Player human, SolverOptions options)
    : game_(DatabaseQuery(database).game()),
      human_(human),
      solver_options_(with_remoteness(options)),
      positions_{game_.start_position()} {
  query_.emplace(database);
}

PlaySession::~PlaySession() = default;

std::vector<Square> PlaySession::legal_moves() const {
  std::vector<Square> moves;
  for (Square square : game_.legal_moves(position())) moves.push_back(square);
  return moves;
}

Square PlaySession::play(std::string_view text) {
  const Board& board = game_.board();
  Square move = 0;
  try {
    move = parse_square(board, text);
  } catch (const InputError&) {
    throw InputError(quote_input(text) + " is not a square of the " + board.name() +
                     " board (a file letter and a rank, such as " +
                     square_name(board, board.default_start()) + ")");
  }
  play(move);
  return move;
}

void PlaySession::play(Square move) {
  const Board& board = game_.board();
  if (move < 0 || move >= board.square_count()) {
    throw InputError("square " + std::to_string(move) + " is not a square of the " + board.name() +
                     " board");
  }
  const std::string name = square_name(board, move);
  if (is_over()) throw InputError("game over: " + name + " cannot be played, the game has ended");
  if (to_move() != human_) throw InputError("it is the computer's turn, not yours");
  const Position& now = position();
  if (!(board.neighbours(now.snail) & bit(move))) {
    throw InputError(name + " is not a step from the snail on " + square_name(board, now.snail));
  }
  if (!(now.free & bit(move))) throw InputError(name + " is onto slime");
  push(move);
}

ComputerMove PlaySession::computer_move() {
  if (is_over()) throw InputError("game over: the computer has no move to make");
  if (to_move() == human_) throw InputError("it is your turn, not the computer's");
  const Evaluation& evaluation = evaluate();
  // Children come in square order: the first with the best score is the lowest best square.
  const MoveOutcome* best = nullptr;
  for (const MoveOutcome& child : evaluation.children) {
    if (best == nullptr || score_of(child.outcome) > score_of(best->outcome)) best = &child;
  }
  const ComputerMove result{best->move, evaluation.outcome, evaluation.from_database};
  push(result.move);
  return result;
}

const Evaluation& PlaySession::evaluate() {
  const Position& now = position();
  const auto key = std::make_tuple(now.free, now.snail, number_of(now.to_move));
  if (const auto found = evaluations_.find(key); found != evaluations_.end()) {
    return found->second;
  }
  Evaluation evaluation;
  std::optional<DatabaseAnswer> answer;
  if (query_) answer = query_->answer(now);
  if (answer) {
    evaluation = {answer->outcome, std::move(answer->best_moves), std::move(answer->children),
                  true};
  } else {
    if (!solver_) solver_ = std::make_unique<Solver>(game_, solver_options_);
    Analysis analysis = solver_->analyse(now);
    evaluation = {analysis.outcome, std::move(analysis.best_moves), std::move(analysis.children),
                  false};
  }
  return evaluations_.emplace(key, std::move(evaluation)).first->second;
}

std::vector<MoveOutcome> PlaySession::hint() {
  if (is_over()) return {};
  const Evaluation& evaluation = evaluate();
  if (evaluation.children.size() == legal_moves().size()) return evaluation.children;
  // A strategy database knows only some moves of a won position: search for the rest.
  if (!solver_) solver_ = std::make_unique<Solver>(game_, solver_options_);
  return solver_->analyse(position()).children;
}

std::vector<Square> PlaySession::undo() {
  // The human's last move is the last move made with the human to move.
  std::size_t last_human = moves_.size();
  for (std::size_t i = moves_.size(); i-- > 0;) {
    if (positions_[i].to_move == human_) {
      last_human = i;
      break;
    }
  }
  if (last_human == moves_.size()) throw InputError("nothing to undo: you have not moved yet");
  std::vector<Square> taken(moves_.begin() + static_cast<std::ptrdiff_t>(last_human), moves_.end());
  moves_.resize(last_human);
  positions_.resize(last_human + 1);
  return taken;
}

void PlaySession::push(Square move) {
  positions_.push_back(game_.play(position(), move));
  moves_.push_back(move);
}

}  // namespace rastros
