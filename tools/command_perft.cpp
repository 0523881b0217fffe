// `rastros perft`: count move sequences of a given length, the standard move-generator check.

#include <chrono>
#include <iostream>

#include "analysis/perft.hpp"
#include "commands.hpp"
#include "core/errors.hpp"
#include "options.hpp"

namespace rastros::tools {

int run_perft(const Arguments& arguments) {
  VariantOptions variant;
  PositionOptions where;
  int depth = -1;
  bool divide = false;
  bool json = false;
  po::options_description description("Options");
  description.add_options()("depth", po::value(&depth)->required(), "plies to count (0..63)");
  // --rules is accepted like everywhere: no rule variant changes which moves are legal.
  add_variant_options(description, variant);
  add_position_options(description, where);
  description.add_options()("divide", po::bool_switch(&divide),
                            "break the count down by first move")("json", po::bool_switch(&json),
                                                                  "print one JSON object")(
      "quiet", po::bool_switch(), "accepted for uniformity: perft prints nothing on stderr");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros perft --depth N [options]\n"
                          "Counts the legal move sequences of exactly N plies from a position "
                          "(a game that has ended has no moves).")) {
    return 0;
  }
  if (depth < 0 || depth > 63) throw InputError("--depth must be between 0 and 63");
  const PositionInput input = resolve_position(variant, where);
  const Board& board = input.rastros.board();

  const auto started = std::chrono::steady_clock::now();
  std::uint64_t nodes = 0;
  Json parts = Json::object();
  if (divide) {
    for (const auto& [move, count] : perft_divide(input.rastros, input.position, depth)) {
      nodes += count;
      if (json) {
        parts.set(square_name(board, move), count);
      } else {
        std::cout << square_name(board, move) << ": " << count << "\n";
      }
    }
    if (depth == 0) nodes = 1;
  } else {
    nodes = perft(input.rastros, input.position, depth);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  if (json) {
    Json out = Json::object();
    out.set("depth", depth).set("nodes", nodes);
    if (divide) out.set("divide", parts);
    out.set("seconds", seconds);
    std::cout << out.dump() << "\n";
  } else {
    std::cout << "perft " << depth << ": " << nodes << "\n";
  }
  return 0;
}

}  // namespace rastros::tools
