#include "db/verify.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <chrono>

#include "core/errors.hpp"
#include "core/thread_sanitizer.hpp"
#include "db/proof_database.hpp"
#include "db/strong_database.hpp"
#include "rastros/canonical.hpp"
#include "rastros/notation.hpp"
#include "search/proof_number_search.hpp"

namespace rastros {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Positions checked between two progress lines; also bounds how many failures a block can
/// hold before they are trimmed to the listed ones.
constexpr std::size_t kBlock = std::size_t{1} << 20;

Outcome outcome_of(const DatabaseRecord& record) {
  return stored_outcome(record.value, record.remoteness);
}

/// A failure found by one thread, with the index of its key so that the listed failures can be
/// the first ones in key order whichever thread found them.
struct IndexedFailure {
  std::size_t index;
  VerificationFailure failure;
};

/// What one thread gathers: sums and maxima, and its failures (trimmed to the listed count).
struct Tally {
  std::uint64_t checked = 0;
  std::uint64_t children = 0;
  std::uint64_t failure_count = 0;
  std::uint64_t draws = 0;
  std::uint64_t leaves = 0;
  int max_remoteness = 0;
  bool remoteness_bound_broken = false;
  std::vector<IndexedFailure> failures;
};

/// Table of each thread's proof-number search for a proof database's leaves: leaves are small
/// regions, solved in a few thousand nodes.
constexpr std::size_t kLeafTableBytes = std::size_t{16} << 20;

void keep_first(std::vector<IndexedFailure>& failures, std::size_t listed) {
  std::sort(failures.begin(), failures.end(),
            [](const IndexedFailure& a, const IndexedFailure& b) { return a.index < b.index; });
  if (failures.size() > listed) failures.resize(listed);
}

class Verifier {
 public:
  Verifier(const Database& database, std::size_t listed)
      : database_(database),
        rastros_(game_of(database.header())),
        board_(rastros_.board()),
        canonicalizer_(board_),
        strategy_(database.header().kind == DatabaseKind::strategy),
        proof_(database.header().kind == DatabaseKind::proof),
        leaf_squares_(database.header().leaf_squares),
        listed_(listed),
        max_plies_(board_.square_count() - 1) {}

  VerificationReport run(const VerifyProgress& progress) {
    const Clock::time_point start = Clock::now();
    VerificationReport report;
    check_start(report);
    const std::size_t total = database_.size();
    for (std::size_t begin = 0; begin < total; begin += kBlock) {
      const std::size_t end = std::min(total, begin + kBlock);
      oneapi::tbb::parallel_for(
          oneapi::tbb::blocked_range<std::size_t>(begin, end),
          thread_sanitizer::handed_off([&](const oneapi::tbb::blocked_range<std::size_t>& range) {
            Tally& tally = tallies_.local();
            for (std::size_t i = range.begin(); i != range.end(); ++i) {
              check(i, tally);
            }
            // Trimmed here so a database that is wrong everywhere costs
            // memory for the listed failures only.
            if (tally.failures.size() > 2 * listed_) {
              keep_first(tally.failures, listed_);
            }
            thread_sanitizer::publish(&tallies_);
          }));
      thread_sanitizer::acquire(&tallies_);
      if (progress) {
        progress("verify: " + std::to_string(end) + " of " + std::to_string(total) +
                 " positions checked");
      }
    }
    std::vector<IndexedFailure> failures;
    bool remoteness_bound_broken = false;
    for (Tally& tally : tallies_) {
      report.checked += tally.checked;
      report.children += tally.children;
      report.failure_count += tally.failure_count;
      report.draws += tally.draws;
      report.leaves_solved += tally.leaves;
      report.max_remoteness = std::max(report.max_remoteness, tally.max_remoteness);
      remoteness_bound_broken = remoteness_bound_broken || tally.remoteness_bound_broken;
      failures.insert(failures.end(), std::make_move_iterator(tally.failures.begin()),
                      std::make_move_iterator(tally.failures.end()));
    }
    keep_first(failures, listed_ > report.failures.size() ? listed_ - report.failures.size() : 0);
    for (IndexedFailure& failure : failures) report.failures.push_back(std::move(failure.failure));

    for (const auto& search : leaf_searches_) {
      if (search) report.leaf_nodes += search->nodes();
    }
    if (proof_ && report.failure_count == 0) {
      if (const DatabaseRecord* start =
              database_.find(canonicalizer_.pack(rastros_.start_position()))) {
        report.proven_start_value = start->value;
      }
    }
    if (strategy_ || proof_) {
      // A strategy or proof database leaves out positions the winner avoids, so it cannot show
      // that the whole game has no draw.
      report.no_draw = std::nullopt;
    } else if (rastros_.stuck_rule() == StuckRule::loses) {
      report.no_draw = report.draws == 0 && !remoteness_bound_broken;
    } else {
      report.no_draw = report.draws == 0;
    }
    report.seconds = seconds_since(start);
    return report;
  }

