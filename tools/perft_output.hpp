#pragma once
// The counting and printing of `perft` for any game on the score engine: the total, or with
// --divide one count a first move, as text or as one JSON object.

#include <chrono>
#include <cstdint>
#include <iostream>
#include <string>

#include "engine/score_perft.hpp"
#include "json.hpp"

namespace rastros::tools {

/// What a game's perft output adds to the counts.
struct PerftPrinting {
  Json head;               // the variant's (or position's) keys, first in the JSON object
  std::string text_note;   // after the count on the text line, e.g. " (passes count as moves)"
  const char* flag = nullptr;  // a key set to true right after "nodes" (Reversi: passes_count)
  bool seconds = true;     // the time taken, last in the JSON object
};

/// Counts the sequences of `depth` plies from `state` and prints them ("perft 3: 343", with
/// `divide` one line a first move, named by `move_name`).
template <engine::ScoreGame Game, class MoveName>
void print_perft(const Game& game, const typename Game::State& state, int depth, bool divide,
                 bool json, const MoveName& move_name, PerftPrinting printing) {
  const auto started = std::chrono::steady_clock::now();
  std::uint64_t nodes = 0;
  Json parts = Json::object();
  if (divide && depth > 0) {
    for (const auto& [move, count] : engine::perft_divide(game, state, depth)) {
      nodes += count;
      if (json) {
        parts.set(move_name(move), count);
      } else {
        std::cout << move_name(move) << ": " << count << "\n";
      }
    }
  } else {
    nodes = engine::perft(game, state, depth);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!json) {
    std::cout << "perft " << depth << ": " << nodes << printing.text_note << "\n";
    return;
  }
  Json& out = printing.head;
  out.set("depth", depth).set("nodes", nodes);
  if (printing.flag) out.set(printing.flag, true);
  if (divide) out.set("divide", parts);
  if (printing.seconds) out.set("seconds", seconds);
  std::cout << out.dump() << "\n";
}

}  // namespace rastros::tools
