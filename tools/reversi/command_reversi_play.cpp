// `rastros play --game reversi`: a game against the program, commands on stdin. The program
// plays perfectly within reach of the exact solver and says, for each move, whether it was
// exact or an estimate (solver/games/reversi/reversi_play.hpp).

#include <iostream>

#include "core/errors.hpp"
#include "games/reversi/reversi_play.hpp"
#include "options.hpp"
#include "play_loop.hpp"
#include "progress.hpp"
#include "reversi/reversi_commands.hpp"
#include "reversi/reversi_options.hpp"

namespace rastros::tools::reversi_cli {

using namespace rastros::reversi;

namespace {

std::string signed_text(int value) {
  std::string text(value > 0 ? "+" : "");
  text.append(std::to_string(value));
  return text;
}

std::string advice_text(const ReversiAdvice& advice) {
  if (advice.exact) return "exact: " + signed_text(advice.score);
  return "estimate (depth " + std::to_string(advice.depth) +
         ", evaluation): " + signed_text(advice.score);
}

std::array<bool, 2> parse_humans(const std::string& text) {
  if (text == "black") return {true, false};
  if (text == "white") return {false, true};
  if (text == "both") return {true, true};
  if (text == "none") return {false, false};
  throw InputError("--human takes black, white, both or none, not " + quote_input(text, 20));
}

/// The hooks of run_command_loop for a Reversi session.
class Table {
 public:
  Table(ReversiPlaySession& session, bool quiet) : session_(session), quiet_(quiet) {}

  void introduce() {
    const int n = session_.game().size();
    std::string you = session_.is_human(0) && session_.is_human(1) ? "you play both colours"
                      : session_.is_human(0)                       ? "you play " + side_name(0)
                      : session_.is_human(1)                       ? "you play " + side_name(1)
                                             : "the program plays both colours";
    say("Reversi " + std::to_string(n) + "x" + std::to_string(n) + ": " + you +
        ". Type a square (a1.." + std::string(1, static_cast<char>('a' + n - 1)) +
        std::to_string(n) + "), or pass, hint, undo, show, help, quit. Exact play within " +
        std::to_string(session_.advisor().exact_empties()) + " empty squares.");
    show();
  }

  bool is_over() const { return session_.is_over(); }
  bool humans_turn() const { return session_.humans_turn(); }
  std::string help_text() const {
    return "A square plays it (pass when you have no move); hint: the best move, and every "
           "move's exact score near the end; undo: take back your last move; show: the board; "
           "quit.";
  }

  void show() {
    std::cout << "\n" << board_diagram({session_.game(), {}, session_.position()});
    if (!session_.is_over()) {
      const int mover = session_.position().to_move;
      say(side_name(mover) + " to move" + (session_.humans_turn() ? " (you)." : "."));
    }
  }

  std::string ending() const {
    const ReversiPosition& position = session_.position();
    const int black = reversi::count(position.black), white = reversi::count(position.white);
    std::string text =
        "The game is over: X " + std::to_string(black) + ", O " + std::to_string(white) + ". ";
    if (black == white) return text + "A draw. (undo takes back your last move, quit ends)";
    const int winner = black > white ? 0 : 1;
    const bool people = session_.is_human(0) != session_.is_human(1);
    return text + side_name(winner) + " wins" +
           (people ? (session_.is_human(winner) ? " (you)." : " (the program).") : ".") +
           " (undo takes back your last move, quit ends)";
  }

  void computer() {
    if (!quiet_) std::cerr << "(thinking...)\n";
    const auto [move, advice] = session_.computer_move();
    say("The program plays " + move_name(move) + " (" + advice_text(advice) + ").");
    show();
  }

  void play(const std::string& word) {
    try {
      session_.play(word);
      show();
    } catch (const InputError& error) {
      say("Sorry, " + std::string(error.what()) + ".");
    }
  }

  void hint() {
    if (session_.is_over()) {
      say("The game is over: no moves to hint.");
      return;
    }
    const ReversiAdvice advice = session_.hint();
    if (!advice.exact) {
      say("Best move " + move_name(advice.best) + " (" + advice_text(advice) +
          "; evaluation units, not discs).");
      return;
    }
    say("With perfect play the mover ends " + signed_text(advice.score) +
        " (discs minus the other's, empty squares to the winner).");
    for (const auto& [move, score] : advice.moves) {
      say("  " + move_name(move) + "  " + signed_text(score) +
          (score == advice.score ? "  (best)" : ""));
    }
  }

  void undo() {
    try {
      const auto taken = session_.undo();
      say("Took back " + moves_text(taken) + ".");
      show();
    } catch (const InputError& error) {
      say("Sorry, " + std::string(error.what()) + ".");
    }
  }

 private:
  void say(const std::string& text) { std::cout << text << "\n"; }

  ReversiPlaySession& session_;
  bool quiet_;
};

}  // namespace

int run_play(const Arguments& arguments) {
  ReversiOptions options;
  ReversiPlayOptions play;
  std::string human = "black";
  std::string memory = "64M";
  int threads = 0;
  bool quiet = false;
  po::options_description description("Options");
  add_reversi_options(description, options);
  description.add_options()("human", po::value(&human)->default_value(human),
                            "who a person plays: black (moves first), white, both or none")(
      "exact-empties", po::value(&play.exact_empties),
      "play exactly with at most this many empty squares (default: 16 on 4x4, 20 on 6x6, 18 "
      "on 8x8)")("depth", po::value(&play.depth)->default_value(play.depth),
                 "plies of the evaluation search before that, 1 to 12")(
      "memory", po::value(&memory)->default_value(memory), "transposition table size")(
      "quiet", po::bool_switch(&quiet), "no \"thinking\" line on stderr");
  add_threads_option(description, threads);
  if (!parse_command_line(arguments, description,
                          "Usage: rastros play --game reversi [--board 8x8] [--human black|white|"
                          "both|none] [--moves M | --position P]\nA game of Reversi against the "
                          "program. Commands are read from stdin: a square plays it;\npass, hint, "
                          "undo, show, help, quit. End of input ends the game.")) {
    return 0;
  }
  const std::array<bool, 2> humans = parse_humans(human);
  check_play_options(play);
  const ReversiInput input = resolve_input(options);
  const std::size_t table_bytes = parse_memory_size(memory);
  const ThreadLimit limit(threads);
  ReversiPlaySession session(input, humans, play, table_bytes);
  Table table(session, quiet);
  table.introduce();
  run_command_loop(table);
  return 0;
}

}  // namespace rastros::tools::reversi_cli
