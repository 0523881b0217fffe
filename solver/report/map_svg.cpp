#include "report/map_svg.hpp"

#include <optional>

#include "rastros/notation.hpp"
#include "report/stats_svg.hpp"
#include "report/svg.hpp"

namespace rastros::report {
namespace {

constexpr int kCell = 56;
constexpr int kMargin = 28;  // room for the file letters and rank numbers
constexpr int kHeader = 70;  // the title and the legend

struct Cell {
  const char* fill = "#fff";
  std::string label = "?";
  std::string tooltip;
};

Cell cell_of(const Board& board, Square square, const std::optional<StartSquareOutcome>& result) {
  const std::string name = square_name(board, square);
  if (square == board.goal_of(Player::one)) return {"#37474f", "1", name + ": goal of player 1"};
  if (square == board.goal_of(Player::two)) return {"#37474f", "2", name + ": goal of player 2"};
  if (!result || result->over_budget) return {"#fff", "?", name + ": not solved"};
  const Outcome& outcome = result->outcome;
  const char* fill = outcome.value == Value::win    ? kWinColour
                     : outcome.value == Value::loss ? kLossColour
                                                    : kDrawColour;
  std::string label(1, outcome.value == Value::win ? 'W' : outcome.value == Value::loss ? 'L' : 'D');
  std::string tooltip = name + ": player 1 " + std::string(to_string(outcome.value));
  if (outcome.remoteness) {
    label += std::to_string(*outcome.remoteness);
    tooltip += " in " + std::to_string(*outcome.remoteness) + " plies";
  }
  return {fill, label, tooltip};
}

void map_legend(Svg& svg, int y) {
  svg.legend(kMargin, y, {{"W win", kWinColour}, {"L loss", kLossColour}, {"D draw", kDrawColour}},
             62, 11);
  svg.text(kMargin, y + 16, "value for player 1 moving first; number: remoteness in plies", 11);
}

}  // namespace

std::string map_svg(const Rastros& rastros, const std::vector<StartSquareOutcome>& results,
                    bool value_only) {
  const Board& board = rastros.board();
  std::vector<std::optional<StartSquareOutcome>> by_square(board.square_count());
  for (const StartSquareOutcome& result : results) by_square[result.start] = result;
  const int width = std::max(2 * kMargin + board.width() * kCell, 380);
  Svg svg(width, kHeader + 2 * kMargin + board.height() * kCell);
  svg.text(kMargin, 20, "Start-square map, " + board.name() + ", " +
                            std::string(steps_name(board.steps())) + " steps, " +
                            std::string(rules_name(rastros.stuck_rule())) + " rules", 14);
  map_legend(svg, 42);
  const int top = kHeader + kMargin;
  for (int rank = 0; rank < board.height(); ++rank) {
    const int y = top + (board.height() - 1 - rank) * kCell;
    svg.text(kMargin - 8, y + kCell / 2 + 4, std::to_string(rank + 1), 12, "end");
    for (int file = 0; file < board.width(); ++file) {
      const int x = kMargin + file * kCell;
      const Square square = board.square_at(file, rank);
      const Cell cell = cell_of(board, square, by_square[square]);
      svg.rect(x, y, kCell, kCell, cell.fill, cell.tooltip).frame(x, y, kCell, kCell, "#fff");
      const bool dark = cell.fill != std::string("#fff");
      svg.text(x + kCell / 2.0, y + kCell / 2.0 + 5, cell.label, value_only ? 16 : 14, "middle",
               dark ? "#fff" : "#222");
    }
  }
  const int bottom = top + board.height() * kCell;
  for (int file = 0; file < board.width(); ++file) {
    svg.text(kMargin + file * kCell + kCell / 2.0, bottom + 16,
             std::string(1, static_cast<char>('a' + file)), 12, "middle");
  }
  return svg.str();
}

}  // namespace rastros::report
