#include "kalah/kalah_output.hpp"

namespace rastros::tools::kalah_cli {

// Kalah's reports are the shared mancala ones (mancala/mancala_output.hpp) on a Kalah view.

namespace {

mancala_cli::MancalaReport shared(const KalahReport& report, const mancala_cli::MancalaView& view) {
  return {view,           report.result,        report.root_only, report.nodes,
          report.seconds, report.endgame_seeds, report.source,    report.timing};
}

}  // namespace

std::string value_text(Value value, int to_move, std::optional<int> score) {
  return mancala_cli::value_text(value, to_move, score);
}

void print_text(const KalahReport& report) {
  const auto view = kalah_view(report.input);
  mancala_cli::print_text(shared(report, view));
}

Json result_json(const KalahReport& report) {
  const auto view = kalah_view(report.input);
  return mancala_cli::result_json(shared(report, view));
}

Json show_json(const KalahInput& input) {
  return mancala_cli::show_json(kalah_view(input));
}

}  // namespace rastros::tools::kalah_cli
