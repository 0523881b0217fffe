// `rastros batch` in the library: line parsing, streaming, chunked parallel solving checked
// against plain minimax, and the checkpoint files a batch resumes from.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <tbb/global_control.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>

#include "batch/batch_checkpoint.hpp"
#include "batch/batch_line.hpp"
#include "batch/batch_runner.hpp"
#include "core/checkpoint_file.hpp"
#include "core/errors.hpp"
#include "rastros/notation.hpp"
#include "reference_minimax.hpp"
#include "temporary_directory.hpp"

namespace rastros {
namespace {

using rastros_reference::ReferenceMinimax;
using rastros_reference::RefOutcome;
using rastros_reference::RefPosition;
using rastros_reference::RefRules;
using rastros_reference::RefValue;

const VariantText kDefaults;

BatchLine parse(std::string_view text) {
  return parse_batch_line(text, kDefaults);
}

TEST(BatchLine, SkipsBlankLinesAndComments) {
  for (const char* text : {"", "   ", "\t\r", "# c3 b2", "   # indented comment"}) {
    EXPECT_EQ(parse(text).kind, BatchLine::Kind::skip) << "'" << text << "'";
  }
}

TEST(BatchLine, ReadsGamesPositionsAndOptions) {
  BatchLine line = parse("c3 b2");
  ASSERT_EQ(line.kind, BatchLine::Kind::job) << line.error;
  EXPECT_EQ(line.job->rastros.board().name(), "7x7");
  EXPECT_EQ(line.job->moves.size(), 2u);
  EXPECT_EQ(position_string(line.job->rastros.board(), line.job->position),
            "7/7/7/3x3/2x4/1o5/7 1");

  line = parse("--board 5x5 --rules stuck-draw --steps orthogonal --start b2 b3\r");
  ASSERT_EQ(line.kind, BatchLine::Kind::job) << line.error;
  EXPECT_EQ(line.job->rastros.board().name(), "5x5");
  EXPECT_EQ(line.job->rastros.stuck_rule(), StuckRule::draws);
  EXPECT_EQ(line.job->rastros.board().steps(), StepSet::orthogonal);
  EXPECT_EQ(square_name(line.job->rastros.board(), line.job->rastros.start()), "b2");
  EXPECT_EQ(square_name(line.job->rastros.board(), line.job->position.snail), "b3");

  line = parse("--board=4x4 4/2x1/1o2/4 2");
  ASSERT_EQ(line.kind, BatchLine::Kind::job) << line.error;
  EXPECT_TRUE(line.job->moves.empty());
  EXPECT_EQ(line.job->position.to_move, Player::two);

  line = parse("--board 6x6");  // no moves: the start position
  ASSERT_EQ(line.kind, BatchLine::Kind::job) << line.error;
  EXPECT_EQ(line.job->position, line.job->rastros.start_position());
}

TEST(BatchLine, OptionsOfOneLineDoNotLeakIntoTheDefaults) {
  VariantText defaults;
  defaults.board = "5x5";
  EXPECT_EQ(parse_batch_line("--board 6x6 c4", defaults).job->rastros.board().name(), "6x6");
  EXPECT_EQ(parse_batch_line("c2", defaults).job->rastros.board().name(), "5x5");
}

TEST(BatchLine, BadLinesBecomeErrorsNamingTheProblem) {
  const std::pair<const char*, const char*> cases[] = {
      {"zz9", "malformed square 'zz9'"},
      {"c3 c3", "is not a step"},
      {"--bogus 3 c3", "unknown option '--bogus'"},
      {"--board", "option --board needs a value"},
      {"--board= c3", "option --board needs a value"},
      {"--board 99x99", "board"},
      {"--rules maybe", "unknown rules 'maybe'"},
      {"--start g7", "goal"},
      {"7/7/7/3o3/7/7 1", ""},
      // Impossible positions, refused as on the command line.
      {"--board 4x4 4/1o2/4/4 2", "0 slimed squares, so player 1 is to move, not player 2"},
      {"--board 4x4 4/4/1o2/4 1",
       "no slime, so the snail must be on the start square c3, not b2 "
       "(another start: give --start)"},
      // The start was given: no advice to give it.
      {"--board 4x4 --start c3 4/4/1o2/4 1", "not b2"},
      {"--board 5x5 --board 6x6 c3", "option --board given more than once"},
      {"--start c3 --start=b2 c3", "option --start given more than once"},
      {"--board 4x4 04/4/1o2/4 1", "a run of empty squares is at least 1"},
      {"--board 4x4 4/2x1/1o2/4 1", "1 slimed square, so player 2 is to move"},
      {"--board 4x4 x3/2x1/1o2/4 1", "slime on a4 not joined"},
  };
  for (const auto& [text, message] : cases) {
    const BatchLine line = parse(text);
    ASSERT_EQ(line.kind, BatchLine::Kind::error) << text;
    EXPECT_NE(line.error.find(message), std::string::npos) << text << ": " << line.error;
    if (std::string_view(text).find("--start") != std::string_view::npos) {
      EXPECT_EQ(line.error.find("give --start"), std::string::npos) << text << ": " << line.error;
    }
    EXPECT_EQ(line.error.find('\n'), std::string::npos) << text;
  }
  const BatchLine long_line = parse(std::string(kMaxBatchLineBytes + 1, 'a'));
  ASSERT_EQ(long_line.kind, BatchLine::Kind::error);
  EXPECT_NE(long_line.error.find("longer than"), std::string::npos);
  // What LineReader keeps of a long line may be blanks only, or a game cut short: still an
  // error, never skipped or solved.
  EXPECT_EQ(parse(std::string(kMaxBatchLineBytes + 1, ' ')).kind, BatchLine::Kind::error);
  std::string cut(kMaxBatchLineBytes - 10, ' ');
  cut += "c3 b2 a1 b1";
  EXPECT_EQ(parse(cut).kind, BatchLine::Kind::error);
}

TEST(BatchLine, NeverThrowsOnGarbage) {
  std::mt19937 random(11);
  const std::string alphabet = "abcdefgh12345678x/o- =\t#\r\x01\xff";
  for (int i = 0; i < 20000; ++i) {
    std::string text(random() % 40, ' ');
    for (char& c : text) c = alphabet[random() % alphabet.size()];
    if (random() % 4 == 0) text = "--board " + text;
    EXPECT_NO_THROW(parse(text)) << text;
  }
}

TEST(LineReader, CountsLinesAndBytesAndCutsLongLines) {
  const std::string long_line(3 * kMaxBatchLineBytes, 'x');
  std::istringstream input("a\n\nbb\r\n" + long_line + "\nlast");
  LineReader reader(input, BatchCursor{});
  std::string line;
  ASSERT_TRUE(reader.next(line));
  EXPECT_EQ(line, "a");
  EXPECT_EQ(reader.offset(), 2u);
  ASSERT_TRUE(reader.next(line));
  EXPECT_EQ(line, "");
  ASSERT_TRUE(reader.next(line));
  EXPECT_EQ(line, "bb\r");
  ASSERT_TRUE(reader.next(line));
  EXPECT_EQ(line.size(), kMaxBatchLineBytes + 1);  // kept only up to the limit, rest skipped
  EXPECT_EQ(reader.line_number(), 4u);
  ASSERT_TRUE(reader.next(line));
  EXPECT_EQ(line, "last");  // no newline at the end
  EXPECT_EQ(reader.offset(), 2 + 1 + 4 + long_line.size() + 1 + 4);
  EXPECT_FALSE(reader.next(line));
  EXPECT_EQ(reader.line_number(), 5u);
}

TEST(LineReader, GivesUpAnEndlessLineWhenStopped) {
  // An endless line (--input /dev/zero) would be skipped forever: a stop ends the read, and
  // the line is neither counted nor consumed in the offset.
  std::istringstream input("a\n" + std::string(1 << 20, '0'));
  LineReader reader(input, BatchCursor{});
  std::atomic<bool> stop{false};
  reader.stop_on(stop);
  std::string line;
  ASSERT_TRUE(reader.next(line));
  stop = true;
  EXPECT_FALSE(reader.next(line));
  EXPECT_EQ(reader.offset(), 2u);
  EXPECT_EQ(reader.line_number(), 1u);
}

TEST(StopAwareInput, ReadsAPipeAndEndsOnStopWhileWaiting) {
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  ASSERT_EQ(::write(ends[1], "c3\nb2", 5), 5);
  std::atomic<bool> stop{false};
  StopAwareInput input(ends[0], stop);
  LineReader reader(input, BatchCursor{});
  reader.stop_on(stop);
  std::string line;
  ASSERT_TRUE(reader.next(line));
  EXPECT_EQ(line, "c3");
  // "b2" has no newline yet and the writer stays open: the read waits until the stop.
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop = true;
  });
  EXPECT_FALSE(reader.next(line));
  stopper.join();
  EXPECT_EQ(reader.offset(), 3u);
  EXPECT_EQ(reader.line_number(), 1u);
  ::close(ends[0]);
  ::close(ends[1]);
}

