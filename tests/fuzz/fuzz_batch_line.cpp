// libFuzzer target: the batch line parser (batch/batch_line.hpp) and the streaming line reader
// on arbitrary bytes.
//
// The input is a whole batch file. Every line goes to parse_batch_line, which must never throw
// and must give a one-line error or a job whose position is legal on its board and whose game
// replays to it; the reader must count every byte and every line exactly once.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "batch/batch_line.hpp"
#include "batch/batch_runner.hpp"
#include "rastros/notation.hpp"

namespace {

using namespace rastros;

void check(bool condition) {
  if (!condition) std::abort();
}

void check_line(const BatchLine& line) {
  switch (line.kind) {
    case BatchLine::Kind::skip:
      check(!line.job && line.error.empty());
      return;
    case BatchLine::Kind::error:
      check(!line.job && !line.error.empty());
      check(line.error.find('\n') == std::string::npos);
      return;
    case BatchLine::Kind::job:
      break;
  }
  check(line.job.has_value());
  const BatchJob& job = *line.job;
  const Board& board = job.rastros.board();
  check((job.position.free & ~board.all_squares()) == 0);
  // A game replays to its position; a position string round-trips.
  if (!job.moves.empty()) {
    Position position = job.rastros.start_position();
    for (Square move : job.moves) {
      check(job.rastros.is_legal(position, move));
      position = job.rastros.play(position, move);
    }
    check(position == job.position);
    check(parse_game(job.rastros, game_text(board, job.moves)).position == job.position);
  } else {
    check(parse_position(board, position_string(board, job.position)) == job.position);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::istringstream input(text);
  LineReader reader(input, BatchCursor{});
  const VariantText defaults;
  std::string line;
  std::uint64_t lines = 0;
  while (reader.next(line)) {
    ++lines;
    check(line.size() <= kMaxBatchLineBytes + 1);
    check_line(parse_batch_line(line, defaults));
  }
  check(reader.offset() == size);
  check(reader.line_number() == lines);
  const std::size_t newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  check(lines == newlines + (text.empty() || text.back() == '\n' ? 0 : 1));
  return 0;
}
