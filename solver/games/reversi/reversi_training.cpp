#include "games/reversi/reversi_training.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <random>
#include <istream>
#include <ostream>
#include <sstream>

#include "core/errors.hpp"
#include "core/thread_sanitizer.hpp"

#include "games/reversi/reversi.hpp"
#include "games/reversi/reversi_evaluation.hpp"
#include "games/reversi/reversi_solver.hpp"

namespace rastros::reversi::training {

namespace {

constexpr Geometry kBoard = Geometry::of(8);

// The move a noisy one-ply player makes: at random with probability `random_rate`, else the
// one leaving the opponent the worst evaluation (the first of equals, in square order).
int choose_move(Bits mine, Bits theirs, Bits moves, double random_rate,
                const Evaluator& evaluator, std::mt19937_64& random) {
  if (std::uniform_real_distribution<double>(0, 1)(random) < random_rate) {
    int pick = std::uniform_int_distribution<int>(0, count(moves) - 1)(random);
    for (; pick > 0; --pick) moves &= moves - 1;
    return std::countr_zero(moves);
  }
  int best = -1, best_value = 0;
  for (; moves; moves &= moves - 1) {
    const int square = std::countr_zero(moves);
    const Bits turned = flips(square, mine, theirs, kBoard);
    const int value = evaluator({theirs & ~turned, mine | turned | Bits{1} << square});
    if (best < 0 || value < best_value) best = square, best_value = value;
  }
  return best;
}

// One game's positions from max_empties down to min_empties (the mover having a move or
// not, the game not over), unscored.
std::vector<Sample> play_game(const GenerateOptions& options, const Evaluator& evaluator,
                              std::mt19937_64& random) {
  const ReversiState start = Reversi(8).start();
  Bits mine = start.mine, theirs = start.theirs;
  std::vector<Sample> positions;
  for (;;) {
    const int empties = count(~(mine | theirs));
    if (empties < options.min_empties) break;
    Bits moves = legal_moves(mine, theirs, kBoard);
    if (moves == 0 && legal_moves(theirs, mine, kBoard) == 0) break;
    if (empties <= options.max_empties) positions.push_back({mine, theirs, 0});
    if (moves == 0) {
      std::swap(mine, theirs);
      continue;
    }
    const int square = choose_move(mine, theirs, moves, options.random_rate, evaluator, random);
    const Bits turned = flips(square, mine, theirs, kBoard);
    const Bits next_mine = theirs & ~turned;
    theirs = mine | turned | Bits{1} << square;
    mine = next_mine;
  }
  return positions;
}

}  // namespace

std::vector<Sample> generate(const GenerateOptions& options,
                             const std::function<void(int)>& progress) {
  std::vector<std::vector<Sample>> games(static_cast<std::size_t>(options.games));
  std::atomic<int> done{0};
  const Reversi game(8);
  ReversiSolverOptions solver_options{options.table_bytes};
  solver_options.parallel_plies = 0;  // one thread a game: the games are the parallelism
  oneapi::tbb::task_arena arena(std::max(1, options.threads));
  arena.execute([&] {
    oneapi::tbb::parallel_for(
        oneapi::tbb::blocked_range<int>(0, options.games, 1),  // a game a task
        thread_sanitizer::handed_off([&](const oneapi::tbb::blocked_range<int>& range) {
          const thread_sanitizer::PublishOnExit published(&games);
          const Evaluator evaluator(game);
          ReversiSolver solver(game, solver_options);
          for (int i = range.begin(); i != range.end(); ++i) {
            // A game's own seed: the samples do not depend on which thread plays it.
            std::mt19937_64 random(options.seed * 0x9e3779b97f4a7c15ULL + static_cast<unsigned>(i));
            std::vector<Sample> positions = play_game(options, evaluator, random);
            // The fewest empties first: their table entries help the larger ones.
            for (auto it = positions.rbegin(); it != positions.rend(); ++it) {
              it->score = solver.score({it->mine, it->theirs});
            }
            games[static_cast<std::size_t>(i)] = std::move(positions);
            const int finished = ++done;
            if (progress && finished % 100 == 0) progress(finished);
          }
        }),
        oneapi::tbb::simple_partitioner());
  });
  thread_sanitizer::acquire(&games);
  std::vector<Sample> samples;
  for (auto& positions : games) samples.insert(samples.end(), positions.begin(), positions.end());
  return samples;
}

void write_samples(std::ostream& out, const std::vector<Sample>& samples) {
  for (const Sample& s : samples) {
    out << std::hex << s.mine << ' ' << s.theirs << std::dec << ' ' << s.score << '\n';
  }
}

std::vector<Sample> read_samples(std::istream& in) {
  std::vector<Sample> samples;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    Sample s;
    if (!(fields >> std::hex >> s.mine >> s.theirs >> std::dec >> s.score) || (s.mine & s.theirs)) {
      throw InputError("bad sample line: " + line);
    }
    samples.push_back(s);
  }
  return samples;
}

