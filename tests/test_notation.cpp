// Notation: boards, squares, games and position strings. Printing then parsing is exact, and
// every malformed input throws InputError with a message naming what is wrong.

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/errors.hpp"
#include "rastros/notation.hpp"

namespace rastros {
namespace {

// Runs `parse`, expects InputError, and expects its message to contain every fragment.
void expect_input_error(const std::function<void()>& parse,
                        const std::vector<std::string>& fragments, const std::string& what) {
  try {
    parse();
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << "not one line: " << message;
    for (const std::string& fragment : fragments) {
      EXPECT_NE(message.find(fragment), std::string::npos)
          << what << ": message '" << message << "' does not mention '" << fragment << "'";
    }
    return;
  } catch (const std::exception& error) {
    ADD_FAILURE() << what << ": threw a non-InputError: " << error.what();
    return;
  }
  ADD_FAILURE() << what << ": no InputError thrown";
}

void expect_bad_square(const Board& board, const std::string& text,
                       const std::vector<std::string>& fragments) {
  expect_input_error([&] { parse_square(board, text); }, fragments, "square '" + text + "'");
}

void expect_bad_game(const Rastros& game, const std::string& text,
                     const std::vector<std::string>& fragments) {
  expect_input_error([&] { parse_game(game, text); }, fragments, "game '" + text + "'");
}

void expect_bad_position(const Board& board, const std::string& text,
                         const std::vector<std::string>& fragments) {
  expect_input_error([&] { parse_position(board, text); }, fragments, "position '" + text + "'");
}

TEST(Notation, Boards) {
  EXPECT_EQ(parse_board("7x7"), Board(7, 7));
  EXPECT_EQ(parse_board("5x3"), Board(5, 3));
  EXPECT_EQ(parse_board("2x32"), Board(2, 32));
  EXPECT_EQ(parse_board("4x4", StepSet::orthogonal), Board(4, 4, StepSet::orthogonal));
  for (const char* bad : {"", "7", "x7", "7x", "7*7", "7x7x", "ax7", "7x7 ", " 7x7", "-7x7"}) {
    expect_input_error([&] { parse_board(bad); }, {"board"}, std::string("board '") + bad + "'");
  }
  expect_input_error([] { parse_board("9x8"); }, {"9x8", "64"}, "9x8");
  expect_input_error([] { parse_board("1x5"); }, {"1x5"}, "1x5");
  expect_input_error([] { parse_board("1x1"); }, {"1x1"}, "1x1");
  expect_input_error([] { parse_board("32x2"); }, {"32x2", "26"}, "32x2");
  expect_input_error([] { parse_board("100000x100000"); }, {"board"}, "huge");
}

TEST(Notation, StepsAndRules) {
  EXPECT_EQ(parse_steps("king"), StepSet::king);
  EXPECT_EQ(parse_steps("orthogonal"), StepSet::orthogonal);
  EXPECT_EQ(parse_rules("standard"), StuckRule::loses);
  EXPECT_EQ(parse_rules("stuck-draw"), StuckRule::draws);
  for (StepSet steps : {StepSet::king, StepSet::orthogonal}) {
    EXPECT_EQ(parse_steps(steps_name(steps)), steps);
  }
  for (StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
    EXPECT_EQ(parse_rules(rules_name(rule)), rule);
  }
  expect_input_error([] { parse_steps("diagonal"); }, {"diagonal", "step"}, "steps");
  expect_input_error([] { parse_steps(""); }, {"step"}, "empty steps");
  expect_input_error([] { parse_rules("sudden-death"); }, {"sudden-death", "rules"}, "rules");
  expect_input_error([] { parse_rules("Standard"); }, {"rules"}, "rules case");
}

TEST(Notation, SquaresRoundTrip) {
  const Board board(7, 7);
  EXPECT_EQ(parse_square(board, "a1"), 0);
  EXPECT_EQ(parse_square(board, "d4"), 24);
  EXPECT_EQ(parse_square(board, "g7"), 48);
  EXPECT_EQ(square_name(board, 24), "d4");
  EXPECT_EQ(square_name(board, 48), "g7");
  EXPECT_EQ(square_name(Board(26, 2), 51), "z2");
  EXPECT_EQ(square_name(Board(2, 32), 63), "b32");
  EXPECT_EQ(parse_square(Board(2, 32), "a10"), 18);
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{7, 7}, {5, 3}, {26, 2}, {2, 32}}) {
    const Board b(w, h);
    for (Square s = 0; s < b.square_count(); ++s) {
      const std::string name = square_name(b, s);
      // File letter then rank number, computed independently.
      std::string expected = std::to_string(s / w + 1);
      expected.insert(expected.begin(), static_cast<char>('a' + s % w));
      EXPECT_EQ(name, expected);
      EXPECT_EQ(parse_square(b, name), s);
    }
  }
}

