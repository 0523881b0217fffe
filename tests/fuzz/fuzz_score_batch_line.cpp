// libFuzzer target: the batch line parsers of the score games (batch/score_batch_line.hpp and
// each game's GAME_batch_line.hpp) on arbitrary bytes.
//
// The first byte picks the game (Kalah, Congkak, Oware, Reversi) and its default variant; the
// rest is one line. A parser must never throw, and gives a skip (a blank line or a comment), a
// one-line error, or a job whose position's text form parses back to the same position.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "games/congkak/congkak_batch_line.hpp"
#include "games/kalah/kalah_batch_line.hpp"
#include "games/oware/oware_batch_line.hpp"
#include "games/reversi/reversi_batch_line.hpp"

namespace {

using namespace rastros;

void check(bool condition) {
  if (!condition) std::abort();
}

template <class Job>
bool check_kind(const ScoreBatchLine<Job>& line, std::string_view text) {
  using Kind = typename ScoreBatchLine<Job>::Kind;
  switch (line.kind) {
    case Kind::skip:
      check(!line.job && line.error.empty() && skipped_batch_line(text));
      return false;
    case Kind::error:
      check(!line.job && !line.error.empty() && line.error.find('\n') == std::string::npos);
      return false;
    case Kind::job:
      check(line.job.has_value() && line.error.empty());
      return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const int houses = 1 + (data[0] >> 2) % 4;
  switch (data[0] % 4) {
    case 0: {
      const auto line = kalah::parse_kalah_batch_line(text, {houses, 2, "standard"});
      if (check_kind(line, text)) {
        const auto& game = line.job->game;
        check(kalah::parse_position(game, kalah::position_string(game, line.job->position)) ==
              line.job->position);
      }
      break;
    }
    case 1: {
      const auto line = congkak::parse_congkak_batch_line(text, houses, 2);
      if (check_kind(line, text)) {
        const auto& board = line.job->game.board();
        check(mancala::parse_position(board, mancala::position_string(board, line.job->position)) ==
              line.job->position);
      }
      break;
    }
    case 2: {
      const auto line = oware::parse_oware_batch_line(text, houses, 2);
      if (check_kind(line, text)) {
        const auto& game = line.job->game;
        check(oware::parse_position(game, oware::position_string(game, line.job->position)) ==
              line.job->position);
      }
      break;
    }
    default: {
      const auto line = reversi::parse_reversi_batch_line(text, "4x4");
      if (check_kind(line, text)) {
        const auto& game = line.job->game;
        check(reversi::parse_position(game, reversi::position_string(game, line.job->position)) ==
              line.job->position);
      }
    }
  }
  return 0;
}