namespace {

struct Encoded {
  int index[patterns::kFeatures];
  float counted[patterns::kCountedTerms];
  float target;
};

Encoded encode(const Sample& sample) {
  Encoded e;
  patterns::feature_indices(sample.mine, sample.theirs, e.index);
  const patterns::Counts counts = patterns::counted_terms(sample.mine, sample.theirs);
  e.counted[0] = static_cast<float>(counts.mobility) / patterns::kCountDivisor;
  e.counted[1] = static_cast<float>(counts.potential) / patterns::kCountDivisor;
  e.counted[2] = 1;
  e.target = static_cast<float>(sample.score);
  return e;
}

float predict(const Fit& f, const Encoded& e) {
  float sum = 0;
  for (const int index : e.index) sum += f.weights[static_cast<std::size_t>(index)];
  for (int k = 0; k < patterns::kCountedTerms; ++k) sum += f.counted[k] * e.counted[k];
  return sum;
}

double rms(const Fit& f, const std::vector<Encoded>& data, std::size_t first, std::size_t last) {
  if (first >= last) return 0;
  double sum = 0;
  for (std::size_t i = first; i < last; ++i) {
    const double error = data[i].target - predict(f, data[i]);
    sum += error * error;
  }
  return std::sqrt(sum / static_cast<double>(last - first));
}

}  // namespace

Fit fit(const std::vector<Sample>& samples, const FitOptions& options) {
  std::vector<Encoded> data;
  data.reserve(samples.size());
  for (const Sample& sample : samples) data.push_back(encode(sample));
  const std::size_t train = samples.size() -
      static_cast<std::size_t>(options.holdout * static_cast<double>(samples.size()));
  Fit f;
  f.weights.assign(patterns::kPatternWeights, 0.0f);
  std::vector<std::size_t> order(train);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::mt19937_64 random(options.seed);
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), random);
    // The step shrinks linearly to a tenth: large moves first, then settling.
    const float rate = static_cast<float>(options.rate * (1.0 - 0.9 * epoch / options.epochs));
    const float decay = static_cast<float>(options.decay);
    for (const std::size_t i : order) {
      const Encoded& e = data[i];
      const float error = e.target - predict(f, e);
      for (const int index : e.index) {
        float& w = f.weights[static_cast<std::size_t>(index)];
        w += rate * (error - decay * w);
      }
      for (int k = 0; k < patterns::kCountedTerms; ++k) f.counted[k] += rate * error * e.counted[k];
    }
  }
  f.train_rms = rms(f, data, 0, train);
  f.holdout_rms = rms(f, data, train, data.size());
  f.train_samples = static_cast<int>(train);
  f.holdout_samples = static_cast<int>(data.size() - train);
  return f;
}

namespace {

std::int16_t quantize(float discs) {
  const long v = std::lround(discs * patterns::kPatternScale);
  return static_cast<std::int16_t>(std::clamp(v, -32767L, 32767L));
}

}  // namespace

std::string weights_source(const Fit& fitted, std::string_view header) {
  std::ostringstream out;
  out << header;
  out << "// Generated by rastros_reversi_train: do not edit. Weights in 1/"
      << patterns::kPatternScale << " disc.\n"
      << "#include \"games/reversi/reversi_patterns.hpp\"\n\n"
      << "namespace rastros::reversi {\n\n"
      << "const std::int16_t kPatternWeightTable[patterns::kPatternWeights] = {\n";
  for (std::size_t i = 0; i < fitted.weights.size(); ++i) {
    out << quantize(fitted.weights[i]) << (i % 24 == 23 ? ",\n" : ",");
  }
  out << "};\n\nconst std::int16_t kPatternCountedWeights[patterns::kCountedTerms] = {";
  for (int k = 0; k < patterns::kCountedTerms; ++k) out << quantize(fitted.counted[k]) << ",";
  out << "};\n\n}  // namespace rastros::reversi\n";
  return out.str();
}

}  // namespace rastros::reversi::training
