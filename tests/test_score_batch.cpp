// `rastros batch --game congkak|oware|reversi` (tools/score_batch_command.hpp): each answered
// line is what the game's own solve API gives for that line's position, printed by the printer
// of `solve --json` (nodes and seconds left out, as batch does without --timing); blank lines and
// comments give nothing, bad lines an error object, and the exit status is 2. A batch stopped
// part-way and resumed from its checkpoint writes the bytes of one uninterrupted run.

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "congkak/congkak_options.hpp"
#include "games/congkak/congkak_analysis.hpp"
#include "games/oware/oware_analysis.hpp"
#include "games/reversi/reversi_analysis.hpp"
#include "oware/oware_endgame_options.hpp"
#include "oware/oware_output.hpp"
#include "reversi/reversi_result_json.hpp"
#include "score_batch_games.hpp"
#include "temporary_directory.hpp"

namespace {

using namespace rastros;
using namespace rastros::tools;

std::vector<std::string> read_lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Runs `batch --game GAME` on `lines` with `options`; its exit status and output lines.
struct BatchRun {
  int status = -1;
  std::vector<std::string> output;
};

BatchRun run_batch_on(int (*command)(const Arguments&), const std::vector<std::string>& lines,
                      std::vector<std::string> options) {
  TemporaryDirectory directory("rastros-score-batch");
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  write_file(directory.path() / "in.txt", text);
  Arguments arguments{"--input", (directory.path() / "in.txt").string(), "--output",
                      (directory.path() / "out.jsonl").string(), "--quiet"};
  arguments.insert(arguments.end(), options.begin(), options.end());
  BatchRun run;
  run.status = command(arguments);
  run.output = read_lines(directory.path() / "out.jsonl");
  return run;
}

std::string with_line(Json json, std::uint64_t line) {
  json.prepend("line", line);
  return json.dump();
}

void expect_error(const std::string& output, std::uint64_t line) {
  const std::string prefix = "{\"line\": " + std::to_string(line) + ", \"error\": \"";
  EXPECT_EQ(output.substr(0, prefix.size()), prefix) << output;
}

// Congkak: the line's position solved by a solver of its own, printed as solve --json prints.
std::string congkak_expected(int houses, int seeds, std::optional<std::string> moves,
                             std::optional<std::string> position, std::uint64_t line) {
  const congkak::CongkakInput input =
      congkak::resolve_congkak_input(houses, seeds, moves, position);
  congkak::CongkakSolver solver(input.game, {std::size_t{16} << 20, false, false});
  const congkak::CongkakResult result = solver.solve(input.position);
  const auto view = congkak_cli::congkak_view(input);
  return with_line(mancala_cli::result_json({view, result, false, 0, 0, -1, std::nullopt, false}),
                   line);
}

TEST(ScoreBatch, CongkakLinesAgreeWithSolve) {
  const std::string position =
      mancala::position_string(congkak::Congkak(3, 2).board(),
                               congkak::resolve_congkak_input(3, 2, "2 1", std::nullopt).position);
  const BatchRun run =
      run_batch_on(congkak_cli::run_batch,
                   {"# Congkak(3,2) unless a line says otherwise", "1", "", "--houses 2 --seeds 2",
                    "zz", "--houses=3 --seeds=2 " + position, "--houses 9 --seeds 9", "--frob 1 1",
                    "  # indented comment"},
                   {"--houses", "3", "--seeds", "2", "--memory", "16M", "--endgame-seeds",
                    "-1"});  // the solver below has none
  EXPECT_EQ(run.status, 2);
  ASSERT_EQ(run.output.size(), 6u);
  EXPECT_EQ(run.output[0], congkak_expected(3, 2, "1", std::nullopt, 2));
  EXPECT_EQ(run.output[1], congkak_expected(2, 2, "", std::nullopt, 4));
  expect_error(run.output[2], 5);
  EXPECT_EQ(run.output[3], congkak_expected(3, 2, std::nullopt, position, 6));
  expect_error(run.output[4], 7);
  expect_error(run.output[5], 8);
}

// Reversi: a legal move of the start, found by trying every square (no move generator here).
std::string first_legal(const std::string& before) {
  for (char column = 'a'; column <= 'd'; ++column) {
    for (char row = '1'; row <= '4'; ++row) {
      const std::string moves = before + (before.empty() ? "" : " ") + column + row;
      try {
        reversi::resolve_reversi_input("4x4", moves, std::nullopt);
        return moves;
      } catch (const InputError&) {
      }
    }
  }
  return before;
}

std::string reversi_expected(std::optional<std::string> moves, std::optional<std::string> position,
                             std::uint64_t line) {
  const reversi::ReversiInput input = reversi::resolve_reversi_input("4x4", moves, position);
  reversi::ReversiSolver solver(input.game, {std::size_t{16} << 20});
  const reversi::ReversiResult result =
      reversi::solve_position(solver, input.game, input.position, {false, false});
  return with_line(reversi_cli::result_json({input, result, false, 0, 0, false}), line);
}

TEST(ScoreBatch, ReversiLinesAgreeWithSolve) {
  const std::string one = first_legal("");
  const std::string two = first_legal(one);
  const reversi::ReversiInput after = reversi::resolve_reversi_input("4x4", two, std::nullopt);
  const std::string position = reversi::position_string(after.game, after.position);
  const BatchRun run = run_batch_on(
      reversi_cli::run_batch, {"# 4x4", "--board 4x4", one, "", position, "--board 5x5 a1", "z9"},
      {"--board", "4x4", "--memory", "16M"});
  EXPECT_EQ(run.status, 2);
  ASSERT_EQ(run.output.size(), 5u);
  EXPECT_EQ(run.output[0], reversi_expected("", std::nullopt, 2));
  EXPECT_EQ(run.output[1], reversi_expected(one, std::nullopt, 3));
  EXPECT_EQ(run.output[2], reversi_expected(std::nullopt, position, 5));
  expect_error(run.output[3], 6);
  expect_error(run.output[4], 7);
}

// Oware: the line's position analysed on a database built as solve builds it.
std::string oware_expected(int houses, int seeds, std::optional<std::string> moves,
                           std::optional<std::string> position, std::uint64_t line,
                           oware_cli::EndgameOptions endgame = {}) {
  const oware::OwareInput input = oware::resolve_oware_input(houses, seeds, moves, position);
  const auto database = oware_cli::database_for_solve(input.game, endgame, true);
  const auto analysis =
      oware::analyse(input.game, *database, oware::search_state(input.game, input.position),
                     endgame.max_positions);
  if (!analysis) return "refused";
  return with_line(oware_cli::report_json({input, *analysis, database->max_seeds()}), line);
}

TEST(ScoreBatch, OwareLinesAgreeWithSolve) {
  const BatchRun run = run_batch_on(oware_cli::run_batch,
                                    {"# Oware(3,2)", "1", "", "--houses 2 --seeds 1", "zz",
                                     "--houses 3 --seeds 2 1,0,0,5/0,1,0,5 1", "--houses 0"},
                                    {"--houses", "3", "--seeds", "2"});
  EXPECT_EQ(run.status, 2);
  ASSERT_EQ(run.output.size(), 5u);
  EXPECT_EQ(run.output[0], oware_expected(3, 2, "1", std::nullopt, 2));
  EXPECT_EQ(run.output[1], oware_expected(2, 1, "", std::nullopt, 4));
  expect_error(run.output[2], 5);
  EXPECT_EQ(run.output[3], oware_expected(3, 2, std::nullopt, "1,0,0,5/0,1,0,5 1", 6));
  expect_error(run.output[4], 7);
}

// A line the database and --max-positions cannot answer is an error object (solve exits 4),
// and the lines after it are answered.
TEST(ScoreBatch, OwareLineBeyondTheDatabaseIsAnErrorLine) {
  oware_cli::EndgameOptions endgame;
  endgame.seeds = 2;
  endgame.max_positions = 0;
  ASSERT_EQ(oware_expected(3, 2, "1", std::nullopt, 1, endgame), "refused");
  const BatchRun run = run_batch_on(
      oware_cli::run_batch, {"1", "1,0,0,5/0,1,0,5 1"},
      {"--houses", "3", "--seeds", "2", "--endgame-seeds", "2", "--max-positions", "0"});
  EXPECT_EQ(run.status, 2);
  ASSERT_EQ(run.output.size(), 2u);
  expect_error(run.output[0], 1);
  EXPECT_NE(run.output[0].find("no exact answer"), std::string::npos) << run.output[0];
  EXPECT_EQ(run.output[1], oware_expected(3, 2, std::nullopt, "1,0,0,5/0,1,0,5 1", 2, endgame));
}

// Stopped after two lines (as Ctrl-C stops it: after the chunk being solved) and resumed from
// its checkpoint, a Congkak batch writes the bytes of one run straight through.
TEST(ScoreBatch, CongkakStoppedAndResumedGivesTheSameOutput) {
  TemporaryDirectory directory("rastros-score-batch-resume");
  const auto input = directory.path() / "in.txt";
  write_file(input, "1\n2\n# comment\n3\nzz\n1 1\n\n2 3\n3 1\n");
  congkak_cli::CongkakBatchSettings settings;
  settings.houses = 3;
  settings.seeds = 2;
  settings.table_bytes = std::size_t{16} << 20;
  const std::string identity = "test";
  const std::atomic<bool> never{false};

  ScoreBatchFiles whole;
  whole.input = input.string();
  whole.output = (directory.path() / "whole.jsonl").string();
  whole.quiet = true;
  EXPECT_EQ(run_score_batch(whole, identity, congkak_cli::batch_answer(settings), never), 2);

  ScoreBatchFiles part = whole;
  part.output = (directory.path() / "resumed.jsonl").string();
  part.checkpoint = (directory.path() / "checkpoint").string();
  std::atomic<bool> stop{false};
  int answered = 0;
  const ScoreBatchAnswer inner = congkak_cli::batch_answer(settings);
  const ScoreBatchAnswer stopping = [&](std::string_view text, std::uint64_t number, bool& bad) {
    auto line = inner(text, number, bad);
    if (line && ++answered == 2) stop = true;
    return line;
  };
  EXPECT_GE(run_score_batch(part, identity, stopping, stop), 128);
  EXPECT_FALSE(std::filesystem::exists(*part.output));
  const auto saved = read_lines(directory.path() / "checkpoint" / "output.jsonl");
  EXPECT_EQ(saved.size(), 2u);

  part.resume = true;
  EXPECT_EQ(run_score_batch(part, identity, congkak_cli::batch_answer(settings), never), 2);
  EXPECT_EQ(read_file(*part.output), read_file(*whole.output));
  EXPECT_EQ(read_lines(*whole.output).size(), 7u);
  EXPECT_FALSE(std::filesystem::exists(directory.path() / "checkpoint" / "batch.checkpoint"));
}

}  // namespace