TEST(Notation, BadSquares) {
  const Board board(7, 7);
  for (const char* off : {"h1", "a8", "z9", "g8", "h7"}) {
    expect_bad_square(board, off, {off, "off", "7x7"});
  }
  for (const char* malformed :
       {"", "d", "4", "4d", "D4", "d0", "d-1", "dd", "d4x", "d 4", " d4", "d4 ", "d+4", "\3514"}) {
    expect_bad_square(board, malformed, {"square"});
  }
  expect_bad_square(board, "4d", {"malformed", "4d"});
}

TEST(Notation, Games) {
  const Rastros game(Board(7, 7));
  const PlayedGame played = parse_game(game, "c3 b2 c1");
  EXPECT_EQ(played.moves, (std::vector<Square>{16, 8, 2}));
  EXPECT_EQ(played.position.snail, 2);
  EXPECT_EQ(played.position.to_move, Player::two);
  EXPECT_EQ(game_text(game.board(), played.moves), "c3 b2 c1");
  EXPECT_EQ(position_string(game.board(), parse_game(game, "c3").position),
            "7/7/7/3x3/2o4/7/7 2");  // docs/rules.md
  EXPECT_EQ(position_string(game.board(), parse_game(game, "c3 b2").position),
            "7/7/7/3x3/2x4/1o5/7 1");  // position.hpp
  // Extra blanks are harmless; no moves is the start.
  EXPECT_EQ(parse_game(game, "  c3   b2 ").moves, (std::vector<Square>{16, 8}));
  EXPECT_EQ(parse_game(game, "").position, game.start_position());
  EXPECT_TRUE(parse_game(game, "").moves.empty());
  EXPECT_EQ(game_text(game.board(), {}), "");
  // A game may end in either goal; the last move is kept.
  EXPECT_EQ(parse_game(game, "c3 b2 a1").moves.size(), 3u);
  EXPECT_TRUE(game.has_ended(parse_game(game, "c3 b2 a1").position));
}

TEST(Notation, BadGames) {
  const Rastros game(Board(7, 7));
  expect_bad_game(game, "c3 z9", {"z9", "off"});
  expect_bad_game(game, "c3 3c", {"3c", "malformed"});
  expect_bad_game(game, "c3 e5", {"e5", "not a step", "c3", "move 2"});
  expect_bad_game(game, "a1", {"a1", "not a step", "d4", "move 1"});
  expect_bad_game(game, "c3 c3", {"c3", "not a step"});
  expect_bad_game(game, "c3 d4", {"d4", "slime", "move 2"});
  expect_bad_game(game, "c3 b2 c3", {"c3", "slime", "move 3"});
  expect_bad_game(game, "c3 b2 a1 b1", {"b1", "ended", "move 4"});
  expect_bad_game(game, "e5 f6 g7 f7", {"f7", "ended"});
  // Orthogonal steps: a diagonal is not a step.
  expect_bad_game(Rastros(Board(7, 7, StepSet::orthogonal)), "c3", {"c3", "not a step"});
}

TEST(Notation, PositionStrings) {
  const Board board(7, 7);
  const Rastros game(board);
  EXPECT_EQ(position_string(board, game.start_position()), "7/7/7/3o3/7/7/7 1");
  EXPECT_EQ(parse_position(board, "7/7/7/3o3/7/7/7 1"), game.start_position());
  EXPECT_EQ(parse_position(board, "7/7/7/3x3/2o4/7/7 2"), parse_game(game, "c3").position);
  // Runs of more than 9 squares are written with several digits.
  const Board wide(12, 2);
  const Rastros wide_game(wide);
  EXPECT_EQ(position_string(wide, wide_game.start_position()), "6o5/12 1");
  EXPECT_EQ(parse_position(wide, "6o5/12 1"), wide_game.start_position());
  // A fully slimed rank and an unfinished board.
  // Slime written square by square, runs only for empty squares.
  const Position sparse{bit(0) | bit(8), 4, Player::two};
  EXPECT_EQ(position_string(Board(3, 3), sparse), "xx1/xox/1xx 2");
  EXPECT_EQ(parse_position(Board(3, 3), "xx1/xox/1xx 2"), sparse);
}

