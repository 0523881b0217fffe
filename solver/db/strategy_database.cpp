#include "db/strategy_database.hpp"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>
#include <unordered_set>
#include <utility>

#include "core/value.hpp"
#include "db/strong_database.hpp"
#include "rastros/canonical.hpp"

namespace rastros {
namespace {

struct KeyHash {
  std::size_t operator()(const PackedPosition& key) const {
    // Mix the mask so that keys differing in a few high squares do not collide in low bits.
    std::uint64_t h = static_cast<std::uint64_t>(key.free) * 0x9e3779b97f4a7c15ULL;
    h ^= (h >> 29) ^ key.snail;
    return static_cast<std::size_t>(h * 0xbf58476d1ce4e5b9ULL);
  }
};

// One expanded position: its record and the children to expand next.
struct Expansion {
  DatabaseRecord record;
  std::vector<PackedPosition> next;
};

}  // namespace

Database build_strategy_database(const Rastros& rastros, int book_depth, Solver& solver,
                                 const std::function<void(const std::string&)>& progress) {
  if (book_depth < 0) throw std::invalid_argument("book depth must not be negative");
  if (solver.options().value_only) {
    throw std::invalid_argument("a strategy database needs remoteness; the solver is value-only");
  }
  const Canonicalizer canonicalizer(rastros.board());
  std::vector<PackedPosition> keys;
  std::vector<DatabaseRecord> records;
  std::unordered_set<PackedPosition, KeyHash> seen;

  // Breadth-first by ply, so a position is first met at its smallest depth from the start and
  // the book rule ("all children within book_depth plies") is applied to it exactly once.
  std::vector<PackedPosition> level;
  const Position start = rastros.start_position();
  if (!rastros.has_ended(start)) {
    level.push_back(canonicalizer.pack(start));
    seen.insert(level.front());
  }
  for (int depth = 0; !level.empty(); ++depth) {
    const bool in_book = depth < book_depth;
    std::vector<Expansion> expansions(level.size());
    // Positions of one ply in parallel; each solve also runs in parallel on the same arena.
    oneapi::tbb::parallel_for(std::size_t{0}, level.size(), [&](std::size_t i) {
      // Work in the key's own frame, so the chosen square is already what the record stores.
      const Position position = Canonicalizer::unpack(level[i]);
      Score best = 0;
      bool have_best = false;
      Square best_move = DatabaseRecord::kNoMove;
      std::vector<std::pair<Square, PackedPosition>> children;
      for (Square move : rastros.legal_moves(position)) {
        const Position child = rastros.play(position, move);
        Outcome outcome;
        if (const std::optional<Value> ended = rastros.terminal_value(child)) {
          outcome = {*ended, 0};
        } else {
          outcome = solver.solve(child);
          children.emplace_back(move, canonicalizer.pack(child));
        }
        const Score score = parent_score(score_of(outcome));
        // Squares come in increasing order, so a strict comparison keeps the lowest on ties.
        if (!have_best || score > best) {
          best = score;
          best_move = move;
          have_best = true;
        }
      }
      Expansion& expansion = expansions[i];
      const Outcome outcome = outcome_of_score(best);
      expansion.record = {outcome.value, static_cast<std::uint8_t>(outcome.remoteness.value_or(0)),
                          static_cast<std::uint8_t>(best_move)};
      // The loser's (and a drawing side's) every reply must be answerable; the winner needs
      // only its chosen move, unless the position is still inside the opening book.
      const bool all_children = in_book || outcome.value != Value::win;
      for (const auto& [move, key] : children) {
        if (all_children || move == best_move) expansion.next.push_back(key);
      }
    });
    std::vector<PackedPosition> next;
    for (std::size_t i = 0; i < level.size(); ++i) {
      keys.push_back(level[i]);
      records.push_back(expansions[i].record);
      for (const PackedPosition& key : expansions[i].next) {
        if (seen.insert(key).second) next.push_back(key);
      }
    }
    if (progress) {
      progress("ply " + std::to_string(depth) + ": " + std::to_string(level.size()) +
               " positions, " + std::to_string(keys.size()) + " stored, " +
               std::to_string(solver.nodes()) + " nodes searched");
    }
    level = std::move(next);
  }

  // The file format wants keys strictly increasing.
  std::vector<std::size_t> order(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  std::vector<PackedPosition> sorted_keys;
  std::vector<DatabaseRecord> sorted_records;
  sorted_keys.reserve(order.size());
  sorted_records.reserve(order.size());
  for (std::size_t i : order) {
    sorted_keys.push_back(keys[i]);
    sorted_records.push_back(records[i]);
  }
  DatabaseHeader header = header_for(rastros, DatabaseKind::strategy);
  header.book_depth = book_depth;
  return Database(header, std::move(sorted_keys), std::move(sorted_records));
}

}  // namespace rastros
