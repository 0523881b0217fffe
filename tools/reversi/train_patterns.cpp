// rastros_reversi_train: fits the Reversi pattern evaluation (reversi_patterns.hpp) to
// positions the exact solver scores and writes solver/games/reversi/reversi_pattern_weights.cpp.
// Option parsing and printing only: the work is in reversi_training.hpp.

#include <boost/program_options.hpp>

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/atomic_file.hpp"
#include "games/reversi/reversi_training.hpp"

namespace po = boost::program_options;
using namespace rastros::reversi;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The command as given, for the generated file's header.
std::string command_line(int argc, char** argv) {
  std::string text = "build/tools/rastros_reversi_train";
  for (int i = 1; i < argc; ++i) text += std::string(" ") + argv[i];
  return text;
}

// Written to a temporary name and renamed: a killed run leaves the old file whole.
void write_text(const std::string& path, const std::string& text) {
  rastros::write_file_atomically(
      path, {reinterpret_cast<const unsigned char*>(text.data()), text.size()}, "output");
}

}  // namespace

int main(int argc, char** argv) try {
  training::GenerateOptions gen;
  training::FitOptions fit_options;
  std::string output, save_samples, load_samples;
  po::options_description options("rastros_reversi_train options");
  options.add_options()("help", "this text")
      ("games", po::value(&gen.games)->default_value(gen.games), "games to play and solve")
      ("min-empties", po::value(&gen.min_empties)->default_value(gen.min_empties), "fewest empties solved")
      ("max-empties", po::value(&gen.max_empties)->default_value(gen.max_empties), "most empties solved")
      ("random-rate", po::value(&gen.random_rate)->default_value(gen.random_rate), "share of random moves")
      ("seed", po::value(&gen.seed)->default_value(gen.seed), "games' and fit's seed")
      ("threads", po::value(&gen.threads)->default_value(gen.threads), "threads solving")
      ("epochs", po::value(&fit_options.epochs)->default_value(fit_options.epochs), "passes of the fit")
      ("rate", po::value(&fit_options.rate)->default_value(fit_options.rate), "gradient step")
      ("decay", po::value(&fit_options.decay)->default_value(fit_options.decay), "L2 decay")
      ("save-samples", po::value(&save_samples), "write the solved samples to this file")
      ("load-samples", po::value(&load_samples), "fit these samples instead of solving games")
      ("output", po::value(&output), "the weights source to write (else only the errors print)");
  po::variables_map vm;
  po::store(po::parse_command_line(argc, argv, options), vm);
  if (vm.count("help")) {
    std::cout << options;
    return 0;
  }
  po::notify(vm);
  fit_options.seed = gen.seed;
  if (gen.games < 1 || gen.threads < 1 || fit_options.epochs < 1) {
    throw std::invalid_argument("--games, --threads and --epochs must be at least 1");
  }
  if (gen.min_empties < 1 || gen.min_empties > gen.max_empties || gen.max_empties > 60) {
    throw std::invalid_argument(
        "--min-empties must be at least 1 and at most --max-empties (at most 60)");
  }

  const auto start = std::chrono::steady_clock::now();
  std::vector<training::Sample> samples;
  if (!load_samples.empty()) {
    std::ifstream in(load_samples);
    if (!in) throw std::runtime_error("cannot read " + load_samples);
    samples = training::read_samples(in);
  } else {
    samples = training::generate(gen, [](int games) { std::cerr << "\r" << games << " games" << std::flush; });
    std::cerr << "\n";
  }
  const double solve_seconds = seconds_since(start);
  std::cerr << samples.size() << " samples in " << solve_seconds << " s\n";
  if (!save_samples.empty()) {
    std::ostringstream out;
    training::write_samples(out, samples);
    write_text(save_samples, out.str());
  }
  if (samples.size() < 2) throw std::invalid_argument("no samples to fit: nothing written");
  const training::Fit fitted = training::fit(samples, fit_options);
  std::ostringstream summary;
  summary << fitted.train_samples << " positions fitted (" << fitted.holdout_samples
          << " held out), rms error " << fitted.train_rms << " discs (held out "
          << fitted.holdout_rms << ")";
  std::cout << summary.str() << "; " << seconds_since(start) << " s in all\n";
  if (!output.empty()) {
    std::ostringstream header;
    header << "// Regenerate with (from the source root, after building): "
           << command_line(argc, argv) << "\n"
           << "// Seed " << gen.seed << "; " << samples.size() << " positions"
           << (load_samples.empty() ? "" : " (loaded)") << "; " << summary.str() << ".\n";
    write_text(output, training::weights_source(fitted, header.str()));
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "rastros_reversi_train: " << e.what() << "\n";
  return 2;
}