// A game that ended in a goal prints the snail there, and that position string reads back as
// the same ended game, for both goals.
TEST(Notation, FinishedGamesRoundTrip) {
  const Rastros game(Board(7, 7));
  for (const auto& [moves, text, winner] :
       {std::tuple{"c3 b2 a1", "7/7/7/3x3/2x4/1x5/o6 2", Player::one},
        std::tuple{"e5 f6 g7", "6o/5x1/4x2/3x3/7/7/7 2", Player::two},
        std::tuple{"c3 b2 c1 b1 a1", "7/7/7/3x3/2x4/1x5/oxx4 2", Player::one}}) {
    const Position played = parse_game(game, moves).position;
    EXPECT_EQ(position_string(game.board(), played), text) << moves;
    const Position parsed = parse_position(game.board(), text);
    EXPECT_EQ(parsed, played) << text;
    EXPECT_TRUE(game.has_ended(parsed)) << text;
    EXPECT_EQ(game.winner(parsed), winner) << text;
    EXPECT_EQ(game.terminal_value(parsed), game.terminal_value(played)) << text;
  }
}

// Random games on random boards: printing then parsing gives back exactly the same thing.
TEST(Notation, RandomRoundTrips) {
  std::mt19937_64 random(31337);
  int checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    int w = 0;
    int h = 0;
    do {
      w = 2 + static_cast<int>(random() % 25);
      h = 2 + static_cast<int>(random() % 31);
    } while (w * h > 64);
    const Board board(w, h, random() % 2 ? StepSet::king : StepSet::orthogonal);
    Square start = 0;
    do {
      start = static_cast<Square>(random() % board.square_count());
    } while (board.is_goal(start));
    const Rastros game(board, start, random() % 2 ? StuckRule::loses : StuckRule::draws);
    Position position = game.start_position();
    std::vector<Square> moves;
    const int length = static_cast<int>(random() % 40);
    while (!game.has_ended(position) && static_cast<int>(moves.size()) < length) {
      std::vector<Square> legal;
      for (Square s : game.legal_moves(position)) legal.push_back(s);
      const Square move = legal[random() % legal.size()];
      moves.push_back(move);
      position = game.play(position, move);

      const std::string text = game_text(board, moves);
      const PlayedGame replayed = parse_game(game, text);
      EXPECT_EQ(replayed.moves, moves) << board.name() << " " << text;
      EXPECT_EQ(replayed.position, position) << board.name() << " " << text;
      // Ended games too: a snail on a goal is written and read like any other square.
      const std::string fen = position_string(board, position);
      EXPECT_EQ(parse_position(board, fen), position) << board.name() << " " << fen;
      EXPECT_EQ(position_string(board, parse_position(board, fen)), fen);
      // A position a game reached passes the checks that refuse impossible positions.
      EXPECT_EQ(parse_reachable_position(game, fen), position) << board.name() << " " << fen;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(Notation, BadPositions) {
  const Board board(7, 7);
  expect_bad_position(board, "7/7/7/7/7/7/7 1", {"no snail"});
  expect_bad_position(board, "7/7/7/3o3/7/1o5/7 1", {"2 snails"});
  expect_bad_position(board, "7/7/7/3o2/7/7/7 1", {"rank 4", "6", "7"});
  expect_bad_position(board, "7/7/7/3o4/7/7/7 1", {"rank 4", "8"});
  expect_bad_position(board, "7/7/7/3o3x/7/7/7 1", {"rank 4", "8"});
  expect_bad_position(board, "7/7/7/3o3/7/7/7/7 1", {"more than 7 ranks"});
  expect_bad_position(board, "7/7/3o3/7/7/7 1", {"6 ranks", "expected 7"});
  expect_bad_position(board, "3o3 1", {"ranks"});
  expect_bad_position(board, "7/7/7/3o3/7/7/7 3", {"side to move", "'3'"});
  expect_bad_position(board, "7/7/7/3o3/7/7/7 x", {"side to move"});
  expect_bad_position(board, "7/7/7/3o3/7/7/7 ", {"side to move"});
  expect_bad_position(board, "7/7/7/3o3/7/7/7  1", {"side to move"});
  expect_bad_position(board, "7/7/7/3o3/7/7/7", {"side to move"});
  expect_bad_position(board, "6x/7/7/3o3/7/7/7 1", {"slime on the goal g7"});
  expect_bad_position(board, "7/7/7/3x3/2x4/1xo4/x6 2", {"slime on the goal a1"});
  expect_bad_position(board, "7/7/7/3q3/7/7/7 1", {"'q'"});
  expect_bad_position(board, "7/7/7/3O3/7/7/7 1", {"'O'"});
  expect_bad_position(board, "7/7/7/03o3/7/7/7 1", {"'0'"});
  expect_bad_position(board, "", {"side to move"});
  expect_bad_position(board, " 1", {"rank 7"});
  expect_bad_position(board, "7//7/3o3/7/7/7 1", {"rank 6", "0"});
  expect_bad_position(board, "7/7/7/3o99999999/7/7/7 1", {"rank 4"});
}

// Input quoted in a message is escaped: a newline or another control byte in it never breaks
// the one-line message (the README's contract), and the message still shows what was typed.
TEST(Notation, MessagesQuoteInputOnOneLine) {
  EXPECT_EQ(escape_control("a\nb\tc\x7f\x01"), "a\\nb\\x09c\\x7f\\x01");
  EXPECT_EQ(escape_control("d4 '\\' \xc3\xa9"), "d4 '\\' \xc3\xa9");  // the rest is kept
  EXPECT_EQ(quote_input("7x7"), "'7x7'");
  EXPECT_EQ(quote_input("abcdef", 3), "'abc...'");
  EXPECT_EQ(quote_input("a\nbcdef", 3), "'a\\nb...'");
  const Board board(7, 7);
  expect_input_error([] { parse_board("7\nx7"); }, {"malformed board '7\\nx7'"}, "board");
  expect_input_error([] { parse_steps("king\r"); }, {"'king\\x0d'"}, "steps");
  expect_input_error([] { parse_rules("bo\x01gus"); }, {"'bo\\x01gus'"}, "rules");
  expect_bad_square(board, "d\n4", {"malformed square 'd\\n4'"});
  expect_bad_game(Rastros(board), "c3 b2\x1b", {"malformed square 'b2\\x1b'"});
  expect_bad_position(board, "7/7/7/3o3/7/7/7\n1", {"position '7/7/7/3o3/7/7/7\\n1'"});
  expect_bad_position(board, "7/7/7/3o3/7/7/7 \n", {"side to move '\\n'"});
  expect_bad_position(board,
                      "7/7/7/3o\x7f"
                      "3/7/7/7 1",
                      {"unexpected character '\\x7f'"});
}

void expect_unreachable(const Rastros& game, const std::string& text,
                        const std::vector<std::string>& fragments) {
  EXPECT_NO_THROW(parse_position(game.board(), text)) << text << " is well formed";
  expect_input_error([&] { parse_reachable_position(game, text); }, fragments,
                     "position '" + text + "'");
}

// Positions no game from the start reaches are refused, each rule with its own message.
TEST(Notation, ImpossiblePositions) {
  const Board board(7, 7);
  const Rastros game(board);
  for (const char* text : {"7/7/7/3o3/7/7/7 1", "7/7/7/3x3/2o4/7/7 2", "7/7/7/3x3/2x4/1o5/7 1",
                           "7/7/7/3x3/2x4/1x5/o6 2", "6o/5x1/4x2/3x3/7/7/7 2"}) {
    EXPECT_EQ(position_string(board, parse_reachable_position(game, text)), text);
  }
  // 1. The side to move follows from the number of slimed squares.
  expect_unreachable(game, "7/7/7/3o3/7/7/7 2",
                     {"0 slimed squares, so player 1 is to move, not player 2"});
  expect_unreachable(game, "7/7/7/3x3/2o4/7/7 1",
                     {"1 slimed square, so player 2 is to move, not player 1"});
  expect_unreachable(game, "7/7/7/3x3/2x4/1x5/o6 1", {"3 slimed squares", "not player 1"});
  // 2. The start square: the snail's, or slimed. (StartSquareError: resolve_input, which knows
  // whether the start was given, adds the advice to give --start; test_batch.cpp.)
  EXPECT_THROW(parse_reachable_position(game, "7/7/7/7/2o4/7/7 1"), StartSquareError);
  expect_unreachable(game, "7/7/7/7/2o4/7/7 1", {"no slime", "the start square d4, not c3"});
  expect_unreachable(game, "7/7/7/7/2x4/1o5/7 2", {"has slime, but not on the start square d4"});
  // ... which --start moves.
  const Rastros from_c3(board, parse_square(board, "c3"));
  EXPECT_NO_THROW(parse_reachable_position(from_c3, "7/7/7/7/2o4/7/7 1"));
  EXPECT_NO_THROW(parse_reachable_position(from_c3, "7/7/7/7/2x4/1o5/7 2"));
  expect_unreachable(from_c3, "7/7/7/3o3/7/7/7 1", {"start square c3, not d4"});
  // 3. One trail: slime and snail joined by steps.
  expect_unreachable(game, "x6/7/7/3x3/2o4/7/7 1",
                     {"slime on a7 not joined to the snail's trail", "king steps"});
  expect_unreachable(game, "7/7/7/3xx1x/2o4/7/7 2", {"slime on g4 not joined"});
  const Rastros orthogonal(Board(7, 7, StepSet::orthogonal));
  EXPECT_NO_THROW(parse_reachable_position(orthogonal, "7/7/7/3x3/3o3/7/7 2"));
  expect_unreachable(orthogonal, "7/7/7/3x3/2o4/7/7 2",
                     {"slime on d4 not joined", "orthogonal steps"});
  // Well formed first: a malformed string gets the parser's message.
  expect_input_error([&] { parse_reachable_position(game, "7/7/7/3o3/7/7/7"); },
                     {"no side to move"}, "no side");
}

TEST(Notation, StartOnAGoal) {
  expect_input_error([] { Rastros(Board(7, 7), Square{0}); }, {"a1", "goal"}, "a1");
  expect_input_error([] { Rastros(Board(7, 7), Square{48}); }, {"g7", "goal"}, "g7");
  expect_input_error([] { Rastros(Board(2, 2)); }, {"b2", "goal"}, "2x2 default");
}

// A position string needs no start: on 2x2 the default start b2 is a goal, and a variant read
// for positions without --start has none. The start rule is then skipped, the other two kept;
// games still need a start.
TEST(Notation, PositionsOn2x2WithoutAStart) {
  const Board board(2, 2);
  const Rastros positions = Rastros::for_positions(board);
  EXPECT_FALSE(positions.has_start());
  EXPECT_EQ(start_name(positions), "none");
  EXPECT_TRUE(Rastros(board, parse_square(board, "a2")).has_start());
  EXPECT_EQ(start_name(Rastros::for_positions(board, parse_square(board, "a2"))), "a2");
  EXPECT_EQ(parse_reachable_position(positions, "o1/2 1"),
            (Position{bit(0) | bit(1) | bit(3), 2, Player::one}));
  EXPECT_NO_THROW(parse_reachable_position(positions, "x1/1o 2"));
  EXPECT_NO_THROW(parse_reachable_position(positions, "xo/2 2"));  // a2 b2: the game ended in b2
  expect_unreachable(positions, "x1/1o 1", {"1 slimed square", "player 2 is to move"});
  // Whatever the start, it is not a goal, so a snail that has not moved is not on one.
  expect_unreachable(positions, "1o/2 1", {"no slime", "start square", "not the goal b2"});
  expect_input_error([&] { parse_reachable_position(positions, "2/xo 2"); },
                     {"slime on the goal a1"}, "slime on a goal");
  // With a start, the start rule holds again.
  const Rastros from_a2 = Rastros::for_positions(board, parse_square(board, "a2"));
  expect_unreachable(from_a2, "2/1o 1", {"the start square a2, not b1"});
  expect_unreachable(from_a2, "o1/1x 2", {"not on the start square a2"});
  // A given start on a goal is refused as ever; a game needs a start.
  expect_input_error([&] { Rastros::for_positions(board, parse_square(board, "a1")); },
                     {"start square a1 is a goal corner"}, "2x2 --start a1");
  expect_input_error([&] { parse_game(positions, ""); },
                     {"the default start square b2 is a goal corner; choose another with --start"},
                     "2x2 game without a start");
  expect_input_error([&] { positions.start_position(); }, {"b2", "goal"}, "2x2 start position");
  EXPECT_EQ(game_identity(positions), "2x2 king standard start none");
}

}  // namespace
}  // namespace rastros
