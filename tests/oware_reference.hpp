#pragma once
// An independent reference for the Oware tests: a deliberately naive implementation written
// from the rules text alone (Oware(M, N), Abapa rules, docs/rules.md). It includes nothing
// from solver/ and keeps the board as people see it: rows[p][i] is player p+1's house i+1,
// sown round the ring player 1's houses 1..M, then player 2's houses 1..M.
//
// Rules, as implemented here:
//   - a move empties one of the mover's non-empty houses and drops its seeds one by one into
//     the following houses round the ring, never into the house it started from;
//   - if the last seed lands in an opponent's house now holding 2 or 3, that house and each
//     house before it in the opponent's row holding 2 or 3, without a gap, are captured,
//     unless that would take every seed of the opponent's row (grand slam: nothing captured);
//   - when the opponent's row is empty, only the moves that put a seed in it are legal; if
//     there is none the game ends and the mover takes every seed on the board; a mover with no
//     seeds ends the game and the opponent takes every seed on the board;
//   - the score (rule 7) is the net captured from now on; play that never ends counts 0 from
//     its last capture on.
// The solver below works level by level (a capture lowers the seeds on the board) and, in a
// level, finds for each threshold t the positions worth >= t and <= -t as least fixed points by
// plain repeated sweeps over every position until nothing changes: no counters, no parents.

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

namespace oware_reference {

struct RefPosition {
  std::vector<std::vector<int>> rows;  // rows[p][i]
  int to_move = 0;
};

inline int row_total(const RefPosition& position, int player) {
  return std::accumulate(position.rows[player].begin(), position.rows[player].end(), 0);
}

/// The position after sowing `house` (0-based) of the side to move, and the seeds captured.
inline std::pair<RefPosition, int> ref_play(const RefPosition& position, int house) {
  const int m = static_cast<int>(position.rows[0].size());
  const int mover = position.to_move, opponent = 1 - position.to_move;
  RefPosition after = position;
  // The ring as (player, house) pairs, player 1's houses first.
  std::vector<std::pair<int, int>> ring;
  for (int p = 0; p < 2; ++p) {
    for (int i = 0; i < m; ++i) ring.emplace_back(p, i);
  }
  const int start = mover * m + house;
  int seeds = after.rows[mover][house];
  after.rows[mover][house] = 0;
  int at = start;
  while (seeds > 0) {
    at = (at + 1) % (2 * m);
    if (at == start) continue;
    ++after.rows[ring[at].first][ring[at].second];
    --seeds;
  }
  int captured = 0;
  std::vector<int> taken;
  if (ring[at].first == opponent) {
    for (int i = ring[at].second; i >= 0; --i) {
      const int here = after.rows[opponent][i];
      if (here != 2 && here != 3) break;
      captured += here;
      taken.push_back(i);
    }
  }
  if (captured > 0 && captured < row_total(after, opponent)) {
    for (const int i : taken) after.rows[opponent][i] = 0;
  } else {
    captured = 0;  // nothing, or a grand slam
  }
  after.to_move = opponent;
  return {after, captured};
}

/// The legal moves (0-based houses); empty when the game has ended.
inline std::vector<int> ref_moves(const RefPosition& position) {
  const int m = static_cast<int>(position.rows[0].size());
  const int opponent = 1 - position.to_move;
  std::vector<int> moves;
  for (int i = 0; i < m; ++i) {
    if (position.rows[position.to_move][i] == 0) continue;
    if (row_total(position, opponent) == 0) {
      const RefPosition after = ref_play(position, i).first;
      if (row_total(after, opponent) == 0) continue;  // does not feed
    }
    moves.push_back(i);
  }
  return moves;
}

/// What the side to move gains when the game has ended.
inline int ref_end_score(const RefPosition& position) {
  const int board = row_total(position, 0) + row_total(position, 1);
  return row_total(position, position.to_move) == 0 ? -board : board;
}

/// A board from the side to move's view (its houses, then the opponent's) as a position.
inline RefPosition from_view(const std::vector<int>& view) {
  const int m = static_cast<int>(view.size() / 2);
  RefPosition position;
  position.rows = {std::vector<int>(view.begin(), view.begin() + m),
                   std::vector<int>(view.begin() + m, view.end())};
  return position;
}
inline std::vector<int> to_view(const RefPosition& position) {
  std::vector<int> view = position.rows[position.to_move];
  const auto& other = position.rows[1 - position.to_move];
  view.insert(view.end(), other.begin(), other.end());
  return view;
}

/// Every board of 2*houses houses with exactly `seeds` seeds.
inline void all_boards(int houses, int seeds, std::vector<int>& board, std::size_t at,
                       std::vector<std::vector<int>>& out) {
  if (at + 1 == static_cast<std::size_t>(2 * houses)) {
    board[at] = seeds;
    out.push_back(board);
    return;
  }
  for (int here = 0; here <= seeds; ++here) {
    board[at] = here;
    all_boards(houses, seeds - here, board, at + 1, out);
  }
}

/// Rule 7's score of every board of `houses` houses with at most `max_seeds` seeds.
inline std::map<std::vector<int>, int> ref_solve(int houses, int max_seeds) {
  std::map<std::vector<int>, int> score;
  for (int s = 0; s <= max_seeds; ++s) {
    std::vector<std::vector<int>> level;
    std::vector<int> board(2 * houses);
    all_boards(houses, s, board, 0, level);
    // Each board's exits (captures and the end) and its moves that stay in the level.
    std::vector<std::vector<int>> exits(level.size());
    std::vector<std::vector<std::vector<int>>> stays(level.size());
    for (std::size_t x = 0; x < level.size(); ++x) {
      const RefPosition position = from_view(level[x]);
      const auto moves = ref_moves(position);
      if (moves.empty()) exits[x].push_back(ref_end_score(position));
      for (const int move : moves) {
        const auto [after, captured] = ref_play(position, move);
        if (captured > 0) {
          exits[x].push_back(captured - score.at(to_view(after)));
        } else {
          stays[x].push_back(to_view(after));
        }
      }
    }
    std::map<std::vector<int>, int> value;
    for (const auto& b : level) value[b] = 0;
    for (int t = 1; t <= s; ++t) {
      std::map<std::vector<int>, int> state;  // +1 worth >= t, -1 worth <= -t, 0 unknown
      for (const auto& b : level) state[b] = 0;
      for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t x = 0; x < level.size(); ++x) {
          if (state[level[x]] != 0) continue;
          bool win = std::any_of(exits[x].begin(), exits[x].end(), [&](int e) { return e >= t; });
          bool lose = std::all_of(exits[x].begin(), exits[x].end(), [&](int e) { return e <= -t; });
          for (const auto& child : stays[x]) {
            win = win || state[child] == -1;
            lose = lose && state[child] == 1;
          }
          if (win || lose) {
            state[level[x]] = win ? 1 : -1;
            changed = true;
          }
        }
      }
      for (const auto& [b, st] : state) {
        if (st != 0) value[b] = st * t;
      }
    }
    score.insert(value.begin(), value.end());
  }
  return score;
}

}  // namespace oware_reference
