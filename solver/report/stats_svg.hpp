#pragma once
// `rastros stats --svg`: a database's positions by layer and by remoteness as stacked bar
// charts (win, draw, loss for the side to move), one SVG document.

#include <string>

#include "db/database_stats.hpp"

namespace rastros::report {

/// Colours of the three values, shared by the stats and map pictures.
inline constexpr const char* kWinColour = "#4caf50";
inline constexpr const char* kLossColour = "#e53935";
inline constexpr const char* kDrawColour = "#9e9e9e";

/// A count on an axis: 950, 12.5k, 3.1M, 1.2G.
std::string short_count(double count);

/// Two charts, positions by layer (region size) and by remoteness, under `title`. Empty rows
/// are left out of the range drawn at either end; an empty by_remoteness (a proof database)
/// draws a note instead of its chart.
std::string stats_svg(const DatabaseStats& stats, const std::string& title);

}  // namespace rastros::report
