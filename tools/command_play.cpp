// `rastros play`: a game in the terminal against perfect play, answered from a database
// (--db) or by the live solver. Commands are read from stdin line by line, so a pipe works as
// well as a terminal; bad input is refused with a one-line message and the prompt again.

#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "analysis/play_session.hpp"
#include "board_text.hpp"
#include "commands.hpp"
#include "core/errors.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace rastros::tools {
namespace {

std::string player_text(Player player) {
  return "player " + std::to_string(number_of(player));
}

// "player 1 wins in 17 plies with best play", from the side to move's outcome.
std::string evaluation_text(Player to_move, const Outcome& outcome) {
  if (outcome.value == Value::draw) return "a draw with best play";
  const Player winner = outcome.value == Value::win ? to_move : opponent(to_move);
  std::string text = player_text(winner) + " wins";
  if (outcome.remoteness) {
    text += " in " + std::to_string(*outcome.remoteness) +
            (*outcome.remoteness == 1 ? " ply" : " plies");
  }
  return text + " with best play";
}

constexpr const char* kHelp =
    "Commands:\n"
    "  SQUARE  play that square, such as c3 (a king step from the snail onto an empty square)\n"
    "  hint    every legal move with its value for you: win in N / loss in N plies\n"
    "  undo    take back your last move and the computer's reply\n"
    "  show    draw the board again\n"
    "  help    this list\n"
    "  quit    leave the game\n";

class Game {
 public:
  /// `quiet`: no "thinking" line on stderr.
  Game(PlaySession& session, bool quiet) : session_(session), quiet_(quiet) {}

  // Returns once the user quits or stdin ends.
  void run() {
    const Rastros& game = session_.game();
    const Board& board = game.board();
    std::cout << "Rastros " << board.name() << ", start " << square_name(board, game.start())
              << ", " << rules_name(game.stuck_rule()) << " rules, " << steps_name(board.steps())
              << " steps. You are " << player_text(session_.human()) << " (goal "
              << square_name(board, board.goal_of(session_.human())) << "); the computer is "
              << player_text(session_.computer()) << " (goal "
              << square_name(board, board.goal_of(session_.computer())) << ").\n"
              << "Type a square to move, or hint, undo, show, help, quit.\n";
    advance();
    std::string line;
    while (prompt(), std::getline(std::cin, line)) {
      std::istringstream words(line);
      std::string word;
      if (!(words >> word)) continue;
      std::string extra;
      if (words >> extra) {
        say("Sorry, one command or square at a time. Type help for the commands.");
        continue;
      }
      if (word == "quit" || word == "exit" || word == "q") {
        std::cout << "Bye.\n";
        return;
      }
      if (word == "help" || word == "?") {
        std::cout << kHelp;
      } else if (word == "show") {
        show();
      } else if (word == "hint") {
        hint();
      } else if (word == "undo") {
        undo();
      } else {
        move(word);
      }
    }
    std::cout << "\n";
  }

 private:
  void say(const std::string& text) { std::cout << text << "\n"; }

  void prompt() {
    if (session_.humans_turn()) {
      std::cout << player_text(session_.human()) << "> " << std::flush;
    } else {
      std::cout << "> " << std::flush;
    }
  }

  void show() {
    const Rastros& game = session_.game();
    const Position& position = session_.position();
    std::cout << board_diagram(game, position);
    if (session_.is_over()) {
      say(ending_text(game, position) + (session_.winner() == session_.human() ? " You win!"
                                         : session_.winner() ? " The computer wins."
                                                             : ""));
      say("Type undo to take back your last move, or quit.");
    } else if (session_.humans_turn()) {
      say("Your move (" + player_text(session_.human()) + "), snail on " +
          square_name(game.board(), position.snail) + ".");
    }
  }

