#pragma once
// An independent Reversi written from docs/rules.md square by square, for the tests: a board of
// cells, moves found by walking the 8 directions, plain minimax to the end of the game.

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "games/reversi/reversi.hpp"

namespace rastros::reversi::reference {

// 0 empty, 1 the side to move, 2 the opponent; cell (row, column).
struct Board {
  int n = 8;
  std::array<int, 64> cells{};
  int& at(int row, int column) { return cells[8 * row + column]; }
  int at(int row, int column) const { return cells[8 * row + column]; }
};

inline Board from_state(const ReversiState& state, int n) {
  Board board;
  board.n = n;
  for (int row = 0; row < n; ++row) {
    for (int column = 0; column < n; ++column) {
      const int square = 8 * row + column;
      board.at(row, column) = (state.mine >> square & 1) ? 1 : (state.theirs >> square & 1) ? 2 : 0;
    }
  }
  return board;
}

inline ReversiState to_state(const Board& board) {
  ReversiState state;
  for (int row = 0; row < board.n; ++row) {
    for (int column = 0; column < board.n; ++column) {
      const Bits bit = Bits{1} << (8 * row + column);
      if (board.at(row, column) == 1) state.mine |= bit;
      if (board.at(row, column) == 2) state.theirs |= bit;
    }
  }
  return state;
}

/// The squares (8*row + column) the player `who` (1 or 2) turns by playing at (row, column).
inline std::vector<int> naive_flips(const Board& board, int row, int column, int who) {
  std::vector<int> turned;
  if (board.at(row, column) != 0) return turned;
  const int other = 3 - who;
  for (int dr = -1; dr <= 1; ++dr) {
    for (int dc = -1; dc <= 1; ++dc) {
      if (dr == 0 && dc == 0) continue;
      std::vector<int> line;
      int r = row + dr, c = column + dc;
      while (r >= 0 && r < board.n && c >= 0 && c < board.n && board.at(r, c) == other) {
        line.push_back(8 * r + c);
        r += dr;
        c += dc;
      }
      if (!line.empty() && r >= 0 && r < board.n && c >= 0 && c < board.n && board.at(r, c) == who) {
        turned.insert(turned.end(), line.begin(), line.end());
      }
    }
  }
  return turned;
}

/// Squares where `who` may move.
inline std::vector<int> naive_moves(const Board& board, int who) {
  std::vector<int> moves;
  for (int row = 0; row < board.n; ++row) {
    for (int column = 0; column < board.n; ++column) {
      if (!naive_flips(board, row, column, who).empty()) moves.push_back(8 * row + column);
    }
  }
  return moves;
}

/// The board after the side to move plays `square`, seen from the opponent (who moves next).
inline Board naive_play(const Board& board, int square) {
  Board next = board;
  for (const int s : naive_flips(board, square / 8, square % 8, 1)) next.cells[s] = 1;
  next.cells[square] = 1;
  for (int& cell : next.cells) cell = cell == 0 ? 0 : 3 - cell;
  return next;
}

inline Board swapped(Board board) {
  for (int& cell : board.cells) cell = cell == 0 ? 0 : 3 - cell;
  return board;
}

/// The final margin for the side to move with perfect play: plain minimax over the rules.
inline int minimax(const Board& board) {
  const auto moves = naive_moves(board, 1);
  if (moves.empty()) {
    if (naive_moves(board, 2).empty()) {
      int mine = 0, theirs = 0, empty = 0;
      for (int row = 0; row < board.n; ++row) {
        for (int column = 0; column < board.n; ++column) {
          const int cell = board.at(row, column);
          (cell == 1 ? mine : cell == 2 ? theirs : empty) += 1;
        }
      }
      if (mine > theirs) return mine - theirs + empty;
      if (mine < theirs) return mine - theirs - empty;
      return 0;
    }
    return -minimax(swapped(board));
  }
  int best = -1000;
  for (const int square : moves) best = std::max(best, -minimax(naive_play(board, square)));
  return best;
}

/// A random position: each of the board's squares empty with probability `empty`, else a
/// random colour.
inline ReversiState random_state(std::mt19937_64& random, int n, double empty) {
  Board board;
  board.n = n;
  std::uniform_real_distribution<double> uniform(0, 1);
  for (int row = 0; row < n; ++row) {
    for (int column = 0; column < n; ++column) {
      board.at(row, column) = uniform(random) < empty ? 0 : uniform(random) < 0.5 ? 1 : 2;
    }
  }
  return to_state(board);
}

/// A position reached by random legal moves from the start until `empties` squares are left
/// (or the game ends first).
inline ReversiState random_game_state(std::mt19937_64& random, const Reversi& game, int empties) {
  ReversiState state = game.start();
  while (std::popcount(game.geometry().inside & ~(state.mine | state.theirs)) > empties &&
         !game.is_terminal(state)) {
    const auto moves = game.legal_moves(state);
    state = game.play(state, moves[random() % moves.size()]).next;
  }
  return state;
}

}  // namespace rastros::reversi::reference
