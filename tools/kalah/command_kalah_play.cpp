// `rastros play --game kalah`: a game against perfect play, commands on stdin.

#include <iostream>
#include <sstream>

#include "core/errors.hpp"
#include "games/kalah/kalah_play.hpp"
#include "kalah/kalah_commands.hpp"
#include "kalah/kalah_endgame_options.hpp"
#include "kalah/kalah_options.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace rastros::tools::kalah_cli {

using namespace rastros::kalah;

namespace {

// Built piece by piece: `"+" + std::to_string` trips GCC 12's false -Wrestrict (bug 105651).
std::string score_text(int score) {
  std::string text(score > 0 ? "+" : "");
  text.append(std::to_string(score));
  return text;
}

class Game {
 public:
  Game(KalahPlaySession& session, bool quiet) : session_(session), quiet_(quiet) {}

  void run() {
    say("Kalah(" + std::to_string(session_.game().houses()) + "," +
        std::to_string(session_.game().seeds()) + "): you are " + player_name(session_.human()) +
        ". Type a house number (1.." + std::to_string(session_.game().houses()) +
        ", counted from your left), or hint, undo, show, help, quit.");
    show();
    std::string line;
    while (true) {
      while (!session_.is_over() && !session_.humans_turn()) computer();
      if (session_.is_over()) {
        say(ending());
      }
      std::cout << "> " << std::flush;
      if (!std::getline(std::cin, line)) break;
      std::istringstream words(line);
      std::string word;
      if (!(words >> word)) continue;
      if (word == "quit" || word == "exit") break;
      if (word == "help") {
        say("A house number plays it; hint: every move's exact score; undo: take back your last "
            "move; show: the board; quit.");
      } else if (word == "show") {
        show();
      } else if (word == "hint") {
        hint();
      } else if (word == "undo") {
        undo();
      } else {
        try {
          session_.play(word);
          show();
        } catch (const InputError& error) {
          say("Sorry, " + std::string(error.what()) + ".");
        }
      }
    }
  }

 private:
  void say(const std::string& text) { std::cout << text << "\n"; }

  void show() {
    std::cout << "\n" << board_diagram(session_.game(), session_.position());
    if (!session_.is_over()) {
      say(player_name(session_.position().to_move) + " to move" +
          (session_.humans_turn() ? " (you)." : "."));
    }
  }

  std::string ending() {
    const auto stores = final_stores(session_.game(), session_.position());
    std::string text = "The game is over: player 1 " + std::to_string(stores[0]) + ", player 2 " +
                       std::to_string(stores[1]) + ". ";
    if (stores[0] == stores[1]) return text + "A draw. (undo takes back your last move, quit ends)";
    const int winner = stores[0] > stores[1] ? 0 : 1;
    return text + (winner == session_.human() ? "You win." : "The computer wins.") +
           " (undo takes back your last move, quit ends)";
  }

  void computer() {
    if (!quiet_) std::cerr << "(thinking...)\n";
    const KalahMove move = session_.computer_move();
    say("The computer plays " + move_name(move) + ".");
    show();
  }

  void hint() {
    if (!session_.humans_turn()) {
      say("The game is over: no moves to hint.");
      return;
    }
    const KalahResult result = session_.hint();
    say("With perfect play you end " + score_text(*result.score) + " (your store minus the other's).");
    for (const auto& child : result.children) {
      say("  " + move_name(child.move) + "  " + score_text(*child.score) +
          (child.score == result.score ? "  (best)" : ""));
    }
  }

  void undo() {
    try {
      const auto taken = session_.undo();
      std::string text = "Took back";
      for (const KalahMove move : taken) text.append(" ").append(move_name(move));
      say(text + ".");
      show();
    } catch (const InputError& error) {
      say("Sorry, " + std::string(error.what()) + ".");
    }
  }

  KalahPlaySession& session_;
  bool quiet_;
};

}  // namespace

int run_play(const Arguments& arguments) {
  KalahOptions options;
  EndgameOptions endgame_options;
  int side = 1;
  int threads = 0;
  bool quiet = false;
  std::string memory = "64M";
  po::options_description description("Options");
  add_kalah_options(description, options, false);
  description.add_options()("side", po::value(&side)->default_value(1),
                            "your side: 1 (moves first) or 2")(
      "memory", po::value(&memory)->default_value(memory), "transposition table size")(
      "quiet", po::bool_switch(&quiet), "no \"thinking\" line on stderr");
  add_threads_option(description, threads);
  add_endgame_options(description, endgame_options);
  if (!parse_command_line(arguments, description,
                          "Usage: rastros play --game kalah [--houses M --seeds N --rules R] "
                          "[--side 1|2]\nA game of Kalah against perfect play. Commands are read "
                          "from stdin: a house number plays it;\nhint, undo, show, help, quit. "
                          "End of input ends the game.")) {
    return 0;
  }
  if (side != 1 && side != 2) throw InputError("--side must be 1 or 2, not " + std::to_string(side));
  const Kalah game = resolve_game(options);
  const std::size_t table_bytes = parse_memory_size(memory);
  const ThreadLimit limit(threads);
  const auto endgame = endgame_for_search(game, endgame_options, quiet);
  KalahPlaySession session(game, side - 1, {table_bytes, false, false}, endgame.get());
  Game(session, quiet).run();
  return 0;
}

}  // namespace rastros::tools::kalah_cli