 private:
  /// Both kinds of database are built from the start position, so it must be stored.
  void check_start(VerificationReport& report) const {
    const Position start = rastros_.start_position();
    if (!database_.find(canonicalizer_.pack(start))) {
      ++report.failure_count;
      if (report.failures.size() < listed_) {
        report.failures.push_back({canonicalizer_.pack(start), position_string(board_, start),
                                   "not closed: the start position is not stored"});
      }
    }
  }

  void check(std::size_t index, Tally& tally) const {
    const PackedPosition& key = database_.keys()[index];
    const DatabaseRecord& record = database_.records()[index];
    ++tally.checked;
    if (record.value == Value::draw) ++tally.draws;
    tally.max_remoteness = std::max<int>(tally.max_remoteness, record.remoteness);

    std::string problems;
    const auto problem = [&problems](const std::string& text) {
      if (!problems.empty()) problems += "; ";
      problems += text;
    };
    const Position position = Canonicalizer::unpack(key);
    if (proof_) {
      check_proof_position(key, position, record, problem, tally);
    } else {
      check_position(key, position, record, problem, tally);
    }
    if (rastros_.stuck_rule() == StuckRule::loses && record.value == Value::draw) {
      problem("a draw under standard rules, which cannot be drawn");
    }
    if (record.value == Value::draw && record.remoteness != 0) {
      problem("a draw with remoteness " + std::to_string(record.remoteness) + " (draws store 0)");
    }
    if (record.remoteness > max_plies_) {
      tally.remoteness_bound_broken = true;
      problem("remoteness " + std::to_string(record.remoteness) + " exceeds " +
              std::to_string(max_plies_) + ", the most plies a game on " + board_.name() +
              " can last");
    }
    if (problems.empty()) return;
    ++tally.failure_count;
    tally.failures.push_back({index, {key, position_string(board_, position), problems}});
  }

