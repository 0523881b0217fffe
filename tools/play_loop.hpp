#pragma once
// The command loop every terminal game of `rastros play` shares: the program moves while it
// is its turn, then a prompt; a line of stdin is quit/exit, help, show, hint, undo, or else a
// move. End of input ends the game.

#include <iostream>
#include <sstream>
#include <string>

namespace rastros::tools {

/// `Table` says what each command does for its game: is_over(), humans_turn(), computer()
/// (one move of the program, printed), show(), hint(), undo(), play(word) (a person's move,
/// or a message when it is refused), ending() (the line once the game is over), help_text().
template <class Table>
void run_command_loop(Table& table) {
  std::string line;
  while (true) {
    while (!table.is_over() && !table.humans_turn()) table.computer();
    if (table.is_over()) std::cout << table.ending() << "\n";
    std::cout << "> " << std::flush;
    if (!std::getline(std::cin, line)) break;
    std::istringstream words(line);
    std::string word;
    if (!(words >> word)) continue;
    if (word == "quit" || word == "exit") break;
    if (word == "help") {
      std::cout << table.help_text() << "\n";
    } else if (word == "show") {
      table.show();
    } else if (word == "hint") {
      table.hint();
    } else if (word == "undo") {
      table.undo();
    } else {
      table.play(word);
    }
  }
}

}  // namespace rastros::tools