// -- Solving, checked against plain minimax --------------------------------------------------

struct SmallVariant {
  const char* options;
  RefRules rules;
};

const SmallVariant kVariants[] = {
    {"--board 4x4", {4, 4, true, false}},
    {"--board 4x4 --rules stuck-draw", {4, 4, true, true}},
    {"--board 5x3 --steps orthogonal", {5, 3, false, false}},
    {"--board 3x5", {3, 5, true, false}},
    {"--board 4x3 --rules stuck-draw --steps orthogonal", {4, 3, false, true}},
};

RefOutcome reference_outcome(const SmallVariant& variant, const BatchJob& job) {
  ReferenceMinimax reference(variant.rules);
  const Board& board = job.rastros.board();
  RefPosition position;
  position.slime.resize(static_cast<std::size_t>(board.square_count()));
  for (Square square = 0; square < board.square_count(); ++square) {
    position.slime[static_cast<std::size_t>(square)] =
        square != job.position.snail && (job.position.free & bit(square)) == 0;
  }
  position.snail = {job.position.snail % board.width(), job.position.snail / board.width()};
  position.to_move = number_of(job.position.to_move);
  return reference.solve(position);
}

// Random games on the small variants, one line each, with their variants and some bad lines.
struct Input {
  std::string text;
  std::vector<int> variant_of_line;  // index into kVariants, or -1 for a bad or skipped line
};

