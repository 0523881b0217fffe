// The exact solver against an independent plain minimax (reference_minimax.hpp), plus the
// invariances the solver must respect: its knowledge switches, board symmetries and thread count.
//
// Every random choice comes from a fixed-seed std::mt19937, and every failure message names the
// board, step set, rules and position string (in the command's own option syntax), so a
// failure reproduces from its message alone.

#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "rastros/notation.hpp"
#include "rastros/rastros.hpp"
#include "rastros/region.hpp"
#include "reference_minimax.hpp"
#include "search/solver.hpp"
#include "sample_scale.hpp"

namespace rastros {
namespace {

using rastros_reference::ReferenceMinimax;
using rastros_reference::RefOutcome;
using rastros_reference::RefPosition;
using rastros_reference::RefRules;
using rastros_reference::RefSquare;
using rastros_reference::RefValue;

// Stop reporting a test's mismatches after this many: one systematic bug should not print
// thousands of lines.
constexpr int kMaxReported = 12;

// Every random choice is seeded with a fixed number, plus RASTROS_TEST_SEED when that is set
// (for stress runs: RASTROS_TEST_SEED=$i rastros_tests --gtest_filter=Solver*). The failure
// messages name positions, so a failure reproduces without the seed.
std::uint32_t seeded(std::uint32_t seed) {
  const char* offset = std::getenv("RASTROS_TEST_SEED");
  return offset ? seed + static_cast<std::uint32_t>(std::strtoul(offset, nullptr, 10)) : seed;
}

// ---------------------------------------------------------------------------------------------
// Variants and conversions between the reference's representation and the library's.

struct Variant {
  int width = 0;
  int height = 0;
  StepSet steps = StepSet::king;
  StuckRule rule = StuckRule::loses;
};

std::string variant_name(const Variant& variant) {
  return std::to_string(variant.width) + "x" + std::to_string(variant.height) + " --steps " +
         std::string(steps_name(variant.steps)) + " --rules " +
         std::string(rules_name(variant.rule));
}

RefRules reference_rules(const Variant& variant) {
  return {variant.width, variant.height, variant.steps == StepSet::king,
          variant.rule == StuckRule::draws};
}

Board board_of(const Variant& variant) {
  return Board(variant.width, variant.height, variant.steps);
}

Rastros game_of(const Variant& variant, RefSquare start) {
  return Rastros(board_of(variant), start.rank * variant.width + start.file, variant.rule);
}

std::vector<Variant> all_rule_sets(int width, int height) {
  std::vector<Variant> variants;
  for (const StepSet steps : {StepSet::king, StepSet::orthogonal}) {
    for (const StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
      variants.push_back({width, height, steps, rule});
    }
  }
  return variants;
}

/// Boards 2x2 .. 4x4 plus 5x3 and 3x5, each with both step sets and both stuck rules.
std::vector<Variant> small_variants() {
  std::vector<Variant> variants;
  std::vector<std::pair<int, int>> sizes;
  for (int width = 2; width <= 4; ++width) {
    for (int height = 2; height <= 4; ++height) sizes.push_back({width, height});
  }
  sizes.push_back({5, 3});
  sizes.push_back({3, 5});
  for (const auto& [width, height] : sizes) {
    for (const Variant& variant : all_rule_sets(width, height)) variants.push_back(variant);
  }
  return variants;
}

/// The library's form of a reference position. Squares are numbered rank by rank from a1 (the
/// documented numbering); the free mask is every square neither slimed nor under the snail.
Position to_library(const ReferenceMinimax& reference, const RefPosition& position) {
  const RefRules& rules = reference.rules();
  Position result;
  for (int rank = 0; rank < rules.height; ++rank) {
    for (int file = 0; file < rules.width; ++file) {
      const RefSquare square{file, rank};
      const int index = reference.index(square);
      if (!position.slime[static_cast<std::size_t>(index)] && !(square == position.snail)) {
        result.free |= SquareMask{1} << index;
      }
    }
  }
  result.snail = reference.index(position.snail);
  result.to_move = position.to_move == 1 ? Player::one : Player::two;
  return result;
}

Square to_library(const ReferenceMinimax& reference, RefSquare square) {
  return reference.index(square);
}

std::string outcome_text(const Outcome& outcome) {
  std::string text(to_string(outcome.value));
  text += outcome.remoteness ? " in " + std::to_string(*outcome.remoteness) : " (no remoteness)";
  return text;
}

Outcome to_library(const RefOutcome& outcome) {
  switch (outcome.value) {
    case RefValue::win:
      return {Value::win, outcome.remoteness};
    case RefValue::loss:
      return {Value::loss, outcome.remoteness};
    case RefValue::draw:
      break;
  }
  if (outcome.remoteness >= 0) return {Value::draw, outcome.remoteness};
  return {Value::draw, std::nullopt};
}

/// A best move is worth the position's outcome: the same value and, for a win or a loss, the
/// same remoteness (a move that leaves the opponent stuck under stuck-draw draws in 1, while
/// the drawn position, whose game goes on, has no remoteness).
bool worth_the_position(const Outcome& move, const Outcome& position) {
  return move.value == position.value &&
         (move.value == Value::draw || move.remoteness == position.remoteness);
}

/// What the solver should answer: the reference outcome, stripped of remoteness when the
/// solver was asked for values only.
Outcome expected_outcome(const RefOutcome& outcome, bool value_only) {
  Outcome result = to_library(outcome);
  if (value_only) result.remoteness = std::nullopt;
  return result;
}

std::string where(const Variant& variant, const Board& board, const Position& position) {
  return "board " + variant_name(variant) + ", position \"" + position_string(board, position) +
         "\"";
}

// ---------------------------------------------------------------------------------------------
// Positions.

/// A random game from `start`: up to `plies` random moves, never into a corner (that would end
/// the game at once). Stops early when the snail has nowhere else to go, so some of the
/// positions are stuck ones.
RefPosition random_game(const ReferenceMinimax& reference, RefSquare start, int plies,
                        std::mt19937& rng) {
  RefPosition position = reference.start(start);
  for (int ply = 0; ply < plies; ++ply) {
    std::vector<RefSquare> options;
    for (const RefSquare to : reference.moves(position)) {
      if (!reference.is_goal(to)) options.push_back(to);
    }
    if (options.empty()) break;
    std::uniform_int_distribution<std::size_t> pick(0, options.size() - 1);
    position = reference.play(position, options[pick(rng)]);
  }
  return position;
}

RefSquare random_non_goal(const ReferenceMinimax& reference, std::mt19937& rng) {
  const RefRules& rules = reference.rules();
  std::uniform_int_distribution<int> file(0, rules.width - 1);
  std::uniform_int_distribution<int> rank(0, rules.height - 1);
  for (;;) {
    const RefSquare square{file(rng), rank(rng)};
    if (!reference.is_goal(square)) return square;
  }
}

/// A random position, not necessarily reachable by a game: `slimed` random non-goal squares
/// slimed, the snail on another non-goal square, a random side to move.
RefPosition random_setup(const ReferenceMinimax& reference, int slimed, std::mt19937& rng) {
  RefPosition position = reference.start(random_non_goal(reference, rng));
  for (int placed = 0; placed < slimed;) {
    const RefSquare square = random_non_goal(reference, rng);
    const auto index = static_cast<std::size_t>(reference.index(square));
    if (square == position.snail || position.slime[index]) continue;
    position.slime[index] = true;
    ++placed;
  }
  position.to_move = std::uniform_int_distribution<int>(1, 2)(rng);
  return position;
}

/// The position string written independently of the library's formatter: ranks top to bottom,
/// digits for runs of empty squares, `x` slime, `o` the snail, then the side to move.
std::string reference_position_string(const ReferenceMinimax& reference,
                                      const RefPosition& position) {
  const RefRules& rules = reference.rules();
  std::string text;
  for (int rank = rules.height - 1; rank >= 0; --rank) {
    int run = 0;
    for (int file = 0; file < rules.width; ++file) {
      const RefSquare square{file, rank};
      const bool snail = square == position.snail;
      if (!snail && !position.slime[static_cast<std::size_t>(reference.index(square))]) {
        ++run;
        continue;
      }
      if (run > 0) text += std::to_string(run);
      run = 0;
      text += snail ? 'o' : 'x';
    }
    if (run > 0) text += std::to_string(run);
    if (rank > 0) text += '/';
  }
  return text + (position.to_move == 1 ? " 1" : " 2");
}

/// A board symmetry as a map of squares (file, rank) -> (file', rank'), and whether it swaps
/// the players' roles (then the image has the other side to move).
struct Symmetry {
  std::string name;
  std::function<RefSquare(RefSquare)> map;
  bool swaps_players = false;
};

std::vector<Symmetry> symmetries_of(int width, int height) {
  std::vector<Symmetry> result;
  result.push_back({"180-degree rotation",
                    [=](RefSquare s) {
                      return RefSquare{width - 1 - s.file, height - 1 - s.rank};
                    },
                    true});
  if (width == height) {
    result.push_back({"a1-diagonal reflection",
                      [](RefSquare s) {
                        return RefSquare{s.rank, s.file};
                      },
                      false});
    result.push_back({"anti-diagonal reflection",
                      [=](RefSquare s) {
                        return RefSquare{height - 1 - s.rank, width - 1 - s.file};
                      },
                      true});
  }
  return result;
}

RefPosition apply_symmetry(const ReferenceMinimax& reference, const Symmetry& symmetry,
                           const RefPosition& position) {
  const RefRules& rules = reference.rules();
  RefPosition image = position;
  for (int rank = 0; rank < rules.height; ++rank) {
    for (int file = 0; file < rules.width; ++file) {
      const RefSquare square{file, rank};
      image.slime[static_cast<std::size_t>(reference.index(symmetry.map(square)))] =
          position.slime[static_cast<std::size_t>(reference.index(square))];
    }
  }
  image.snail = symmetry.map(position.snail);
  if (symmetry.swaps_players) image.to_move = 3 - position.to_move;
  return image;
}

// ---------------------------------------------------------------------------------------------
// Checks. Each returns false (after recording a failure) when the solver disagrees.

SolverOptions baseline_options() {
  SolverOptions options;
  options.prune_region = false;
  options.use_symmetry = false;
  options.use_matching = false;
  options.trap_rule = false;
  return options;
}

SolverOptions value_only_options() {
  SolverOptions options;
  options.value_only = true;
  return options;
}

SolverOptions with_table(SolverOptions options, std::size_t bytes) {
  options.table_bytes = bytes;
  return options;
}

std::string options_name(const SolverOptions& options) {
  std::string name;
  if (!options.prune_region) name += " prune_region=false";
  if (!options.use_symmetry) name += " use_symmetry=false";
  if (!options.use_matching) name += " use_matching=false";
  if (!options.trap_rule) name += " trap_rule=false";
  if (options.value_only) name += " value_only";
  if (options.defer_busy_brothers) name += " defer_busy_brothers";
  if (!options.compact_table) name += " compact_table=false";
  if (options.lazy_packing_max_region != SolverOptions{}.lazy_packing_max_region) {
    name += " lazy_packing_max_region=" + std::to_string(options.lazy_packing_max_region);
  }
  if (options.table_bytes != SolverOptions{}.table_bytes) {
    name += " table_bytes=" + std::to_string(options.table_bytes);
  }
  return name.empty() ? " (default options)" : name;
}

bool check_solve(Solver& solver, const Variant& variant, const Board& board,
                 const Position& position, const RefOutcome& reference) {
  const bool value_only = solver.options().value_only;
  const Outcome expected = expected_outcome(reference, value_only);
  const Outcome actual = solver.solve(position);
  EXPECT_EQ(outcome_text(actual), outcome_text(expected))
      << "solve() disagrees with the reference minimax on " << where(variant, board, position)
      << " with solver options" << options_name(solver.options());
  return actual == expected;
}

/// analyse() against the reference: the position's outcome, every child's outcome (for the
/// mover, counted from before the move), the children in square order, and best_moves exactly
/// the children whose outcome equals the position's.
bool check_analyse(Solver& solver, ReferenceMinimax& reference, const Variant& variant,
                   const Board& board, const RefPosition& ref_position) {
  const bool value_only = solver.options().value_only;
  const Position position = to_library(reference, ref_position);
  const std::string context =
      where(variant, board, position) + " with solver options" + options_name(solver.options());
  const Analysis analysis = solver.analyse(position);
  bool ok = true;

  const Outcome expected = expected_outcome(reference.solve(ref_position), value_only);
  EXPECT_EQ(outcome_text(analysis.outcome), outcome_text(expected))
      << "analyse() outcome disagrees with the reference on " << context;
  ok = ok && analysis.outcome == expected;

  // Expected children: the reference's moves in square order, with their outcomes.
  std::vector<MoveOutcome> expected_children;
  for (const RefSquare to : reference.moves(ref_position)) {
    expected_children.push_back(
        {to_library(reference, to),
         expected_outcome(reference.move_outcome(ref_position, to), value_only)});
  }
  auto describe_children = [&](const std::vector<MoveOutcome>& children) {
    std::string text;
    for (const MoveOutcome& child : children) {
      text += " " + square_name(board, child.move) + ":" + outcome_text(child.outcome);
    }
    return text.empty() ? std::string(" (none)") : text;
  };
  bool children_ok = analysis.children.size() == expected_children.size();
  for (std::size_t i = 0; children_ok && i < expected_children.size(); ++i) {
    children_ok = analysis.children[i].move == expected_children[i].move &&
                  analysis.children[i].outcome == expected_children[i].outcome;
  }
  EXPECT_TRUE(children_ok) << "analyse() children disagree with the reference on " << context
                           << "\n  solver:   " << describe_children(analysis.children)
                           << "\n  reference:" << describe_children(expected_children);
  ok = ok && children_ok;

  // best_moves: exactly the children whose outcome is the position's (by the reference).
  std::vector<Square> expected_best;
  for (const MoveOutcome& child : expected_children) {
    if (worth_the_position(child.outcome, expected)) expected_best.push_back(child.move);
  }
  std::vector<Square> best = analysis.best_moves;
  std::sort(best.begin(), best.end());
  auto describe_squares = [&](const std::vector<Square>& squares) {
    std::string text;
    for (const Square square : squares) text += " " + square_name(board, square);
    return text.empty() ? std::string(" (none)") : text;
  };
  EXPECT_EQ(describe_squares(best), describe_squares(expected_best))
      << "analyse() best_moves is not the set of children achieving the position's outcome on "
      << context;
  ok = ok && best == expected_best;
  return ok;
}

// ---------------------------------------------------------------------------------------------
// Sanity of the test's own plumbing: the conversions agree with the library's notation.

TEST(SolverReference, ConversionsAgreeWithTheLibrary) {
  std::mt19937 rng(seeded(20240601));
  for (const Variant& variant : {Variant{5, 5}, Variant{6, 4}, Variant{3, 7}}) {
    const Board board = board_of(variant);
    ReferenceMinimax reference(reference_rules(variant));
    const RefSquare start{1, 1};
    EXPECT_EQ(to_library(reference, reference.start(start)),
              game_of(variant, start).start_position());
    for (int i = 0; i < 50; ++i) {
      const RefPosition ref_position =
          random_setup(reference, std::uniform_int_distribution<int>(0, 8)(rng), rng);
      const std::string text = reference_position_string(reference, ref_position);
      const Position parsed = parse_position(board, text);
      EXPECT_EQ(parsed, to_library(reference, ref_position)) << text;
      EXPECT_EQ(position_string(board, parsed), text);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Every start square of every small board.

TEST(SolverReference, EverySmallBoardStartSquare) {
  int reported = 0;
  int starts = 0;
  for (const Variant& variant : small_variants()) {
    const Board board = board_of(variant);
    ReferenceMinimax reference(reference_rules(variant));
    // One solver of each kind per variant, reused across start squares (the table carries over).
    const Rastros rules(board, 1, variant.rule);
    Solver with_defaults(rules);
    Solver value_only(rules, with_table(value_only_options(), std::size_t{1} << 20));
    Solver baseline(rules, with_table(baseline_options(), std::size_t{1} << 20));
    for (int rank = 0; rank < variant.height && reported < kMaxReported; ++rank) {
      for (int file = 0; file < variant.width && reported < kMaxReported; ++file) {
        const RefSquare start{file, rank};
        if (reference.is_goal(start)) continue;
        ++starts;
        const Position position = game_of(variant, start).start_position();
        const RefOutcome expected = reference.solve(reference.start(start));
        for (Solver* solver : {&with_defaults, &value_only, &baseline}) {
          if (!check_solve(*solver, variant, board, position, expected)) ++reported;
        }
      }
    }
  }
  EXPECT_EQ(starts, 2 * 2 * (2 + 4 + 6 + 4 + 7 + 10 + 6 + 10 + 14 + 13 + 13));
}

TEST(SolverReference, AnalyseEverySmallBoardStartSquare) {
  int reported = 0;
  for (const Variant& variant : small_variants()) {
    const Board board = board_of(variant);
    ReferenceMinimax reference(reference_rules(variant));
    const Rastros rules(board, 1, variant.rule);
    Solver with_defaults(rules);
    Solver value_only(rules, with_table(value_only_options(), std::size_t{1} << 20));
    for (int rank = 0; rank < variant.height && reported < kMaxReported; ++rank) {
      for (int file = 0; file < variant.width && reported < kMaxReported; ++file) {
        const RefSquare start{file, rank};
        if (reference.is_goal(start)) continue;
        for (Solver* solver : {&with_defaults, &value_only}) {
          if (!check_analyse(*solver, reference, variant, board, reference.start(start))) {
            ++reported;
          }
        }
      }
    }
  }
}

// 5x5 with orthogonal steps is still small enough for the plain minimax from every start.
TEST(SolverReference, EveryStartSquareOn5x5Orthogonal) {
  int reported = 0;
  for (const StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
    const Variant variant{5, 5, StepSet::orthogonal, rule};
    const Board board = board_of(variant);
    ReferenceMinimax reference(reference_rules(variant));
    const Rastros rules(board, 1, variant.rule);
    Solver with_defaults(rules);
    Solver baseline(rules, with_table(baseline_options(), std::size_t{4} << 20));
    SolverOptions wide_options = with_table(value_only_options(), std::size_t{4} << 20);
    wide_options.compact_table = false;
    Solver value_only_wide(rules, wide_options);
    for (int square = 1; square < 24 && reported < kMaxReported; ++square) {
      const RefSquare start{square % 5, square / 5};
      const Position position = game_of(variant, start).start_position();
      if (!check_solve(baseline, variant, board, position,
                       reference.solve(reference.start(start)))) {
        ++reported;
      }
      if (!check_analyse(with_defaults, reference, variant, board, reference.start(start))) {
        ++reported;
      }
    }
  }
}

// Every position along random games on the larger small boards, so analyse() meets
// mid-game positions, stuck positions and forced moves into the opponent's corner.
TEST(SolverReference, AnalyseAlongRandomGames) {
  std::mt19937 rng(seeded(777));
  int reported = 0;
  for (const auto& [width, height] :
       std::vector<std::pair<int, int>>{{4, 4}, {5, 3}, {3, 5}, {5, 5}, {4, 6}, {6, 6}}) {
    for (const Variant& variant : all_rule_sets(width, height)) {
      const Board board = board_of(variant);
      ReferenceMinimax reference(reference_rules(variant));
      const Rastros rules(board, 1, variant.rule);
      Solver solver(rules, with_table(SolverOptions{}, std::size_t{4} << 20));
      for (int game = 0; game < 6 && reported < kMaxReported; ++game) {
        // Start deep enough for the reference to stay fast on the larger boards.
        const int skip = width * height <= 16  ? 0
                         : width * height > 30 ? (variant.steps == StepSet::king ? 14 : 6)
                         : variant.steps == StepSet::king ? 5
                                                          : 0;
        RefPosition position = random_game(reference, random_non_goal(reference, rng), skip, rng);
        for (;;) {
          if (!check_analyse(solver, reference, variant, board, position)) ++reported;
          std::vector<RefSquare> moves = reference.moves(position);
          if (moves.empty() || reported >= kMaxReported) break;
          const RefSquare to =
              moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
          position = reference.play(position, to);
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Random positions on 5x5 and 6x6.

struct RandomSpec {
  int width;
  int height;
  StepSet steps;
  int min_plies;  // random game length from the start: deep enough for the plain minimax
  int max_plies;
  int games;
  int setups;      // random position strings
  int min_slimed;  // slime squares in a random position string
  int max_slimed;
};

std::vector<RandomSpec> random_specs() {
  return {
      {5, 5, StepSet::king, 5, 18, 100, 60, 6, 18},
      {5, 5, StepSet::orthogonal, 0, 14, 60, 40, 0, 14},
      {6, 6, StepSet::king, 14, 28, 100, 60, 18, 30},
      {6, 6, StepSet::orthogonal, 6, 24, 60, 40, 8, 28},
  };
}

/// Each random position is solved by a solver with default options (reused across positions),
/// a value-only one, a baseline one (all knowledge off), a value-only one with the table's wide
/// layout, and fresh ones with the smallest table (maximum replacement pressure), with
/// remoteness and value-only (the compact layout, with most of the key in the bucket's index);
/// every other one is also analysed.
void check_random_positions(StuckRule rule, std::uint32_t seed, int* draws_seen) {
  std::mt19937 rng(seeded(seed));
  int reported = 0;
  for (const RandomSpec& spec : random_specs()) {
    const Variant variant{spec.width, spec.height, spec.steps, rule};
    const Board board = board_of(variant);
    const RefSquare start{spec.width / 2, spec.height / 2};
    const Rastros rules = game_of(variant, start);
    Solver with_defaults(rules);
    Solver value_only(rules, with_table(value_only_options(), std::size_t{4} << 20));
    Solver baseline(rules, with_table(baseline_options(), std::size_t{4} << 20));
    SolverOptions wide_options = with_table(value_only_options(), std::size_t{4} << 20);
    wide_options.compact_table = false;
    Solver value_only_wide(rules, wide_options);
    std::vector<RefPosition> positions;
    {
      ReferenceMinimax generator(reference_rules(variant));
      for (int i = 0; i < rastros::testing_scale::samples(spec.games); ++i) {
        const int plies = std::uniform_int_distribution<int>(spec.min_plies, spec.max_plies)(rng);
        // Mostly from the default start, sometimes from a random one.
        const RefSquare from = i % 4 == 3 ? random_non_goal(generator, rng) : start;
        positions.push_back(random_game(generator, from, plies, rng));
      }
      for (int i = 0; i < rastros::testing_scale::samples(spec.setups); ++i) {
        const int slimed =
            std::uniform_int_distribution<int>(spec.min_slimed, spec.max_slimed)(rng);
        const RefPosition setup = random_setup(generator, slimed, rng);
        // Through the position-string parser, as a user would give it.
        const std::string text = reference_position_string(generator, setup);
        EXPECT_EQ(parse_position(board, text), to_library(generator, setup)) << text;
        positions.push_back(setup);
      }
    }
    for (std::size_t i = 0; i < positions.size() && reported < kMaxReported; ++i) {
      // A fresh reference per position keeps the memo (and the run time) small.
      ReferenceMinimax reference(reference_rules(variant));
      const Position position = to_library(reference, positions[i]);
      const RefOutcome expected = reference.solve(positions[i]);
      if (expected.value == RefValue::draw) ++*draws_seen;
      if (rule == StuckRule::loses) {
        EXPECT_NE(expected.value, RefValue::draw) << "the reference drew under standard rules";
      }
      Solver tiny_table(rules, with_table(SolverOptions{}, kMinimumTableBytes));
      Solver tiny_compact_table(rules, with_table(value_only_options(), kMinimumTableBytes));
      for (Solver* solver : {&with_defaults, &value_only, &baseline, &value_only_wide, &tiny_table,
                             &tiny_compact_table}) {
        if (!check_solve(*solver, variant, board, position, expected)) ++reported;
      }
      // analyse() on every other position, alternately with default and baseline options (the
      // children are solved with the parent's entries already in the table).
      if (i % 2 == 0 && !check_analyse(i % 4 == 0 ? with_defaults : baseline, reference, variant,
                                       board, positions[i])) {
        ++reported;
      }
    }
  }
}

TEST(SolverReference, RandomPositionsStandardRules) {
  int draws = 0;
  check_random_positions(StuckRule::loses, 5551, &draws);
  EXPECT_EQ(draws, 0);
}

TEST(SolverReference, RandomPositionsStuckDrawRules) {
  int draws = 0;
  check_random_positions(StuckRule::draws, 6661, &draws);
  EXPECT_GT(draws, 0) << "no drawn position among the samples: draws are not being tested";
}

// Boards that are neither square nor small, from random position strings only.
TEST(SolverReference, RandomPositionsOnOblongBoards) {
  std::mt19937 rng(seeded(4242));
  int reported = 0;
  for (const auto& [width, height, slimed] :
       std::vector<std::tuple<int, int, int>>{{8, 3, 9}, {3, 8, 9}, {7, 4, 13}, {2, 9, 3}}) {
    for (const Variant& variant : all_rule_sets(width, height)) {
      const Board board = board_of(variant);
      const Rastros rules(board, 1, variant.rule);
      Solver solver(rules, with_table(SolverOptions{}, std::size_t{4} << 20));
      for (int i = 0; i < 12 && reported < kMaxReported; ++i) {
        ReferenceMinimax reference(reference_rules(variant));
        const RefPosition setup = random_setup(reference, slimed, rng);
        const Position position =
            parse_position(board, reference_position_string(reference, setup));
        if (!check_solve(solver, variant, board, position, reference.solve(setup))) ++reported;
      }
    }
  }
}

// Positions with exactly one goal left in the snail's region, where the solver's one-goal rule
// (a geography win for the goal's owner is a win) decides nodes without searching them. Random
// setups are drawn until enough of them qualify, for both sides owning the reachable goal.
TEST(SolverReference, OneGoalLeftPositions) {
  std::mt19937 rng(seeded(9091));
  int reported = 0;
  for (const auto& [width, height, min_slimed, max_slimed] :
       std::vector<std::tuple<int, int, int, int>>{{5, 5, 4, 10}, {6, 5, 5, 13}, {6, 6, 12, 18}}) {
    for (const Variant& variant : all_rule_sets(width, height)) {
      const Board board = board_of(variant);
      const Rastros rules(board, 1, variant.rule);
      // The rule applies to regions of every size here (by default only to large ones, which
      // boards this small barely have).
      SolverOptions rule_alone = baseline_options();
      rule_alone.use_matching = true;  // the one-goal rule rides on the matching endgame
      rule_alone.one_goal_min_region = 0;
      SolverOptions defaults;
      defaults.one_goal_min_region = 0;
      SolverOptions value_only_everywhere = value_only_options();
      value_only_everywhere.one_goal_min_region = 0;
      Solver with_defaults(rules, with_table(defaults, std::size_t{4} << 20));
      Solver value_only(rules, with_table(value_only_everywhere, std::size_t{4} << 20));
      Solver only_rule(rules, with_table(rule_alone, std::size_t{4} << 20));
      const int per_side = rastros::testing_scale::samples(20);
      int found[2] = {0, 0};  // positions whose reachable goal is the mover's / the opponent's
      for (int attempt = 0; attempt < 4000 && found[0] + found[1] < 2 * per_side; ++attempt) {
        ReferenceMinimax reference(reference_rules(variant));
        const int slimed = std::uniform_int_distribution<int>(min_slimed, max_slimed)(rng);
        const RefPosition setup = random_setup(reference, slimed, rng);
        const Position position = to_library(reference, setup);
        const SquareMask region = region_of(board, position.snail, position.free);
        const bool mine = region & bit(board.goal_of(position.to_move));
        const bool theirs = region & bit(board.goal_of(opponent(position.to_move)));
        if (mine == theirs || found[mine ? 0 : 1] >= per_side) continue;
        ++found[mine ? 0 : 1];
        const RefOutcome expected = reference.solve(setup);
        for (Solver* solver : {&with_defaults, &value_only, &only_rule}) {
          if (reported < kMaxReported &&
              !check_solve(*solver, variant, board, position, expected)) {
            ++reported;
          }
        }
      }
      EXPECT_EQ(found[0], per_side) << variant_name(variant)
                              << ": too few positions with only the mover's goal in reach";
      EXPECT_EQ(found[1], per_side) << variant_name(variant)
                              << ": too few positions with only the opponent's goal in reach";
    }
  }
}

// Positions where the game is already over: the snail stuck, or in a corner.
TEST(SolverReference, EndedPositions) {
  struct Case {
    Variant variant;
    const char* position;
  };
  const std::vector<Case> cases = {
      // Stuck on a3 (b3, a2, b2 slimed): loses, or draws under stuck-draw.
      {{3, 3, StepSet::king, StuckRule::loses}, "ox1/xx1/3 1"},
      {{3, 3, StepSet::king, StuckRule::draws}, "ox1/xx1/3 1"},
      {{4, 4, StepSet::orthogonal, StuckRule::loses}, "4/1x2/xox1/1x2 2"},
      {{4, 4, StepSet::orthogonal, StuckRule::draws}, "4/1x2/xox1/1x2 2"},
  };
  for (const Case& c : cases) {
    const Board board = board_of(c.variant);
    const Position position = parse_position(board, c.position);
    ReferenceMinimax reference(reference_rules(c.variant));
    RefPosition ref_position =
        reference.start({position.snail % c.variant.width, position.snail / c.variant.width});
    for (int square = 0; square < c.variant.width * c.variant.height; ++square) {
      ref_position.slime[static_cast<std::size_t>(square)] =
          square != position.snail && (position.free >> square & 1) == 0;
    }
    ref_position.to_move = position.to_move == Player::one ? 1 : 2;
    ASSERT_EQ(to_library(reference, ref_position), position);
    const RefOutcome expected = reference.solve(ref_position);
    ASSERT_EQ(expected.remoteness, 0);  // a stuck draw too (docs/rules.md)
    const Rastros rules(board, 1, c.variant.rule);
    for (const SolverOptions& options :
         {SolverOptions{}, baseline_options(), value_only_options()}) {
      Solver solver(rules, with_table(options, kMinimumTableBytes));
      check_solve(solver, c.variant, board, position, expected);
      check_analyse(solver, reference, c.variant, board, ref_position);
    }
  }
  // The snail in a corner (the game ended with the last move), for each side to move.
  const Variant variant{4, 4, StepSet::king, StuckRule::loses};
  const Board board = board_of(variant);
  ReferenceMinimax reference(reference_rules(variant));
  const Rastros rules(board, 1, variant.rule);
  Solver solver(rules);
  for (const RefSquare corner : {RefSquare{0, 0}, RefSquare{3, 3}}) {
    for (const int side : {1, 2}) {
      RefPosition ref_position = reference.start(corner);
      ref_position.slime[5] = true;  // b2, the square the snail came from
      ref_position.to_move = side;
      const Position position = to_library(reference, ref_position);
      check_solve(solver, variant, board, position, reference.solve(ref_position));
      check_analyse(solver, reference, variant, board, ref_position);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Symmetry: a position and its images under board symmetries get identical answers.

TEST(SolverSymmetry, SymmetricPositionsGetIdenticalAnswers) {
  std::mt19937 rng(seeded(31337));
  int reported = 0;
  struct Spec {
    int width, height, plies;
  };
  for (const Spec& spec :
       std::vector<Spec>{{4, 4, 2}, {5, 5, 8}, {6, 6, 18}, {5, 3, 1}, {6, 4, 6}}) {
    for (const Variant& variant : all_rule_sets(spec.width, spec.height)) {
      const Board board = board_of(variant);
      ReferenceMinimax reference(reference_rules(variant));
      const Rastros rules(board, 1, variant.rule);
      Solver with_defaults(rules, with_table(SolverOptions{}, std::size_t{4} << 20));
      for (int i = 0; i < 12 && reported < kMaxReported; ++i) {
        const RefPosition position =
            random_game(reference, random_non_goal(reference, rng), spec.plies, rng);
        const Position original = to_library(reference, position);
        const RefOutcome expected = reference.solve(position);
        for (const Symmetry& symmetry : symmetries_of(spec.width, spec.height)) {
          const RefPosition ref_image = apply_symmetry(reference, symmetry, position);
          const Position image = to_library(reference, ref_image);
          ASSERT_EQ(reference.solve(ref_image), expected)
              << "the reference itself is not symmetric under the " << symmetry.name << ": "
              << where(variant, board, original);
          // Fresh solvers, so the image is searched rather than found in the original's table
          // entries; baseline ones have no symmetry knowledge at all.
          for (const SolverOptions& options :
               {SolverOptions{}, baseline_options(), value_only_options()}) {
            Solver first(rules, with_table(options, std::size_t{256} << 10));
            Solver second(rules, with_table(options, std::size_t{256} << 10));
            const Outcome a = first.solve(original);
            const Outcome b = second.solve(image);
            EXPECT_EQ(outcome_text(a), outcome_text(b))
                << symmetry.name << " changes the answer: " << where(variant, board, original)
                << " vs its image \"" << position_string(board, image) << "\""
                << options_name(options);
            EXPECT_EQ(outcome_text(a), outcome_text(expected_outcome(expected, options.value_only)))
                << "solve() disagrees with the reference minimax on "
                << where(variant, board, original) << options_name(options);
            if (a != b || a != expected_outcome(expected, options.value_only)) ++reported;
          }
          // The children map onto each other too.
          const Analysis analysis = with_defaults.analyse(original);
          const Analysis image_analysis = with_defaults.analyse(image);
          std::vector<std::pair<Square, std::string>> mapped;
          for (const MoveOutcome& child : analysis.children) {
            const RefSquare from{board.file_of(child.move), board.rank_of(child.move)};
            mapped.push_back(
                {to_library(reference, symmetry.map(from)), outcome_text(child.outcome)});
          }
          std::vector<std::pair<Square, std::string>> image_children;
          for (const MoveOutcome& child : image_analysis.children) {
            image_children.push_back({child.move, outcome_text(child.outcome)});
          }
          std::sort(mapped.begin(), mapped.end());
          std::sort(image_children.begin(), image_children.end());
          EXPECT_EQ(mapped, image_children)
              << symmetry.name << " changes analyse() children: " << where(variant, board, original)
              << " vs its image \"" << position_string(board, image) << "\"";
          if (mapped != image_children) ++reported;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Threads: 1, 2 and 4 worker threads give identical answers. Named ParallelSolver* so a
// ThreadSanitizer job can run just these (--gtest_filter=ParallelSolver*).

struct ThreadRun {
  Outcome outcome;
  Analysis analysis;
};

ThreadRun run_in_arena(int threads, const Rastros& rules, const SolverOptions& options,
                       const Position& position, bool analyse) {
  ThreadRun run;
  // Lift TBB's default worker limit (the core count) so 4 threads really run on a 2-core box.
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  tbb::task_arena arena(threads);
  arena.execute([&] {
    Solver solver(rules, options);
    run.outcome = solver.solve(position);
    if (analyse) run.analysis = solver.analyse(position);
  });
  return run;
}

std::string children_text(const Board& board, const Analysis& analysis) {
  std::string text;
  for (const MoveOutcome& child : analysis.children) {
    text += " " + square_name(board, child.move) + ":" + outcome_text(child.outcome);
  }
  text += " best:";
  std::vector<Square> best = analysis.best_moves;
  std::sort(best.begin(), best.end());
  for (const Square square : best) text += " " + square_name(board, square);
  return text;
}

/// The analysis the reference gives: outcome, children in square order, best moves.
Analysis reference_analysis(ReferenceMinimax& reference, const RefPosition& position,
                            bool value_only) {
  Analysis analysis;
  analysis.outcome = expected_outcome(reference.solve(position), value_only);
  for (const RefSquare to : reference.moves(position)) {
    const MoveOutcome child{to_library(reference, to),
                            expected_outcome(reference.move_outcome(position, to), value_only)};
    analysis.children.push_back(child);
    if (worth_the_position(child.outcome, analysis.outcome)) {
      analysis.best_moves.push_back(child.move);
    }
  }
  return analysis;
}

/// Solves (and for every other position analyses) random positions with 1, 2 and 4 threads,
/// each with a fresh solver. With `with_reference` every run is compared with the reference
/// minimax; otherwise with a 1-thread run under `expected_options` when given, else the 2- and
/// 4-thread runs with the 1-thread run.
void check_thread_counts(const Variant& variant, int games, int min_plies, int max_plies,
                         std::uint32_t seed, bool with_reference, const SolverOptions& options,
                         const std::optional<SolverOptions>& expected_options = std::nullopt) {
  std::mt19937 rng(seeded(seed));
  const Board board = board_of(variant);
  const RefSquare start{variant.width / 2, variant.height / 2};
  const Rastros rules = game_of(variant, start);
  ReferenceMinimax generator(reference_rules(variant));
  int reported = 0;
  for (int game = 0; game < games && reported < kMaxReported; ++game) {
    const int plies = std::uniform_int_distribution<int>(min_plies, max_plies)(rng);
    const RefPosition ref_position = random_game(generator, start, plies, rng);
    const Position position = to_library(generator, ref_position);
    const bool analyse = game % 2 == 0;
    std::optional<ThreadRun> expected;
    std::string expected_from = "1 thread";
    if (with_reference) {
      ReferenceMinimax reference(reference_rules(variant));
      const Analysis analysis = reference_analysis(reference, ref_position, options.value_only);
      expected = ThreadRun{analysis.outcome, analysis};
      expected_from = "the reference minimax";
    } else if (expected_options) {
      expected = run_in_arena(1, rules, *expected_options, position, analyse);
      expected_from = "1 thread with" + options_name(*expected_options);
    }
    for (const int threads : {1, 2, 4}) {
      const ThreadRun run = run_in_arena(threads, rules, options, position, analyse);
      if (!expected) {
        expected = run;
        continue;
      }
      bool ok = run.outcome == expected->outcome;
      EXPECT_EQ(outcome_text(run.outcome), outcome_text(expected->outcome))
          << "solve() with " << threads << " threads and " << expected_from << " disagree on "
          << where(variant, board, position) << options_name(options);
      if (analyse) {
        const std::string actual_children = children_text(board, run.analysis);
        const std::string expected_children = children_text(board, expected->analysis);
        EXPECT_EQ(actual_children, expected_children)
            << "analyse() with " << threads << " threads and " << expected_from << " disagree on "
            << where(variant, board, position) << options_name(options);
        EXPECT_EQ(outcome_text(run.analysis.outcome), outcome_text(run.outcome))
            << "analyse() and solve() disagree with " << threads << " threads on "
            << where(variant, board, position) << options_name(options);
        ok = ok && actual_children == expected_children && run.analysis.outcome == run.outcome;
      }
      if (!ok) ++reported;
    }
  }
}

TEST(ParallelSolver, SameAnswersOn6x6WithOneTwoFourThreads) {
  for (const StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
    const Variant variant{6, 6, StepSet::king, rule};
    const int salt = static_cast<int>(rule);
    // Deep enough for the reference to check the answers too.
    check_thread_counts(variant, 6, 16, 24, 606 + salt, true,
                        with_table(SolverOptions{}, std::size_t{16} << 20));
    // From the start and shallow positions: more work to share between the threads; answers
    // compared across thread counts.
    check_thread_counts(variant, 4, 0, 6, 616 + salt, false,
                        with_table(SolverOptions{}, std::size_t{16} << 20));
    check_thread_counts(variant, 3, 0, 6, 626 + salt, false,
                        with_table(value_only_options(), std::size_t{16} << 20));
  }
}

TEST(ParallelSolver, SameAnswersOn7x7WithOneTwoFourThreads) {
  for (const StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
    const Variant variant{7, 7, StepSet::king, rule};
    const int salt = static_cast<int>(rule);
    check_thread_counts(variant, 4, 9, 11, 707 + salt, false,
                        with_table(SolverOptions{}, std::size_t{16} << 20));
    check_thread_counts(variant, 3, 8, 10, 717 + salt, false,
                        with_table(value_only_options(), std::size_t{16} << 20));
  }
}

// The deferral of brothers another thread is searching (ABDADA, off by default) changes only
// the order of work: the same answers as the reference and as one thread.
TEST(ParallelSolver, SameAnswersWithBusyBrothersDeferred) {
  const Variant variant{6, 6, StepSet::king, StuckRule::loses};
  SolverOptions options = with_table(SolverOptions{}, std::size_t{16} << 20);
  options.defer_busy_brothers = true;
  check_thread_counts(variant, 4, 16, 24, 636, true, options);
  check_thread_counts(variant, 3, 0, 6, 646, false, options);
  options.value_only = true;
  check_thread_counts(variant, 3, 0, 6, 656, false, options);
}

// Children packed lazily (the first move searched before its brothers are packed; by default
// up to 34 squares: everywhere on 6x6 but at the start) against every child packed first, and
// lazily at every size: the same answers as the reference on deep positions and, from shallow
// ones where the threads split after a first child searched apart, on 1, 2 and 4 threads as
// one thread packing every child first.
TEST(ParallelSolver, SameAnswersWithChildrenPackedEagerlyOrLazily) {
  for (const StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
    const Variant variant{6, 6, StepSet::king, rule};
    for (const bool value_only : {false, true}) {
      SolverOptions eager = with_table(SolverOptions{}, std::size_t{16} << 20);
      eager.value_only = value_only;
      eager.lazy_packing_max_region = 0;
      for (const int lazy_packing_max_region : {0, 34, kMaxSquares}) {
        SolverOptions options = eager;
        options.lazy_packing_max_region = lazy_packing_max_region;
        const int salt = static_cast<int>(rule) * 2 + value_only + lazy_packing_max_region;
        check_thread_counts(variant, 4, 16, 24, 666 + salt, true, options);
        check_thread_counts(variant, 6, 0, 6, 766 + salt, false, options, eager);
      }
    }
  }
}

// A progress line reads nodes() while the search runs on other threads (some of them joining
// it, adding their counters, as it goes); under ThreadSanitizer this must be clean, and the
// count only grows.
TEST(ParallelSolver, NodesReadWhileSearching) {
  const Rastros game(Board(6, 6));
  Solver solver(game, with_table(SolverOptions{}, std::size_t{16} << 20));
  std::atomic<bool> done{false};
  std::uint64_t last = 0;
  bool decreased = false;
  std::thread reader([&] {
    while (!done.load()) {
      const std::uint64_t now = solver.nodes();
      decreased = decreased || now < last;
      last = now;
    }
  });
  tbb::task_arena arena(2);
  arena.execute([&] { solver.analyse(game.start_position()); });
  done = true;
  reader.join();
  EXPECT_FALSE(decreased);
  EXPECT_LE(last, solver.nodes());
  EXPECT_GT(solver.nodes(), 0u);
}

TEST(ParallelSolver, SameAnswersWithOrthogonalStepsAndBaseline) {
  check_thread_counts({6, 6, StepSet::orthogonal, StuckRule::draws}, 4, 0, 8, 808, false,
                      with_table(SolverOptions{}, std::size_t{16} << 20));
  check_thread_counts({6, 6, StepSet::king, StuckRule::loses}, 4, 12, 22, 818, true,
                      with_table(baseline_options(), std::size_t{16} << 20));
}

}  // namespace
}  // namespace rastros