  // Lets the computer move while it is its turn, then draws the board.
  void advance() {
    if (!session_.is_over() && !session_.humans_turn()) {
      const Player computer = session_.computer();
      // The live solver takes seconds on big boards: say so (on stderr, stdout stays the game).
      if (!quiet_ && !session_.has_database() && session_.game().board().square_count() > 30) {
        std::cerr << "(the computer is thinking)" << std::endl;
      }
      const ComputerMove reply = session_.computer_move();
      std::string text = "The computer (" + player_text(computer) + ") plays " +
                         square_name(session_.game().board(), reply.move);
      if (!session_.is_over()) {
        // The value from here on: the game is one ply shorter than before the move.
        Outcome now = reply.outcome;
        if (now.remoteness) --*now.remoteness;
        text += "; " + evaluation_text(computer, now);
      }
      say(text + ".");
    }
    show();
  }

  void move(const std::string& word) {
    try {
      session_.play(word);
    } catch (const InputError& error) {
      say("Sorry, " + std::string(error.what()) + ". Type help for the commands.");
      return;
    }
    advance();
  }

  void hint() {
    if (!session_.humans_turn()) {
      say("The game is over: no moves to hint (undo takes back your last move).");
      return;
    }
    const Evaluation& evaluation = session_.evaluate();
    const Board& board = session_.game().board();
    say("Position: " + evaluation_text(session_.to_move(), evaluation.outcome) + ".");
    for (const MoveOutcome& child : session_.hint()) {
      const bool best = score_of(child.outcome) == score_of(evaluation.outcome);
      say("  " + square_name(board, child.move) + "  " + to_string(child.outcome) +
          (best ? "  (best)" : ""));
    }
  }

  void undo() {
    std::vector<Square> taken;
    try {
      taken = session_.undo();
    } catch (const InputError& error) {
      say("Sorry, " + std::string(error.what()) + ".");
      return;
    }
    const Board& board = session_.game().board();
    std::string text = "Took back";
    for (std::size_t i = 0; i < taken.size(); ++i) {
      text += (i == 0 ? " " : " and ") + square_name(board, taken[i]);
    }
    say(text + ".");
    show();
  }

  PlaySession& session_;
  bool quiet_;
};

}  // namespace

int run_play(const Arguments& arguments) {
  GivenVariant choices;
  std::string file;
  int side = 1;
  int threads = 0;
  bool quiet = false;
  std::string memory;
  po::options_description description("Options");
  add_optional_option(description, "board", choices.board, "board WxH (default 7x7)");
  add_optional_option(description, "start", choices.start,
                      "start square (default: the board's centre)");
  add_optional_option(description, "rules", choices.rules,
                      "standard | stuck-draw (default standard)");
  add_optional_option(description, "steps", choices.steps, "king | orthogonal (default king)");
  description.add_options()("db", po::value(&file),
                            "answer from this database (.rdb); its header gives the game")(
      "side", po::value(&side)->default_value(1), "your side: 1 (moves first) or 2")(
      "quiet", po::bool_switch(&quiet), "no \"thinking\" line on stderr");
  add_threads_option(description, threads);
  description.add_options()("memory", po::value(&memory),
                            "the most memory the live solver may use: its transposition table "
                            "(default 32M)");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros play [--board WxH --start SQ --rules R --steps S] "
                          "[--db FILE] [--side 1|2]\nA game against perfect play. Commands are "
                          "read from stdin: a square such as c3 plays it;\nhint, undo, show, "
                          "help, quit. End of input ends the game.")) {
    return 0;
  }
  if (side != 1 && side != 2)
    throw InputError("--side must be 1 or 2, not " + std::to_string(side));
  const Player human = side == 1 ? Player::one : Player::two;
  SolverOptions options;
  options.table_bytes = memory.empty() ? default_table_bytes(false) : parse_memory_size(memory);
  // The solver is made at the first search, after the board is printed: checked here instead.
  check_table_bytes(options.table_bytes);
  const ThreadLimit limit(threads);

  std::optional<DatabaseReader> database;
  std::optional<PlaySession> session;
  if (!file.empty()) {
    database.emplace(file);
    session.emplace(*database, human, options);
    check_given_variant(choices, session->game(), file);
  } else {
    const VariantOptions variant{choices.board.value_or("7x7"), choices.start,
                                 choices.rules.value_or("standard"),
                                 choices.steps.value_or("king")};
    session.emplace(resolve_variant(variant), human, options);
  }
  Game(*session, quiet).run();
  return 0;
}

}  // namespace rastros::tools