Input random_input(int lines, unsigned seed) {
  std::mt19937 random(seed);
  Input input;
  for (int i = 0; i < lines; ++i) {
    if (i % 9 == 4) {
      input.text += i % 2 ? "# comment\n" : "--board 4x4 a1 a1\n";
      input.variant_of_line.push_back(-1);
      continue;
    }
    const int which = static_cast<int>(random() % std::size(kVariants));
    const BatchLine start = parse(kVariants[which].options);
    const Rastros& rastros = start.job->rastros;
    Position position = rastros.start_position();
    std::string line = kVariants[which].options;
    const int plies = static_cast<int>(random() % 5);
    for (int ply = 0; ply < plies && !rastros.terminal_value(position); ++ply) {
      std::vector<Square> moves;
      for (Square move : rastros.legal_moves(position)) moves.push_back(move);
      const Square move = moves[random() % moves.size()];
      line += " " + square_name(rastros.board(), move);
      position = rastros.play(position, move);
    }
    input.text += line + "\n";
    input.variant_of_line.push_back(which);
  }
  return input;
}

std::vector<BatchResult> run_all(const std::string& text, const BatchOptions& options) {
  std::istringstream stream(text);
  LineReader reader(stream, BatchCursor{});
  BatchSolvers solvers(options);
  std::vector<BatchResult> all;
  std::mutex mutex;
  BatchCallbacks callbacks;
  std::vector<BatchResult> chunk;
  callbacks.format = [&](const BatchResult& result) {
    std::lock_guard lock(mutex);
    all.push_back(result);
    return std::to_string(result.line);
  };
  std::string output;
  callbacks.commit = [&](std::string_view text, const BatchCursor&) { output += text; };
  const std::atomic<bool> stop{false};
  const BatchCursor end = run_batch(reader, BatchCursor{}, options, solvers, callbacks, stop);
  EXPECT_EQ(end.results, all.size());
  std::sort(all.begin(), all.end(),
            [](const BatchResult& a, const BatchResult& b) { return a.line < b.line; });
  // Committed in input order.
  std::string expected;
  for (const BatchResult& result : all) expected += std::to_string(result.line) + "\n";
  EXPECT_EQ(output, expected);
  return all;
}

