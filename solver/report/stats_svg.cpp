#include "report/stats_svg.hpp"

#include <algorithm>
#include <cstdio>

#include "core/value.hpp"
#include "report/svg.hpp"

namespace rastros::report {
namespace {

constexpr int kWidth = 760;
constexpr int kPanelHeight = 250;
constexpr double kLeft = 70;    // room for the count axis's labels
constexpr double kRight = 20;
constexpr double kTop = 30;     // room for the panel's title
constexpr double kBottom = 40;  // room for the index labels and the axis name

std::uint64_t total(const ValueCounts& counts) { return counts[0] + counts[1] + counts[2]; }

std::uint64_t of(const ValueCounts& counts, Value value) {
  return counts[static_cast<int>(value)];
}

// The rows from the first to the last with positions; {0, 0} when none has.
std::pair<std::size_t, std::size_t> used_range(const std::vector<ValueCounts>& rows) {
  std::size_t first = rows.size();
  std::size_t last = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (total(rows[i]) == 0) continue;
    first = std::min(first, i);
    last = i + 1;
  }
  return first < last ? std::pair{first, last} : std::pair<std::size_t, std::size_t>{0, 0};
}

void count_axis(Svg& svg, double top, double height, std::uint64_t highest) {
  const double bottom = top + height;
  svg.line(kLeft, top, kLeft, bottom, "#444").line(kLeft, bottom, kWidth - kRight, bottom, "#444");
  for (int tick = 0; tick <= 4; ++tick) {
    const double y = bottom - height * tick / 4;
    svg.line(kLeft - 4, y, kLeft, y, "#444");
    if (tick > 0) svg.line(kLeft, y, kWidth - kRight, y, "#eee");
    svg.text(kLeft - 7, y + 4, short_count(static_cast<double>(highest) * tick / 4), 11, "end");
  }
}

// One bar: win at the bottom, then draw, then loss, each as tall as its share of `highest`.
void stacked_bar(Svg& svg, double x, double width, double bottom, double height,
                 std::uint64_t highest, const ValueCounts& counts, const std::string& tooltip) {
  double y = bottom;
  for (auto [value, colour] : {std::pair{Value::win, kWinColour}, {Value::draw, kDrawColour},
                               {Value::loss, kLossColour}}) {
    const double h = height * static_cast<double>(of(counts, value)) / static_cast<double>(highest);
    if (h <= 0) continue;
    y -= h;
    svg.rect(x, y, width, h, colour, tooltip);
  }
}

void bar_panel(Svg& svg, double top, const std::string& title, const std::string& index_name,
               const std::vector<ValueCounts>& rows) {
  svg.text(kLeft, top + 18, title, 14);
  const auto [first, last] = used_range(rows);
  const double chart_top = top + kTop;
  const double height = kPanelHeight - kTop - kBottom;
  if (first == last) {
    svg.text(kLeft, chart_top + height / 2, "no " + index_name + ": a proof database stores "
             "values only", 12);
    return;
  }
  std::uint64_t highest = 1;
  for (std::size_t i = first; i < last; ++i) highest = std::max(highest, total(rows[i]));
  count_axis(svg, chart_top, height, highest);
  const std::size_t bars = last - first;
  const double slot = (kWidth - kLeft - kRight) / static_cast<double>(bars);
  const std::size_t label_every = std::max<std::size_t>(1, (bars + 24) / 25);
  const double bottom = chart_top + height;
  for (std::size_t i = first; i < last; ++i) {
    const double x = kLeft + slot * static_cast<double>(i - first);
    const ValueCounts& counts = rows[i];
    const std::string tooltip = index_name + " " + std::to_string(i) + ": win " +
                                std::to_string(of(counts, Value::win)) + ", loss " +
                                std::to_string(of(counts, Value::loss)) + ", draw " +
                                std::to_string(of(counts, Value::draw));
    stacked_bar(svg, x + slot * 0.1, slot * 0.8, bottom, height, highest, counts, tooltip);
    if ((i - first) % label_every == 0) {
      svg.text(x + slot / 2, bottom + 14, std::to_string(i), 10, "middle");
    }
  }
  svg.text((kLeft + kWidth - kRight) / 2, bottom + 32, index_name, 12, "middle");
}

void stats_legend(Svg& svg, double y) {
  const double x = svg.legend(
      kLeft, y, {{"win", kWinColour}, {"draw", kDrawColour}, {"loss", kLossColour}}, 64);
  svg.text(x, y, "(value for the side to move)", 12);
}

}  // namespace

std::string short_count(double count) {
  static constexpr std::pair<double, const char*> kUnits[] = {
      {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  char text[32];
  for (auto [scale, unit] : kUnits) {
    if (count >= scale) {
      std::snprintf(text, sizeof text, "%.3g%s", count / scale, unit);
      return text;
    }
  }
  std::snprintf(text, sizeof text, "%.3g", count);
  return text;
}

std::string stats_svg(const DatabaseStats& stats, const std::string& title) {
  Svg svg(kWidth, 2 * kPanelHeight + 60);
  svg.text(kLeft, 22, title, 15);
  stats_legend(svg, 46);
  bar_panel(svg, 55, "Positions by layer (squares left in the snail's region)", "layer",
            stats.by_layer);
  bar_panel(svg, 55 + kPanelHeight, "Positions by remoteness (plies to the end; draws have none)",
            "remoteness", stats.by_remoteness);
  return svg.str();
}

}  // namespace rastros::report
