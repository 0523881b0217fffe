#include "rastros/matching_endgame.hpp"

#include <array>
#include <cstdint>

namespace rastros {
namespace {

// Edmonds' blossom algorithm on at most 64 vertices (the squares of one board).
//
// Every per-vertex array is indexed by square and lives on the stack; sets of vertices are
// SquareMasks. The search is the classic O(V^3) one: grow an alternating tree from one exposed
// root by BFS, contract an odd cycle (blossom) by relabelling the bases of its vertices, and
// flip the path as soon as the tree reaches another exposed vertex.
using Index = std::int8_t;
constexpr Index kNone = -1;

constexpr std::array<Index, kMaxSquares> kIdentity = [] {
  std::array<Index, kMaxSquares> identity{};
  for (int i = 0; i < kMaxSquares; ++i) identity[i] = static_cast<Index>(i);
  return identity;
}();

class Matcher {
 public:
  Matcher(const Board& board, SquareMask vertices) : board_(board), vertices_(vertices) {
    match_.fill(kNone);
  }

  // Adds `square` (with no partner) to the graph; the current matching stays valid.
  void add_vertex(Square square) { vertices_ |= bit(square); }

  // A maximal matching to start from: each unmatched vertex, lowest square first, takes the
  // unmatched neighbour with the fewest unmatched neighbours of its own. Returns its size.
  int greedy() {
    SquareMask free = vertices_;
    int size = 0;
    for (SquareMask rest = vertices_; rest != 0; rest &= rest - 1) {
      const Square v = lowest_square(rest);
      if ((free & bit(v)) == 0) continue;
      SquareMask candidates = board_.neighbours(v) & free;
      if (candidates == 0) continue;
      Square best = lowest_square(candidates);
      int best_degree = count(board_.neighbours(best) & free);
      for (candidates &= candidates - 1; candidates != 0 && best_degree > 1;
           candidates &= candidates - 1) {
        const Square u = lowest_square(candidates);
        const int degree = count(board_.neighbours(u) & free);
        if (degree < best_degree) {
          best = u;
          best_degree = degree;
        }
      }
      match_[v] = static_cast<Index>(best);
      match_[best] = static_cast<Index>(v);
      free &= ~(bit(v) | bit(best));
      ++size;
    }
    return size;
  }

  // Turns the current matching into a maximum one; returns the number of augmentations made.
  // A vertex with no augmenting path now never gets one later, so one pass over the exposed
  // vertices suffices.
  int complete() {
    int augmented = 0;
    for (SquareMask rest = exposed(); rest != 0; rest &= rest - 1) {
      const Square root = lowest_square(rest);
      if (match_[root] != kNone) continue;  // matched by an earlier augmentation
      if (augment_from(root)) ++augmented;
    }
    return augmented;
  }

  // The vertices the matching leaves uncovered.
  SquareMask exposed() const {
    SquareMask result = 0;
    for (SquareMask rest = vertices_; rest != 0; rest &= rest - 1) {
      const Square v = lowest_square(rest);
      if (match_[v] == kNone) result |= bit(v);
    }
    return result;
  }

  // Searches for an augmenting path from the exposed vertex `root` and flips it if found.
  bool augment_from(Square root) {
    base_ = kIdentity;
    parent_.fill(kNone);
    even_ = bit(root);  // vertices in the queue: the root and every vertex reached by a match
    members_[root] = bit(root);
    std::array<Index, kMaxSquares> queue;
    int head = 0;
    int tail = 0;
    queue[tail++] = static_cast<Index>(root);

    while (head < tail) {
      const Square v = queue[head++];
      for (SquareMask next = board_.neighbours(v) & vertices_; next != 0; next &= next - 1) {
        const Square to = lowest_square(next);
        if (base_[v] == base_[to] || match_[v] == to) continue;
        if (to == root || (match_[to] != kNone && parent_[match_[to]] != kNone)) {
          // `to` is even too: the edge closes an odd cycle, contract it.
          const Square new_base = lowest_common_ancestor(v, to);
          SquareMask blossom = 0;
          mark_path(v, new_base, to, blossom);
          mark_path(to, new_base, v, blossom);
          SquareMask merged = members_[new_base];
          for (; blossom != 0; blossom &= blossom - 1) merged |= members_[lowest_square(blossom)];
          for (SquareMask moved = merged & ~members_[new_base]; moved != 0; moved &= moved - 1) {
            base_[lowest_square(moved)] = static_cast<Index>(new_base);
          }
          members_[new_base] = merged;
          for (SquareMask odd = merged & ~even_; odd != 0; odd &= odd - 1) {
            queue[tail++] = static_cast<Index>(lowest_square(odd));
          }
          even_ |= merged;
        } else if (parent_[to] == kNone) {
          parent_[to] = static_cast<Index>(v);
          members_[to] = bit(to);
          if (match_[to] == kNone) {
            flip(to);
            return true;
          }
          const Square mate = match_[to];
          even_ |= bit(mate);
          members_[mate] = bit(mate);
          queue[tail++] = static_cast<Index>(mate);
        }
      }
    }
    return false;
  }

 private:
  Square lowest_common_ancestor(Square a, Square b) const {
    SquareMask seen = 0;
    while (true) {
      a = base_[a];
      seen |= bit(a);
      if (match_[a] == kNone) break;  // the root
      a = parent_[match_[a]];
    }
    while (true) {
      b = base_[b];
      if ((seen & bit(b)) != 0) return b;
      b = parent_[match_[b]];
    }
  }

  void mark_path(Square v, Square blossom_base, Square child, SquareMask& blossom) {
    while (base_[v] != blossom_base) {
      const Square mate = match_[v];
      blossom |= bit(base_[v]) | bit(base_[mate]);
      parent_[v] = static_cast<Index>(child);
      child = mate;
      v = parent_[mate];
    }
  }

  // Flips the alternating path from the newly reached exposed vertex `v` back to the root.
  void flip(Square v) {
    while (v != kNone) {
      const Square previous = parent_[v];
      const Square next = match_[previous];
      match_[v] = static_cast<Index>(previous);
      match_[previous] = static_cast<Index>(v);
      v = next;
    }
  }

  const Board& board_;
  SquareMask vertices_;
  SquareMask even_ = 0;
  std::array<Index, kMaxSquares> match_;
  std::array<Index, kMaxSquares> parent_;
  std::array<Index, kMaxSquares> base_;
  // For the base of each blossom (or single vertex) in the tree: the vertices it stands for.
  std::array<SquareMask, kMaxSquares> members_;
};

}  // namespace

int maximum_matching_size(const Board& board, SquareMask vertices) {
  Matcher matcher(board, vertices);
  const int greedy = matcher.greedy();
  return greedy + matcher.complete();
}

bool geography_mover_wins(const Board& board, Square snail, SquareMask region) {
  region &= ~bit(snail);
  if ((board.neighbours(snail) & region) == 0) return false;  // stuck
  // Take a maximum matching M of the region. The region plus the snail has a larger one iff
  // some augmenting path for M starts at the snail (any other would augment M in the region).
  Matcher matcher(board, region);
  matcher.greedy();
  matcher.complete();
  if (matcher.exposed() == 0) return false;  // a perfect matching of the region avoids the snail
  matcher.add_vertex(snail);
  return matcher.augment_from(snail);
}

}  // namespace rastros