TEST(BatchRunner, AgreesWithPlainMinimaxOnMixedVariants) {
  const Input input = random_input(120, 5);
  BatchOptions options;
  options.chunk_lines = 7;
  // Room for only two tables: the variants keep evicting each other.
  options.memory_bytes = 2 * kMinimumTableBytes;
  const std::vector<BatchResult> results = run_all(input.text, options);
  std::size_t checked = 0;
  for (const BatchResult& result : results) {
    const int which = input.variant_of_line[result.line - 1];
    if (which < 0) {
      EXPECT_FALSE(result.job) << "line " << result.line;
      EXPECT_FALSE(result.error.empty());
      continue;
    }
    ASSERT_TRUE(result.job) << "line " << result.line << ": " << result.error;
    const RefOutcome expected = reference_outcome(kVariants[which], *result.job);
    const Outcome& got = result.analysis.outcome;
    EXPECT_EQ(static_cast<int>(got.value == Value::win    ? RefValue::win
                               : got.value == Value::loss ? RefValue::loss
                                                          : RefValue::draw),
              static_cast<int>(expected.value))
        << "line " << result.line;
    EXPECT_EQ(got.remoteness.value_or(-1), expected.remoteness) << "line " << result.line;
    ++checked;
  }
  EXPECT_GT(checked, 90u);
}

TEST(BatchRunner, ParallelResultsEqualSerialOnes) {
  const Input input = random_input(60, 9);
  BatchOptions options;
  options.chunk_lines = 16;
  std::vector<BatchResult> serial;
  {
    tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
    serial = run_all(input.text, options);
  }
  tbb::global_control two(tbb::global_control::max_allowed_parallelism, 2);
  const std::vector<BatchResult> parallel = run_all(input.text, options);
  ASSERT_EQ(serial.size(), parallel.size());
  for (std::size_t i = 0; i < serial.size(); ++i) {
    EXPECT_EQ(serial[i].error, parallel[i].error);
    EXPECT_EQ(serial[i].analysis.outcome, parallel[i].analysis.outcome) << i;
    EXPECT_EQ(serial[i].analysis.children.size(), parallel[i].analysis.children.size());
  }
}

TEST(BatchRunner, StopsBetweenChunks) {
  const Input input = random_input(50, 3);
  std::istringstream stream(input.text);
  LineReader reader(stream, BatchCursor{});
  BatchOptions options;
  options.chunk_lines = 10;
  BatchSolvers solvers(options);
  std::atomic<bool> stop{false};
  int commits = 0;
  BatchCallbacks callbacks;
  callbacks.format = [](const BatchResult&) { return std::string("x"); };
  callbacks.commit = [&](std::string_view, const BatchCursor&) {
    if (++commits == 2) stop = true;
  };
  const BatchCursor end = run_batch(reader, BatchCursor{}, options, solvers, callbacks, stop);
  EXPECT_EQ(commits, 2);
  EXPECT_EQ(end.results, 20u);
  EXPECT_LT(end.lines_read, 50u);
  EXPECT_EQ(end.input_offset, reader.offset());
}

// -- Checkpoints ------------------------------------------------------------------------------

std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

TEST(CheckpointFile, RoundTripsAndRefusesDamage) {
  TemporaryDirectory directory{"rastros-batch-test"};
  const auto path = directory.path() / "state";
  EXPECT_FALSE(read_checkpoint(path, "batch"));
  Checkpoint checkpoint;
  checkpoint.kind = "batch";
  checkpoint.fields = {{"offset", "12345"}, {"identity", "input=a b;c"}};
  write_checkpoint(path, checkpoint);
  const auto back = read_checkpoint(path, "batch");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->fields, checkpoint.fields);
  EXPECT_EQ(back->number("offset"), 12345u);
  EXPECT_THROW(back->number("identity"), FileError);
  EXPECT_THROW(back->text("missing"), FileError);
  EXPECT_THROW(read_checkpoint(path, "map"), FileError);

  const std::string good = read_file(path);
  for (std::size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x20);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bad;
    EXPECT_THROW(read_checkpoint(path, "batch"), FileError) << "byte " << i;
    std::ofstream(path, std::ios::binary | std::ios::trunc) << good.substr(0, i);
    EXPECT_THROW(read_checkpoint(path, "batch"), FileError) << "cut at " << i;
  }
}

