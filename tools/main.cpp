// The `rastros` command: picks a subcommand and maps errors to the design's exit statuses:
// 0 success, 2 bad usage or input, 3 unusable database file, 1 anything else.

#include <boost/program_options/errors.hpp>
#include <iostream>
#include <map>

#include "commands.hpp"
#include "core/errors.hpp"

namespace {

using rastros::tools::Arguments;

struct Command {
  int (*run)(const Arguments&);
  const char* summary;
};

const std::map<std::string, Command>& commands() {
  static const std::map<std::string, Command> table = {
      {"show", {rastros::tools::run_show, "draw a position, its legal moves and how it ended"}},
      {"map", {rastros::tools::run_map, "value of every start square of a board"}},
      {"perft", {rastros::tools::run_perft, "count move sequences of N plies"}},
      {"play", {rastros::tools::run_play, "a game against perfect play (stdin commands)"}},
      {"query", {rastros::tools::run_query, "answer a position from a solved database"}},
      {"serve", {rastros::tools::run_serve, "the browser page and a JSON API over HTTP"}},
      {"solve", {rastros::tools::run_solve, "perfect-play value, remoteness and best moves"}},
      {"stats", {rastros::tools::run_stats, "positions of a database by value, layer, remoteness"}},
      {"verify", {rastros::tools::run_verify, "check a database record by record; no-draw check"}},
  };
  return table;
}

void print_usage(std::ostream& out) {
  out << "Usage: rastros COMMAND [options]    (rastros COMMAND --help for its options)\n\n"
         "Perfect-play solver for Rastros (Slime Trail).\n\nCommands:\n";
  for (const auto& [name, command] : commands()) {
    out << "  " << name << std::string(10 - name.size(), ' ') << command.summary << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    print_usage(std::cerr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(std::cout);
    return 0;
  }
  const auto command = commands().find(name);
  if (command == commands().end()) {
    std::cerr << "rastros: unknown command '" << name << "' (rastros --help lists them)\n";
    return 2;
  }
  try {
    return command->second.run(Arguments(argv + 2, argv + argc));
  } catch (const rastros::InputError& error) {
    std::cerr << "rastros " << name << ": " << error.what() << "\n";
    return 2;
  } catch (const boost::program_options::error& error) {
    std::cerr << "rastros " << name << ": " << error.what() << "\n";
    return 2;
  } catch (const rastros::FileError& error) {
    std::cerr << "rastros " << name << ": " << error.what() << "\n";
    return 3;
  } catch (const std::exception& error) {
    std::cerr << "rastros " << name << ": error: " << error.what() << "\n";
    return 1;
  }
}
