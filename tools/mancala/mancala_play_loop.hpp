#pragma once
// The terminal game of `rastros play` for a mancala game: the person's commands on stdin (a
// house number, hint, undo, show, help, quit), the computer's moves, the board after each.

#include <iostream>
#include <string>
#include <utility>

#include "core/errors.hpp"
#include "games/mancala/mancala_play.hpp"
#include "mancala/mancala_options.hpp"
#include "play_loop.hpp"

namespace rastros::tools::mancala_cli {

namespace detail {

using namespace rastros::mancala;

// Built piece by piece: `"+" + std::to_string` trips GCC 12's false -Wrestrict (bug 105651).
inline std::string score_text(int score) {
  std::string text(score > 0 ? "+" : "");
  text.append(std::to_string(score));
  return text;
}

template <class Session>
class PlayLoop {
 public:
  PlayLoop(Session& session, bool quiet, std::string title)
      : session_(session), quiet_(quiet), title_(std::move(title)) {}

  void run() {
    say(title_ + ": you are " + player_name(session_.human()) +
        ". Type a house number (1.." + std::to_string(session_.game().houses()) +
        ", counted from your left), or hint, undo, show, help, quit.");
    show();
    run_command_loop(*this);
  }

  // The hooks of run_command_loop.
  bool is_over() const { return session_.is_over(); }
  bool humans_turn() const { return session_.humans_turn(); }
  std::string help_text() const {
    return "A house number plays it; hint: every move's exact score; undo: take back your last "
           "move; show: the board; quit.";
  }
  void play(const std::string& word) {
    try {
      session_.play(word);
      show();
    } catch (const InputError& error) {
      say("Sorry, " + std::string(error.what()) + ".");
    }
  }

  void show() {
    std::cout << "\n" << board_diagram(board_of(session_.game()), session_.position());
    if (!session_.is_over()) {
      say(player_name(session_.position().to_move) + " to move" +
          (session_.humans_turn() ? " (you)." : "."));
    }
  }

  std::string ending() {
    const auto stores = final_stores(board_of(session_.game()), session_.position());
    std::string text = "The game is over: player 1 " + std::to_string(stores[0]) + ", player 2 " +
                       std::to_string(stores[1]) + ". ";
    if (stores[0] == stores[1]) return text + "A draw. (undo takes back your last move, quit ends)";
    const int winner = stores[0] > stores[1] ? 0 : 1;
    return text + (winner == session_.human() ? "You win." : "The computer wins.") +
           " (undo takes back your last move, quit ends)";
  }

  void computer() {
    if (!quiet_) std::cerr << "(thinking...)\n";
    const MancalaMove move = session_.computer_move();
    say("The computer plays " + move_name(move) + ".");
    show();
  }

  void hint() {
    if (!session_.humans_turn()) {
      say("The game is over: no moves to hint.");
      return;
    }
    const MancalaResult result = session_.hint();
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
      for (const MancalaMove move : taken) text.append(" ").append(move_name(move));
      say(text + ".");
      show();
    } catch (const InputError& error) {
      say("Sorry, " + std::string(error.what()) + ".");
    }
  }

 private:
  void say(const std::string& text) { std::cout << text << "\n"; }

  Session& session_;
  bool quiet_;
  std::string title_;
};

}  // namespace detail

/// Plays `session` (a mancala::MancalaPlaySession) to the end of the input; `title`:
/// "Kalah(6,4)".
template <class Session>
void run_play_loop(Session& session, bool quiet, std::string title) {
  detail::PlayLoop<Session>(session, quiet, std::move(title)).run();
}

}  // namespace rastros::tools::mancala_cli
