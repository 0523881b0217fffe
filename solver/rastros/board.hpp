#pragma once
// Board geometry for Rastros on any W x H board with 2 <= W, H and W*H <= 64.
//
// Squares are numbered rank by rank from the bottom-left corner:
//
//        a  b  c  d  e  f  g
//     7 42 43 44 45 46 47 48   <- 48 = g7, player 2's goal (the last square)
//     6 35 36 37 38 39 40 41
//     5 28 29 30 31 32 33 34
//     4 21 22 23 24 25 26 27   <- 24 = d4, the standard start
//     3 14 15 16 17 18 19 20
//     2  7  8  9 10 11 12 13
//     1  0  1  2  3  4  5  6   <- 0 = a1, player 1's goal
//
// square = rank_index * W + file_index, so a set of squares is a SquareMask with bit `square`
// set. A step east is `<< 1`, north is `<< W`; the file masks stop steps wrapping round an edge.

#include <array>
#include <bit>
#include <cstdint>
#include <string>

namespace rastros {

/// A set of squares, one bit per square. The single name to change for boards beyond 64 squares.
using SquareMask = std::uint64_t;
using Square = int;

inline constexpr int kMaxSquares = 64;
inline constexpr int kMaxFiles = 26;  // files are named by the letters a..z

constexpr SquareMask bit(Square square) {
  return SquareMask{1} << square;
}
constexpr int count(SquareMask mask) {
  return std::popcount(mask);
}
constexpr Square lowest_square(SquareMask mask) {
  return std::countr_zero(mask);
}

/// The players: player 1 moves first and owns a1; player 2 owns the top-right corner.
enum class Player : std::uint8_t { one = 1, two = 2 };
constexpr Player opponent(Player player) {
  return player == Player::one ? Player::two : Player::one;
}
constexpr int number_of(Player player) {
  return static_cast<int>(player);
}

/// Which steps the snail may take: the 8 king directions or the 4 orthogonal ones.
enum class StepSet : std::uint8_t { king, orthogonal };

class Board {
 public:
  /// Throws InputError when the size is outside 2 <= W, H, W*H <= 64, W <= 26.
  Board(int width, int height, StepSet steps = StepSet::king);

  int width() const { return width_; }
  int height() const { return height_; }
  int square_count() const { return width_ * height_; }
  StepSet steps() const { return steps_; }
  bool is_square() const { return width_ == height_; }
  /// "7x7"
  std::string name() const;

  SquareMask all_squares() const { return all_squares_; }
  bool on_board(int file, int rank) const {
    return file >= 0 && file < width_ && rank >= 0 && rank < height_;
  }
  Square square_at(int file, int rank) const { return rank * width_ + file; }
  int file_of(Square square) const { return square % width_; }
  int rank_of(Square square) const { return square / width_; }

  /// The squares one step from `square` (itself excluded).
  SquareMask neighbours(Square square) const { return neighbours_[square]; }
  /// `mask` together with every square one step from it, computed with shifts. Inline: the
  /// region flood fill calls it in a loop at every search node.
  SquareMask dilate(SquareMask mask) const {
    const SquareMask east = (mask << 1) & not_first_file_;
    const SquareMask west = (mask >> 1) & not_last_file_;
    if (steps_ == StepSet::orthogonal) {
      return mask | east | west | ((mask << width_) & all_squares_) | (mask >> width_);
    }
    const SquareMask row = mask | east | west;
    return row | ((row << width_) & all_squares_) | (row >> width_);
  }

  /// True when the squares of `passable` one step from `square` are joined to each other by
  /// steps through squares of `passable` in the 3x3 box around `square`. Then removing `square`
  /// from a connected set `passable + square` leaves `passable` connected: any path through
  /// `square` can go round it inside the box. A local, sufficient test (false says nothing);
  /// always false on boards narrower than 3 files, where the box's rows overlap in a mask.
  bool box_joins_neighbours(Square square, SquareMask passable) const {
    if (width_ < 3) return false;
    const unsigned pattern = box_pattern(square, passable);
    return box_pattern_joined_[pattern >> 6] >> (pattern & 63) & 1;
  }

  /// When box_joins_neighbours(square, passable) holds: the squares of the box that every way
  /// round `square` inside the box needs, that is whose loss splits the step neighbours of
  /// `square` in `passable` (e.g. the north square, when only west, north and east are there).
  /// On boards narrower than 3 files: the whole box.
  SquareMask box_cut_squares(Square square, SquareMask passable) const {
    if (width_ < 3) return box_[square] & passable;
    const unsigned cells = box_cut_cells_[box_pattern(square, passable)];
    const SquareMask rows = SquareMask{cells & 7} | SquareMask{cells >> 3 & 7} << width_ |
                            SquareMask{cells >> 6 & 7} << 2 * width_;
    const int lowest = square - width_ - 1;
    return (lowest >= 0 ? rows << lowest : rows >> -lowest) & box_[square];
  }

