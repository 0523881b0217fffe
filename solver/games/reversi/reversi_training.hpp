#pragma once
// Training the pattern evaluation (reversi_patterns.hpp) on positions this solver scores
// exactly: games played from the 8×8 start by a noisy one-ply player down to a few empties,
// every position between two empty counts solved by ReversiSolver, the weights fitted to the
// margins by stochastic gradient descent with L2 decay, then written as a C++ source.

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "games/reversi/reversi_bits.hpp"
#include "games/reversi/reversi_patterns.hpp"

namespace rastros::reversi::training {

struct Sample {
  Bits mine = 0;  // the side to move's discs
  Bits theirs = 0;
  int score = 0;  // the exact final margin for the side to move
};

struct GenerateOptions {
  int games = 1000;
  int min_empties = 14;  // every position of a game from max_empties down to min_empties
  int max_empties = 20;
  double random_rate = 0.25;  // the share of moves played at random, not by the evaluator
  std::uint64_t seed = 1;
  int threads = 1;
  std::size_t table_bytes = std::size_t{8} << 20;  // a solver a thread
};

/// The solved positions of `games` games, in game order (the same whatever `threads`).
/// `progress` (when set) hears the number of games done, from any thread, now and then.
std::vector<Sample> generate(const GenerateOptions& options,
                             const std::function<void(int)>& progress = {});

/// Samples as text, one a line: mine and theirs in hex, the score (to fit again without
/// solving again). read_samples throws InputError on a malformed line.
void write_samples(std::ostream& out, const std::vector<Sample>& samples);
std::vector<Sample> read_samples(std::istream& in);

struct FitOptions {
  int epochs = 30;
  double rate = 0.003;  // the step per sample, a pattern weight per disc of error
  double decay = 1e-4;  // L2: each step shrinks a touched weight by rate * decay of itself
  double holdout = 0.05;  // the last share of samples kept out to test the fit (a game may
                          // straddle the cut: its positions are alike, so the test is lenient)
  std::uint64_t seed = 1;
};

struct Fit {
  std::vector<float> weights;  // kPatternWeights, in discs
  float counted[patterns::kCountedTerms]{};  // in discs per unit of kCountDivisor counts
  double train_rms = 0;  // in discs
  double holdout_rms = 0;
  int train_samples = 0;
  int holdout_samples = 0;
};

Fit fit(const std::vector<Sample>& samples, const FitOptions& options);

/// reversi_pattern_weights.cpp: the weights in 1/kPatternScale of a disc, `header` (lines
/// of comment, already with their `//`) at the top.
std::string weights_source(const Fit& fitted, std::string_view header);

}  // namespace rastros::reversi::training