TEST(BatchCheckpoint, ResumesFromTheLastCommitAndCutsLaterOutput) {
  TemporaryDirectory directory{"rastros-batch-test", TemporaryDirectory::Create::no};
  BatchCursor cursor;
  {
    BatchCheckpoint checkpoint(directory.path(), "identity-1", false);
    EXPECT_FALSE(checkpoint.resumed());
    cursor = {10, 3, 2, 1};
    checkpoint.commit("one\ntwo\n", cursor);
  }
  // Output written after the last checkpoint (a crash between the two writes).
  std::ofstream(directory.path() / "output.jsonl", std::ios::app) << "half a li";
  EXPECT_THROW(BatchCheckpoint(directory.path(), "identity-1", false), InputError);
  EXPECT_THROW(BatchCheckpoint(directory.path(), "identity-2", true), InputError);
  {
    BatchCheckpoint checkpoint(directory.path(), "identity-1", true);
    EXPECT_TRUE(checkpoint.resumed());
    EXPECT_EQ(checkpoint.cursor(), cursor);
    checkpoint.commit("three\n", {20, 5, 3, 1});
    checkpoint.finish(directory.path().parent_path() / "batch-test-output.jsonl");
  }
  const auto output = directory.path().parent_path() / "batch-test-output.jsonl";
  EXPECT_EQ(read_file(output), "one\ntwo\nthree\n");
  EXPECT_FALSE(std::filesystem::exists(directory.path()));
  std::filesystem::remove(output);
}

TEST(BatchCheckpoint, RefusesAnOutputEditedSinceTheCheckpoint) {
  TemporaryDirectory directory{"rastros-batch-test", TemporaryDirectory::Create::no};
  {
    BatchCheckpoint checkpoint(directory.path(), "identity-1", false);
    checkpoint.commit("one\ntwo\n", {10, 3, 2, 1});
  }
  // The same length, one byte changed before the recorded offset.
  std::fstream(directory.path() / "output.jsonl", std::ios::in | std::ios::out).write("ONE", 3);
  EXPECT_THROW(BatchCheckpoint(directory.path(), "identity-1", true), FileError);
  std::fstream(directory.path() / "output.jsonl", std::ios::in | std::ios::out).write("one", 3);
  BatchCheckpoint checkpoint(directory.path(), "identity-1", true);
  EXPECT_TRUE(checkpoint.resumed());
}

TEST(BatchCheckpoint, RefusesAnInputThatCannotBeReadAgain) {
  TemporaryDirectory directory{"rastros-batch-test"};
  const auto fifo = directory.path() / "input";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_THROW(check_resumable_input(fifo), InputError);
  EXPECT_THROW(check_resumable_input("/dev/zero"), InputError);
  std::ofstream(directory.path() / "file") << "c3\n";
  EXPECT_NO_THROW(check_resumable_input(directory.path() / "file"));
}

TEST(BatchCheckpoint, RefusesAnOutputThatIsNotItsOwnFile) {
  // A link or a pipe under the output's name is refused, never followed nor opened.
  TemporaryDirectory directory{"rastros-batch-test"};
  const auto victim =
      directory.path().parent_path() / ("rastros-batch-victim-" + std::to_string(::getpid()));
  std::ofstream(victim) << "untouched";
  std::filesystem::create_symlink(victim, directory.path() / "output.jsonl");
  EXPECT_THROW(BatchCheckpoint(directory.path(), "identity-1", false), FileError);
  EXPECT_EQ(read_file(victim), "untouched");
  std::filesystem::remove(victim);
  std::filesystem::remove(directory.path() / "output.jsonl");
  ASSERT_EQ(::mkfifo((directory.path() / "output.jsonl").c_str(), 0600), 0);
  EXPECT_THROW(BatchCheckpoint(directory.path(), "identity-1", false), FileError);
}

}  // namespace
}  // namespace rastros