  /// The squares s of `passable` for which box_joins_neighbours(s, passable minus s) is false,
  /// all at once: with king steps, from the eight masks of which neighbour is there.
  SquareMask unjoined_squares(SquareMask passable) const {
    if (steps_ == StepSet::orthogonal || width_ < 3) {
      SquareMask unjoined = 0;
      for (SquareMask rest = passable; rest; rest &= rest - 1) {
        const Square square = lowest_square(rest);
        if (!box_joins_neighbours(square, passable & ~bit(square))) unjoined |= bit(square);
      }
      return unjoined;
    }
    // Bit s of `north` is set when the square north of s is in `passable`, and so on.
    const int w = width_;
    const SquareMask north = passable >> w;
    const SquareMask south = (passable << w) & all_squares_;
    const SquareMask east = (passable >> 1) & not_last_file_;
    const SquareMask west = (passable << 1) & not_first_file_;
    const SquareMask north_east = (passable >> (w + 1)) & not_last_file_;
    const SquareMask north_west = (passable >> (w - 1)) & not_first_file_;
    const SquareMask south_east = (passable << (w - 1)) & not_last_file_ & all_squares_;
    const SquareMask south_west = (passable << (w + 1)) & not_first_file_ & all_squares_;
    // The ring round a square: the four sides form a cycle (north and east are a step apart,
    // and so on), each corner touches its two sides only. The ring falls apart exactly when a
    // corner has neither side and something else is there, or the sides are two opposite ones.
    const SquareMask sides = north | south | east | west;
    const SquareMask lone_corners =
        (north_east & ~north & ~east & (sides | north_west | south_east | south_west)) |
        (north_west & ~north & ~west & (sides | north_east | south_east | south_west)) |
        (south_east & ~south & ~east & (sides | north_east | north_west | south_west)) |
        (south_west & ~south & ~west & (sides | north_east | north_west | south_east));
    const SquareMask opposite_sides =
        (north & south & ~east & ~west) | (east & west & ~north & ~south);
    return passable & (lone_corners | opposite_sides);
  }

  /// The corner a player wins by entering: a1 for player 1, the top-right square for player 2.
  Square goal_of(Player player) const { return player == Player::one ? 0 : square_count() - 1; }
  SquareMask goals() const { return bit(0) | bit(square_count() - 1); }
  /// A player's goal with its neighbours while the goal is in `free`, else nothing: the squares
  /// the other player must not step on (the owner would enter the goal next).
  SquareMask goal_zone(Player player, SquareMask free) const {
    const Square goal = goal_of(player);
    return free & bit(goal) ? neighbours(goal) | bit(goal) : 0;
  }
  bool is_goal(Square square) const { return square == 0 || square == square_count() - 1; }
  /// File floor(W/2), rank floor(H/2)+1: d4 on 7x7, e5 on 8x8. May be a goal on tiny boards.
  Square default_start() const { return square_at(width_ / 2, height_ / 2); }

  friend bool operator==(const Board& a, const Board& b) {
    return a.width_ == b.width_ && a.height_ == b.height_ && a.steps_ == b.steps_;
  }

 private:
  int width_;
  int height_;
  StepSet steps_;
  SquareMask all_squares_;
  SquareMask not_first_file_;  // squares a step east may land on
  SquareMask not_last_file_;   // squares a step west may land on
  std::array<SquareMask, kMaxSquares> neighbours_{};
  std::array<SquareMask, kMaxSquares> box_{};  // the 3x3 box around a square, itself excluded
  /// The 3x3 box around `square` in `passable` as 9 bits: bit 3*row + column, row 0 at the
  /// bottom (the centre, bit 4, is 0). Only for boards of 3 files or more.
  unsigned box_pattern(Square square, SquareMask passable) const {
    SquareMask box = passable & box_[square];
    const int lowest = square - width_ - 1;  // the box's bottom-left corner (maybe off the board)
    box = lowest >= 0 ? box >> lowest : box << -lowest;
    return static_cast<unsigned>((box & 7) | (box >> width_ & 7) << 3 |
                                 (box >> 2 * width_ & 7) << 6);
  }

  // Bit p of this 512-bit set: box pattern p (bit 3*row + column, row 0 at the bottom, centre
  // bit 4 ignored) joins the centre's step neighbours in it (see box_joins_neighbours).
  std::array<std::uint64_t, 8> box_pattern_joined_{};
  // For each box pattern: its cells whose loss splits the centre's step neighbours in it (see
  // box_cut_squares), as 9 bits like the pattern.
  std::array<std::uint16_t, 512> box_cut_cells_{};
};

}  // namespace rastros