  template <class Problem>
  void check_position(const PackedPosition& key, const Position& position,
                      const DatabaseRecord& record, const Problem& problem, Tally& tally) const {
    // Keys that are not positions in play cannot be expanded: report them and stop.
    if (!check_key(key, position, problem)) return;

    const SquareMask moves = rastros_.move_mask(position);
    const Outcome stored = outcome_of(record);
    if (!moves) {
      // As stored: a stuck draw's record holds remoteness 0, which a draw's outcome as read
      // from a file does not carry.
      const Outcome expected = stored_outcome(*rastros_.terminal_value(position), 0);
      if (stored != expected) {
        problem("stored " + to_string(stored) +
                ", but the side to move is stuck: " + to_string(expected));
      }
      if (record.best_move != DatabaseRecord::kNoMove) {
        problem("stuck, yet a best move " + square_name(board_, record.best_move) + " is stored");
      }
      return;
    }

    // A winner's alternatives may be missing from a strategy database; nothing else may.
    const bool winner_only_needs_its_move = strategy_ && record.value == Value::win;
    std::optional<Score> best;
    std::optional<Score> best_move_score;
    std::vector<Square> missing;
    for (Square move : SquareSet(moves)) {
      const Position child = rastros_.play(position, move);
      Score child_score;
      if (const std::optional<Value> ended = rastros_.terminal_value(child)) {
        child_score = score_of({*ended, 0});
      } else {
        ++tally.children;
        const DatabaseRecord* child_record = database_.find(canonicalizer_.pack(child));
        if (!child_record) {
          if (!winner_only_needs_its_move || move == record.best_move) missing.push_back(move);
          continue;
        }
        child_score = score_of(outcome_of(*child_record));
      }
      const Score score = parent_score(child_score);
      if (!best || score > *best) best = score;
      if (move == record.best_move) best_move_score = score;
    }

    for (Square move : missing) {
      problem("not closed: the child after " + square_name(board_, move) + " (" +
              position_string(board_, rastros_.play(position, move)) + ") is not stored");
    }
    if (record.best_move == DatabaseRecord::kNoMove) {
      problem("no best move stored, but the side to move has legal moves");
    } else if (!(moves & bit(record.best_move))) {
      problem("best move " + square_name(board_, record.best_move) + " is not legal");
    }
    const bool complete = missing.empty() && !winner_only_needs_its_move;
    if (complete) {
      // Every child known: the record must be exactly the best of them.
      const Outcome expected = outcome_of_score(*best);
      if (stored != expected) {
        problem("stored " + to_string(stored) + ", children give " + to_string(expected));
      }
      if (best_move_score && *best_move_score != *best) {
        problem("best move " + square_name(board_, record.best_move) + " gives " +
                to_string(outcome_of_score(*best_move_score)) + ", not " + to_string(expected));
      }
      return;
    }
    if (!winner_only_needs_its_move || !missing.empty()) return;
    // Strategy database, winner to move: the stored move must achieve the record, and no
    // stored alternative may win faster.
    const Score claimed = score_of(stored);
    if (best_move_score && *best_move_score != claimed) {
      problem("best move " + square_name(board_, record.best_move) + " gives " +
              to_string(outcome_of_score(*best_move_score)) + ", not the stored " +
              to_string(stored));
    }
    if (best && *best > claimed) {
      problem("stored " + to_string(stored) + ", but a stored child gives " +
              to_string(outcome_of_score(*best)));
    }
  }

  /// Checks common to both kinds of check: false when the key cannot be expanded at all.
  template <class Problem>
  bool check_key(const PackedPosition& key, const Position& position,
                 const Problem& problem) const {
    if (position.snail >= board_.square_count() || (key.free & ~board_.all_squares()) ||
        (key.free & bit(position.snail))) {
      problem("key is not a position on " + board_.name());
      return false;
    }
    if (board_.is_goal(position.snail)) {
      problem("the game has ended (snail on a goal), so the position should not be stored");
      return false;
    }
    if (canonicalizer_.pack(position) != key) {
      // Look-ups of this position go to the canonical key, never to this one.
      problem("key is not canonical");
    }
    return true;
  }

  /// The value of a proof's child for its side to move, and how it was found: by the rules
  /// (the game ended), by the proof-number search (a leaf), or from the database (nothing when
  /// the child is not stored).
  std::optional<Value> proof_child_value(const Position& child, Tally& tally) const {
    if (const std::optional<Value> ended = rastros_.terminal_value(child)) return ended;
    if (is_proof_leaf(board_, child, leaf_squares_)) {
      ++tally.leaves;
      std::unique_ptr<ProofNumberSearch>& search = leaf_searches_.local();
      if (!search) search = std::make_unique<ProofNumberSearch>(rastros_, kLeafTableBytes);
      return search->solve(child);
    }
    ++tally.children;
    const DatabaseRecord* record = database_.find(canonicalizer_.pack(child));
    if (!record) return std::nullopt;
    return record->value;
  }

