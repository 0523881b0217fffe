#pragma once
// Verification of solved databases: every stored record recomputed from its children by the
// rules alone, independently of the solver that wrote it.
//
// For each stored key the position Canonicalizer::unpack(key) is expanded with Rastros' own
// move generator and terminal test (not the retrograde solver's shortcuts), so a bug in the
// solver's child keys, stuck handling or remoteness arithmetic shows up as a mismatch here:
//   - a move into one's own goal wins in 1, into the opponent's goal loses in 1, onto a square
//     with no way out is a stuck child (loss 0 under standard rules, draw under stuck-draw);
//   - any other child must itself be stored ("not closed" otherwise), and its record gives the
//     move's score;
//   - the record must equal the best score over the moves (value and remoteness), and the
//     stored best move must be legal and achieve it.
// Strategy databases need only be closed for the loser: a position the side to move wins keeps
// just the child of its stored move, so there the stored move is checked to achieve the record
// (and no stored sibling to beat it); every other position must have all its children.
//
// Proof databases (db/proof_database.hpp) hold values only: a stored win needs its stored move
// to reach a position the opponent loses, a stored loss needs every move to reach one the
// opponent wins. Children whose region has at most the header's leaf_squares squares are not
// stored; the verifier solves them with the proof-number search (search/proof_number_search),
// a different algorithm from the alpha-beta Solver that built the proof. The two share the move
// rules, the canonical keys, the region and the matching endgame (each tested on its own
// against plain search), and nothing else. Positions strictly
// lose squares along every move, so when every stored record passes, every stored value is
// correct by induction, the start's included.
//
// The no-draw property of the standard rules (Rastros cannot be drawn, and no game outlasts
// the W*H-1 empty squares) is checked on the records: a draw or a remoteness above W*H-1 is a
// failure. Under stuck-draw the draws are counted instead.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "db/database_file.hpp"
#include "rastros/position.hpp"
#include "rastros/rastros.hpp"

namespace rastros {

struct VerificationFailure {
  PackedPosition key;
  std::string position;     // position_string of Canonicalizer::unpack(key)
  std::string description;  // every problem found at this position, "; "-separated
};

struct VerificationReport {
  /// Records recomputed.
  std::uint64_t checked = 0;
  /// Child positions looked up in the database (moves that end the game need no look-up).
  std::uint64_t children = 0;
  /// Positions (or whole-database checks) that failed; `failures` lists the first of them in
  /// key order, so two runs with any number of threads print the same report.
  std::uint64_t failure_count = 0;
  std::vector<VerificationFailure> failures;
  /// Stored draw records.
  std::uint64_t draws = 0;
  /// Proof databases: small endgames solved by the proof-number search instead of looked up,
  /// the nodes those searches took, and the start's value the proof certifies (set only when
  /// every check passed).
  std::uint64_t leaves_solved = 0;
  std::uint64_t leaf_nodes = 0;
  std::optional<Value> proven_start_value;
  int max_remoteness = 0;
  /// Standard rules: whether no position is a draw and every remoteness is at most W*H-1.
  /// Stuck-draw rules: whether the database happens to hold no draw (not a failure either
  /// way). Nothing for strategy databases, which do not hold every position of the game.
  std::optional<bool> no_draw;
  /// Seconds spent solving before the check (verify_no_draw only) and checking.
  double solve_seconds = 0;
  double seconds = 0;

  bool ok() const { return failure_count == 0; }
};

using VerifyProgress = std::function<void(const std::string&)>;

/// Failures listed in a report by default; the rest are only counted.
inline constexpr std::size_t kDefaultListedFailures = 20;

/// Checks every record of `database` (in parallel on the current TBB arena). `progress`, when
/// set, gets a line after each block of positions. Throws FileError when the header describes
/// a game this build cannot play.
VerificationReport verify_database(const Database& database, const VerifyProgress& progress = {},
                                   std::size_t listed_failures = kDefaultListedFailures);

/// Largest board verify_no_draw accepts. 6x5 (25 million positions) takes about 1.3 GB and
/// a minute and a quarter on 2 cores, and five more squares multiplied the positions by 50
/// from 5x5: larger boards belong in a database file, solved once and checked with
/// verify_database.
inline constexpr int kMaxNoDrawSquares = 30;

/// Solves every position of `rastros` (build_strong_database) and verifies the result, the
/// no-draw property included. Throws InputError for boards above kMaxNoDrawSquares squares.
VerificationReport verify_no_draw(const Rastros& rastros, const VerifyProgress& progress = {},
                                  std::size_t listed_failures = kDefaultListedFailures);

}  // namespace rastros
