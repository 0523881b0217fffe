#pragma once
// Depth-first proof-number search (df-pn, Nagai 2002) for the win/loss value of a position.
//
// A second, independent algorithm next to the alpha-beta Solver: it answers only "does the
// side to move win?", and spends its effort where the proof looks cheapest instead of in move
// order. Each node carries a proof number pn (how many leaves must still be shown to prove the
// query for the side to move) and a disproof number dn; in negamax form
//     pn(node) = min over children of dn(child),   dn(node) = sum over children of pn(child).
// MID searches below a node until pn or dn reaches a threshold, so the tree lives in the table,
// not on the stack. Refinements:
//   1 + epsilon   (Pawlewicz and Lew 2007) a child's threshold is the second-best child's
//                 number times 1 + epsilon instead of plus one, so the search stays in a
//                 subtree longer instead of see-sawing between two siblings. Measured best
//                 here with a large epsilon (30): see the .cpp.
//   heuristic     a new leaf starts at pn = 1, dn = (safe replies of its mover)^2 (a reply
//   initialisation next to the other player's empty goal loses at once and is not counted):
//                 refuting a node costs a proof per reply, and squaring sharpens the
//                 fewest-replies preference that also drives alpha-beta's move ordering.
//   table         own table keyed by the canonical packed position (rastros/canonical.hpp);
//                 a bucket keeps the entries whose subtrees cost the most work. The game graph
//                 is acyclic (every move slimes a square), so there is no graph-history
//                 interaction and a lost entry only costs a re-search, never a wrong answer.
//   prefetch      a node's children's table buckets are all asked for before any is
//                 probed, so their cache misses overlap (7x7 start: 0.68 s -> 0.41 s).
//   knowledge     the alpha-beta Solver's rules but its one-goal rule (left out on purpose, so
//                 the two methods that certify a result share less): stuck, own goal in reach,
//                 moves next to the opponent's empty goal dominated, a move leaving the
//                 opponent only squares next to our goal wins, and once no goal is reachable
//                 the matching endgame (rastros/matching_endgame.hpp) settles the node.
//
// Stuck-draw rules are supported by solving twice: first "does the side to move win?", then,
// if not, "does the side to move at least draw?". A query flag in the table key records which
// question a node answers; it alternates each ply (the mover wins iff some reply leaves the
// opponent not even drawing, and draws iff some reply leaves the opponent not winning). Under
// standard rules there are no draws, the two questions coincide and the flag stays off.
//
// Single-threaded. Not thread-safe (one object per thread), except nodes().

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>

#include "core/value.hpp"
#include "rastros/rastros.hpp"
#include "search/analysis.hpp"

namespace rastros {

class ProofNumberEngine;

/// Long runs: checked by the searching thread every few thousand nodes, at points where the
/// table holds only finished results (so a copy of it is a valid checkpoint).
struct ProofSearchControl {
  /// When set and true, the search calls `save` (if set) and throws SearchStopped.
  const std::atomic<bool>* stop = nullptr;
  /// Called every `save_every` of search time and before stopping, from the searching thread.
  std::function<void()> save;
  std::chrono::steady_clock::duration save_every = std::chrono::minutes(10);
  /// When set, the search throws SearchStopped once this time has passed (without saving: a
  /// time budget, as for one square of a map, not an interruption to resume from).
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

/// A proof-number search given up on ProofSearchControl::stop (after its last save).
class SearchStopped : public std::runtime_error {
 public:
  SearchStopped() : std::runtime_error("proof-number search stopped") {}
};

class ProofNumberSearch {
 public:
  /// The table uses at most `table_bytes` (at least one 64-byte bucket). The table persists
  /// between calls to solve(), so solving related positions reuses earlier work.
  ProofNumberSearch(const Rastros& rastros, std::size_t table_bytes);
  ~ProofNumberSearch();
  ProofNumberSearch(const ProofNumberSearch&) = delete;
  ProofNumberSearch& operator=(const ProofNumberSearch&) = delete;

  /// The value of a position for the side to move (win/loss, or draw under stuck-draw rules).
  Value solve(const Position& position);

  /// The value of the position and of every legal move from it (value-only outcomes), the
  /// moves solved one after the other in the same table.
  Analysis analyse(const Position& position);

  /// Checkpoints and stopping for long runs (none by default).
  void set_control(ProofSearchControl control);

  /// The table's memory, for checkpoints: a copy taken from `control.save` (or between
  /// searches) and put back with restore_table() resumes the work it holds. Restoring throws
  /// std::invalid_argument when the size differs from this table's.
  std::span<const unsigned char> table_image() const;
  void restore_table(std::span<const unsigned char> image);
  /// Reads the table's memory straight from `read(destination)`, which must fill it (for
  /// tables of gigabytes, no second copy).
  void restore_table(const std::function<void(std::span<unsigned char>)>& read);
  /// Nodes restored with a checkpoint count in nodes() from then on.
  void add_restored_nodes(std::uint64_t nodes);

  /// MID calls (node visits, re-visits included) since construction. Safe to read from another
  /// thread while a search runs (for progress lines).
  std::uint64_t nodes() const;

 private:
  Rastros rastros_;
  std::unique_ptr<ProofNumberEngine> engine_;
};

}  // namespace rastros