  /// A proof database's record: a win needs its stored move to reach a position the opponent
  /// loses; a loss needs every move to reach a position the opponent wins. Values only; the
  /// remoteness is not part of a proof and must be 0.
  template <class Problem>
  void check_proof_position(const PackedPosition& key, const Position& position,
                            const DatabaseRecord& record, const Problem& problem,
                            Tally& tally) const {
    if (!check_key(key, position, problem)) return;
    if (record.remoteness != 0) {
      problem("remoteness " + std::to_string(record.remoteness) +
              " in a proof database, which stores values only (0)");
    }
    const SquareMask moves = rastros_.move_mask(position);
    if (record.value == Value::draw) {
      problem("a draw: a proof database certifies wins and losses only");
      return;
    }
    if (!moves) {
      const Value expected = *rastros_.terminal_value(position);
      if (record.value != expected) {
        problem("stored " + std::string(to_string(record.value)) +
                ", but the side to move is stuck: " + std::string(to_string(expected)));
      }
      return;
    }
    const auto describe = [&](Square move) {
      return square_name(board_, move) + " (" +
             position_string(board_, rastros_.play(position, move)) + ")";
    };
    if (record.value == Value::win) {
      if (record.best_move == DatabaseRecord::kNoMove || !(moves & bit(record.best_move))) {
        problem(record.best_move == DatabaseRecord::kNoMove
                    ? "a win with no move stored"
                    : "stored move " + square_name(board_, record.best_move) + " is not legal");
        return;
      }
      const std::optional<Value> child =
          proof_child_value(rastros_.play(position, record.best_move), tally);
      if (!child) {
        problem("not closed: the child after " + describe(record.best_move) + " is not stored");
      } else if (*child != Value::loss) {
        problem("stored a win by " + square_name(board_, record.best_move) +
                ", but the opponent then has a " + std::string(to_string(*child)));
      }
      return;
    }
    // A loss: every move must leave the opponent winning.
    if (record.best_move != DatabaseRecord::kNoMove) {
      problem("a loss with a move stored (proof databases store moves for wins only)");
    }
    for (Square move : SquareSet(moves)) {
      const std::optional<Value> child = proof_child_value(rastros_.play(position, move), tally);
      if (!child) {
        problem("not closed: the child after " + describe(move) + " is not stored");
      } else if (*child != Value::win) {
        problem("stored a loss, but " + square_name(board_, move) + " leaves the opponent a " +
                std::string(to_string(*child)));
      }
    }
  }

  const Database& database_;
  const Rastros rastros_;
  const Board& board_;
  const Canonicalizer canonicalizer_;
  const bool strategy_;
  const bool proof_;
  const int leaf_squares_;
  const std::size_t listed_;
  const int max_plies_;
  oneapi::tbb::enumerable_thread_specific<Tally> tallies_;
  mutable oneapi::tbb::enumerable_thread_specific<std::unique_ptr<ProofNumberSearch>>
      leaf_searches_;
};

}  // namespace

VerificationReport verify_database(const Database& database, const VerifyProgress& progress,
                                   std::size_t listed_failures) {
  return Verifier(database, listed_failures).run(progress);
}

VerificationReport verify_no_draw(const Rastros& rastros, const VerifyProgress& progress,
                                  std::size_t listed_failures) {
  const Board& board = rastros.board();
  if (board.square_count() > kMaxNoDrawSquares) {
    throw InputError("--no-draw without --db solves " + board.name() + " in memory; it has " +
                     std::to_string(board.square_count()) + " squares, at most " +
                     std::to_string(kMaxNoDrawSquares) +
                     " allowed (verify a database file instead)");
  }
  const Clock::time_point start = Clock::now();
  const Database database = build_strong_database(rastros, progress);
  const double solve_seconds = seconds_since(start);
  VerificationReport report = verify_database(database, progress, listed_failures);
  report.solve_seconds = solve_seconds;
  return report;
}

}  // namespace rastros
