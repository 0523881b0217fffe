// The `rastros` command: picks a subcommand and maps errors to the design's exit statuses:
// 0 success, 2 bad usage or input, 3 unusable database file, 1 anything else.

#include <boost/program_options/errors.hpp>
#include <csignal>
#include <iostream>
#include <algorithm>
#include <map>
#include <vector>

#include "commands.hpp"
#include "game_registry.hpp"
#include "core/errors.hpp"
#include "mpi_world.hpp"

namespace {

using rastros::tools::Arguments;

struct Command {
  int (*run)(const Arguments&);
  const char* summary;
};

const std::map<std::string, Command>& commands() {
  static const std::map<std::string, Command> table = {
      {"batch", {rastros::tools::run_batch, "solve every game or position of a file (JSON Lines)"}},
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
         "Perfect-play solver for Rastros (Slime Trail) and other two-player games.\n\nCommands:\n";
  for (const auto& [name, command] : commands()) {
    out << "  " << name << std::string(10 - name.size(), ' ') << command.summary << "\n";
  }
  out << "\nGames (--game NAME on any command; default rastros):\n"
         "  rastros   Rastros (Slime Trail): value, remoteness, databases, maps (every command)\n";
  for (const auto& game : rastros::tools::other_games()) {
    out << "  " << game.name << std::string(10 - game.name.size(), ' ') << game.summary << " (";
    bool first = true;
    for (const auto& [name, function] : game.commands) {
      out << (first ? "" : " ") << name;
      first = false;
    }
    out << ")\n";
  }
}

}  // namespace

namespace {

// Prints `message` for command `name` and returns `status`. Under MPI, the root prints (every
// rank meets the same usage errors) and any other rank prints only errors of its own; then the
// whole job ends, since the other ranks may be waiting for this one.
int fail(const std::string& name, const std::string& message, int status, bool every_rank) {
  if (rastros::tools::mpi_rank() == 0 || !every_rank) {
    // Whatever the message quotes (Boost.Program_options' messages, file names) stays one line.
    std::cerr << "rastros " << name << ": "
              << rastros::shorten_message(rastros::escape_control(message)) << "\n";
  }
  if (rastros::tools::mpi_size() > 1) rastros::tools::mpi_abort(status);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  // Over a file size limit (ulimit -f), a write fails with EFBIG and the writer reports it and
  // removes its temporary file, instead of the process dying on SIGXFSZ.
  std::signal(SIGXFSZ, SIG_IGN);
  const rastros::tools::MpiSession mpi(argc, argv);
  if (argc < 2) {
    print_usage(std::cerr);
    return 2;
  }
  // `rastros --game kalah solve ...` is `rastros solve --game kalah ...`.
  std::vector<std::string> words(argv + 1, argv + argc);
  const bool game_first = words[0] == "--game" ? words.size() >= 3 : words[0].rfind("--game=", 0) == 0;
  if (game_first && words.size() >= 2) {
    const std::size_t taken = words[0] == "--game" ? 2 : 1;
    std::rotate(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(taken),
                words.begin() + static_cast<std::ptrdiff_t>(taken) + 1);
  }
  const std::string name = words[0];
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(std::cout);
    return 0;
  }
  const auto command = commands().find(name);
  if (command == commands().end()) {
    std::cerr << "rastros: unknown command " << rastros::quote_input(name)
              << " (rastros --help lists them)\n";
    return 2;
  }
  try {
    const Arguments arguments(words.begin() + 1, words.end());
    const std::string game = rastros::tools::game_of(arguments);
    if (game != "rastros") return rastros::tools::find_game_command(game, name)(arguments);
    return command->second.run(arguments);
  } catch (const rastros::InputError& error) {
    return fail(name, error.what(), 2, true);
  } catch (const boost::program_options::error& error) {
    return fail(name, error.what(), 2, true);
  } catch (const rastros::FileError& error) {
    return fail(name, error.what(), 3, true);
  } catch (const std::exception& error) {
    return fail(name, std::string("error: ") + error.what(), 1, false);
  }
}
