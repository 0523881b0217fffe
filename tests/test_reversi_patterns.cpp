// The pattern evaluation (reversi_patterns.hpp): every feature index against a square-by-square
// reading written here, the same value on the eight images of a position, the compiled-in fit
// better than no estimate at all, and the trainer's pieces (games solved exactly, samples as
// text, a fit that learns).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <vector>

#include "games/reversi/reversi.hpp"
#include "games/reversi/reversi_patterns.hpp"
#include "games/reversi/reversi_solver.hpp"
#include "games/reversi/reversi_symmetry.hpp"
#include "games/reversi/reversi_training.hpp"
#include "reversi_reference.hpp"

namespace rastros::reversi::pattern_tests {

// Each shape's squares in its digit order (the lowest digit first), read in image 0.
std::vector<int> shape_squares_for_test(int shape) {
  switch (shape) {
    case 0: return {0, 1, 2, 3, 4, 5, 6, 7, 9, 14};
    case 1: return {0, 1, 2, 3, 4, 8, 9, 10, 11, 12};
    case 2: return {0, 1, 2, 8, 9, 10, 16, 17, 18};
    case 3: case 4: case 5: {
      std::vector<int> row;
      for (int c = 0; c < 8; ++c) row.push_back(8 * (shape - 2) + c);
      return row;
    }
    default: {
      const int length = 8 - (shape - 6);
      std::vector<int> diagonal;
      for (int r = 0; r < length; ++r) diagonal.push_back(8 * r + r + 8 - length);
      return diagonal;
    }
  }
}

std::vector<int> naive_indices_for_test(Bits p, Bits o) {
  std::vector<int> out;
  for (int s = 0; s < patterns::kImages; ++s) {
    const Bits pi = apply_symmetry(p, s, 8), oi = apply_symmetry(o, s, 8);
    for (int shape = 0; shape < patterns::kShapes; ++shape) {
      int index = 0, weight = 1;
      for (const int square : shape_squares_for_test(shape)) {
        index += weight * ((pi >> square & 1) ? 1 : (oi >> square & 1) ? 2 : 0);
        weight *= 3;
      }
      out.push_back(patterns::kShapeOffset[static_cast<std::size_t>(shape)] + index);
    }
  }
  return out;
}

std::vector<int> fast_indices_for_test(Bits p, Bits o) {
  std::vector<int> out(patterns::kFeatures);
  patterns::feature_indices(p, o, out.data());
  return out;
}

TEST(ReversiPatterns, ShapesCoverTheirSquareCounts) {
  for (int shape = 0; shape < patterns::kShapes; ++shape) {
    EXPECT_EQ(static_cast<int>(shape_squares_for_test(shape).size()),
              patterns::kShapeSquares[static_cast<std::size_t>(shape)]);
  }
  EXPECT_EQ(patterns::kPatternWeights, 167265);
}

TEST(ReversiPatterns, IndicesMatchASquareBySquareReading) {
  std::mt19937_64 random(91);
  const Reversi game(8);
  for (int i = 0; i < 300; ++i) {
    const ReversiState state = i % 2 ? reference::random_state(random, 8, 0.1 + (i % 7) * 0.1)
                                     : reference::random_game_state(random, game, 10 + i % 40);
    ASSERT_EQ(fast_indices_for_test(state.mine, state.theirs),
              naive_indices_for_test(state.mine, state.theirs)) << i;
  }
}

TEST(ReversiPatterns, EveryImageHasTheSameFeaturesAndValue) {
  std::mt19937_64 random(92);
  const Reversi game(8);
  for (int i = 0; i < 100; ++i) {
    const ReversiState state = reference::random_game_state(random, game, 12 + i % 30);
    std::vector<int> first = fast_indices_for_test(state.mine, state.theirs);
    std::sort(first.begin(), first.end());
    const int value = patterns::evaluate(state.mine, state.theirs);
    for (int s = 1; s < kSymmetries; ++s) {
      const Bits p = apply_symmetry(state.mine, s, 8), o = apply_symmetry(state.theirs, s, 8);
      std::vector<int> image = fast_indices_for_test(p, o);
      std::sort(image.begin(), image.end());
      ASSERT_EQ(image, first) << i << " " << s;
      ASSERT_EQ(patterns::evaluate(p, o), value) << i << " " << s;
    }
  }
}

// The compiled-in weights predict exact margins better than always guessing 0 does.
TEST(ReversiPatterns, CompiledWeightsBeatNoEstimate) {
  std::mt19937_64 random(93);
  const Reversi game(8);
  ReversiSolver solver(game, {std::size_t{4} << 20});
  double error = 0, zero = 0;
  for (int i = 0; i < 60; ++i) {
    const ReversiState state = reference::random_game_state(random, game, 12);
    const double exact = solver.score(state);
    const double estimate =
        static_cast<double>(patterns::evaluate(state.mine, state.theirs)) / patterns::kPatternScale;
    error += (exact - estimate) * (exact - estimate);
    zero += exact * exact;
  }
  EXPECT_LT(error, 0.7 * zero);
}

TEST(ReversiPatterns, GeneratedSamplesAreExactAndRoundTripAsText) {
  training::GenerateOptions options;
  options.games = 3;
  options.min_empties = 7;
  options.max_empties = 9;
  options.seed = 5;
  options.table_bytes = std::size_t{1} << 20;
  const auto samples = training::generate(options);
  ASSERT_GE(samples.size(), 6u);
  for (const auto& s : samples) {
    const int empties = count(~(s.mine | s.theirs));
    EXPECT_GE(empties, 7);
    EXPECT_LE(empties, 9);
    EXPECT_EQ(s.score, reference::minimax(reference::from_state({s.mine, s.theirs}, 8)));
  }
  options.threads = 2;
  const auto again = training::generate(options);
  ASSERT_EQ(again.size(), samples.size());
  std::stringstream text;
  training::write_samples(text, samples);
  const auto read = training::read_samples(text);
  ASSERT_EQ(read.size(), samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i) {
    EXPECT_EQ(read[i].mine, samples[i].mine);
    EXPECT_EQ(read[i].theirs, samples[i].theirs);
    EXPECT_EQ(read[i].score, samples[i].score);
    EXPECT_EQ(again[i].mine, samples[i].mine);
    EXPECT_EQ(again[i].theirs, samples[i].theirs);
    EXPECT_EQ(again[i].score, samples[i].score);
  }
}

TEST(ReversiPatterns, FitLearnsItsSamples) {
  training::GenerateOptions options;
  options.games = 40;
  options.min_empties = 8;
  options.max_empties = 10;
  options.table_bytes = std::size_t{1} << 20;
  const auto samples = training::generate(options);
  training::FitOptions fit_options;
  fit_options.holdout = 0;
  fit_options.epochs = 40;
  const training::Fit fitted = training::fit(samples, fit_options);
  double zero = 0;
  for (const auto& s : samples) zero += s.score * s.score;
  zero = std::sqrt(zero / static_cast<double>(samples.size()));
  EXPECT_LT(fitted.train_rms, 0.5 * zero);
  const std::string source = training::weights_source(fitted, "// test\n");
  EXPECT_NE(source.find("kPatternWeightTable"), std::string::npos);
}

}  // namespace rastros::reversi::pattern_tests
