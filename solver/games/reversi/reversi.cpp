#include "games/reversi/reversi.hpp"

#include "core/errors.hpp"

namespace rastros::reversi {

Reversi::Reversi(int n) {
  if (n != 4 && n != 6 && n != 8) {
    throw InputError("the Reversi board must be 4x4, 6x6 or 8x8, not " + std::to_string(n) + "x" +
                     std::to_string(n));
  }
  geometry_ = Geometry::of(n);
}

std::string Reversi::name() const {
  return "reversi " + std::to_string(size()) + "x" + std::to_string(size());
}

ReversiState Reversi::start() const {
  const int h = size() / 2 - 1;  // the centre square's top-left corner
  const auto bit = [](int row, int column) { return Bits{1} << (8 * row + column); };
  // White on the top-left and bottom-right centre squares, black on the other two.
  const Bits white = bit(h, h) | bit(h + 1, h + 1);
  const Bits black = bit(h, h + 1) | bit(h + 1, h);
  return {black, white};
}

ReversiMoveList Reversi::legal_moves(const State& state) const {
  ReversiMoveList list;
  Bits moves = reversi::legal_moves(state.mine, state.theirs, geometry_);
  if (moves == 0) {
    if (reversi::legal_moves(state.theirs, state.mine, geometry_) != 0) list.push_back(kPass);
    return list;
  }
  for (; moves; moves &= moves - 1) list.push_back(static_cast<Move>(std::countr_zero(moves)));
  return list;
}

ReversiPlayed Reversi::play(const State& state, Move move) const {
  if (move == kPass) return {{state.theirs, state.mine}, 0, false};
  const Bits turned = flips(move, state.mine, state.theirs, geometry_);
  const Bits mine = state.mine | turned | (Bits{1} << move);
  return {{state.theirs & ~turned, mine}, 0, false};
}

bool Reversi::is_terminal(const State& state) const {
  return reversi::legal_moves(state.mine, state.theirs, geometry_) == 0 &&
         reversi::legal_moves(state.theirs, state.mine, geometry_) == 0;
}

int Reversi::terminal_score(const State& state) const {
  return final_margin(state.mine, state.theirs, geometry_);
}

std::uint64_t Reversi::key(const State& state) const {
  if (size() == 8) {
    // Not exact (see the header): a strong mix of both masks.
    std::uint64_t x = state.mine * 0x9e3779b97f4a7c15ULL ^ (state.theirs + 0x632be59bd9b4e019ULL);
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 32;
    return x;
  }
  // Base 3, row by row: at most 3^36 < 2^58 for 6×6.
  std::uint64_t rank = 0;
  for (int row = 0; row < size(); ++row) {
    for (int column = 0; column < size(); ++column) {
      const int square = 8 * row + column;
      rank = rank * 3 + (state.mine >> square & 1) + 2 * (state.theirs >> square & 1);
    }
  }
  return rank;
}

int Reversi::move_order(const State& state, Move move) const {
  if (move == kPass) return 0;
  const auto next = play(state, move).next;
  const int replies = count(reversi::legal_moves(next.mine, next.theirs, geometry_));
  const int n = size() - 1;
  const int row = move / 8, column = move % 8;
  const bool corner = (row == 0 || row == n) && (column == 0 || column == n);
  return (corner ? 64 : 0) - replies;
}

}  // namespace rastros::reversi
