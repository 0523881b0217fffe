// `rastros play --game oware`: a game against perfect play, commands on stdin.

#include <iostream>
#include <sstream>

#include "core/errors.hpp"
#include "games/oware/oware_play.hpp"
#include "options.hpp"
#include "oware/oware_commands.hpp"
#include "oware/oware_endgame_options.hpp"

namespace rastros::tools::oware_cli {

using namespace rastros::oware;

namespace {

std::string player_name(int player) {
  return "player " + std::to_string(player + 1);
}

class Game {
 public:
  explicit Game(OwarePlaySession& session) : session_(session) {}

  int run() {
    say("Oware(" + std::to_string(session_.game().houses()) + "," +
        std::to_string(session_.game().seeds()) + "): you are " + player_name(session_.human()) +
        ". Type a house number (1.." + std::to_string(session_.game().houses()) +
        ", counted from your left), or hint, undo, show, help, quit.");
    show();
    std::string line;
    while (true) {
      while (!session_.is_over() && !session_.humans_turn()) {
        if (!computer()) return kRefused;
      }
      if (session_.is_over()) say(ending());
      std::cout << "> " << std::flush;
      if (!std::getline(std::cin, line)) return 0;
      std::istringstream words(line);
      std::string word;
      if (!(words >> word)) continue;
      if (word == "quit" || word == "exit") return 0;
      if (word == "help") {
        say("A house number plays it; hint: every move's exact score; undo: take back your last "
            "move; show: the board; quit.");
      } else if (word == "show") {
        show();
      } else if (word == "hint") {
        hint();
      } else if (word == "undo") {
        attempt([&] { session_.undo(); show(); });
      } else {
        attempt([&] { session_.play(word); show(); });
      }
    }
  }

 private:
  void say(const std::string& text) { std::cout << text << "\n"; }
  template <class F>
  void attempt(F action) {
    try {
      action();
    } catch (const InputError& error) {
      say("Sorry, " + std::string(error.what()) + ".");
    }
  }
  void show() {
    std::cout << "\n" << board_diagram(session_.game(), session_.position());
    if (!session_.is_over()) {
      say(player_name(session_.position().to_move) + " to move" +
          (session_.humans_turn() ? " (you)." : "."));
    }
  }
  std::string ending() {
    const auto captured = final_captures(session_.game(), session_.position());
    std::string text = "The game is over: player 1 captured " + std::to_string(captured[0]) +
                       ", player 2 " + std::to_string(captured[1]) + ". ";
    if (captured[0] == captured[1]) return text + "A draw. (undo takes back your last move, quit ends)";
    const int winner = captured[0] > captured[1] ? 0 : 1;
    return text + (winner == session_.human() ? "You win." : "The computer wins.") +
           " (undo takes back your last move, quit ends)";
  }
  bool computer() {
    const auto move = session_.computer_move();
    if (!move) {
      say("The position is beyond the endgame database and the search budget: the computer "
          "has no exact move here and stops (give --endgame-seeds or --max-positions).");
      return false;
    }
    say("The computer plays " + move_name(*move) + ".");
    show();
    return true;
  }
  void hint() {
    if (!session_.humans_turn()) {
      say("The game is over: no moves to hint.");
      return;
    }
    const auto analysis = session_.hint();
    if (!analysis) {
      say("No exact hint: the position is beyond the database and the search budget.");
      return;
    }
    say("With perfect play you net " + std::to_string(analysis->score) +
        " more seeds than the other side from here.");
    for (const OwareMoveScore& move : analysis->moves) {
      say("  " + move_name(move.move) + "  " + std::to_string(move.score) +
          (move.score == analysis->score ? "  (best)" : ""));
    }
  }

  OwarePlaySession& session_;
};

}  // namespace

int run_play(const Arguments& arguments) {
  OwareOptions options;
  EndgameOptions endgame;
  int side = 1, threads = 0;
  bool quiet = false;
  po::options_description description("Options");
  add_oware_options(description, options);
  add_endgame_options(description, endgame);
  description.add_options()("side", po::value(&side)->default_value(1), "your side, 1 or 2")(
      "quiet", po::bool_switch(&quiet), "no progress lines on stderr");
  add_threads_option(description, threads);
  if (!parse_command_line(arguments, description,
                          "Usage: rastros play --game oware [options]\n"
                          "A game against perfect play, commands on stdin: a house number, hint, "
                          "undo, show, help, quit. The computer's moves are exact (endgame "
                          "databases or the search beyond them); where neither reaches, it "
                          "stops (exit 4) rather than guess.")) {
    return 0;
  }
  if (side != 1 && side != 2) throw InputError("--side must be 1 or 2");
  const ThreadLimit limit(threads);
  const OwareInput input = resolve_input(options);
  const auto database = database_for_solve(input.game, endgame, quiet);
  OwarePlaySession session(input.game, *database, endgame.max_positions, input.position, side - 1);
  return Game(session).run();
}

}  // namespace rastros::tools::oware_cli
