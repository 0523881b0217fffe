// The pictures of `stats --svg` and `map --svg`: well-formed XML whatever the text in them,
// bars as tall as their counts, every square of a map drawn with its value.

#include <gtest/gtest.h>

#include <map>
#include <string_view>
#include <string>
#include <vector>

#include "report/map_svg.hpp"
#include "report/stats_svg.hpp"
#include "report/svg.hpp"

namespace rastros::report {
namespace {

// Tags balance, every '&' starts one of the five entities, no '<' inside text: a reader of the
// SVG (a browser, Python's xml module in cli_test.sh) accepts it.
bool well_formed(const std::string& xml) {
  std::vector<std::string> open;
  for (std::size_t i = 0; i < xml.size(); ++i) {
    if (xml[i] == '&') {
      const std::string_view rest = std::string_view(xml).substr(i);
      const bool entity = rest.starts_with("&amp;") || rest.starts_with("&lt;") ||
                          rest.starts_with("&gt;") || rest.starts_with("&quot;") ||
                          rest.starts_with("&apos;");
      if (!entity) return false;
    }
    if (xml[i] != '<') continue;
    const std::size_t end = xml.find('>', i);
    if (end == std::string::npos) return false;
    std::string tag = xml.substr(i + 1, end - i - 1);
    i = end;
    if (tag.find('<') != std::string::npos) return false;
    if (tag.ends_with('/')) continue;
    if (tag.starts_with('/')) {
      if (open.empty() || open.back() != tag.substr(1)) return false;
      open.pop_back();
      continue;
    }
    open.push_back(tag.substr(0, tag.find(' ')));
  }
  return open.empty();
}

// The value of attribute `name` in the tag `tag` ("" when it has none).
std::string attribute(const std::string& tag, const std::string& name) {
  const std::size_t at = tag.find(" " + name + "=\"");
  if (at == std::string::npos) return "";
  const std::size_t start = at + name.size() + 3;
  return tag.substr(start, tag.find('"', start) - start);
}

// The height of each rectangle, by its tooltip, for every rectangle of `fill`. (No std::regex:
// GCC 12 warns inside it under the sanitizer builds' flags.)
std::map<std::string, double> heights(const std::string& svg, const std::string& fill) {
  std::map<std::string, double> out;
  for (std::size_t at = svg.find("<rect "); at != std::string::npos;
       at = svg.find("<rect ", at + 1)) {
    const std::string tag = svg.substr(at, svg.find('>', at) - at + 1);
    const std::string title_open = "><title>";
    if (attribute(tag, "fill") != fill || tag.ends_with("/>")) continue;
    const std::size_t title = at + tag.size() - 1 + title_open.size();
    out[svg.substr(title, svg.find("</title>", title) - title)] = std::stod(attribute(tag, "height"));
  }
  return out;
}

ValueCounts counts(std::uint64_t loss, std::uint64_t draw, std::uint64_t win) {
  return {loss, draw, win};  // indexed by Value: loss, draw, win
}

TEST(Svg, EscapesEveryCharacterXmlReserves) {
  EXPECT_EQ(xml_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
  Svg svg(10, 10);
  svg.text(0, 0, "<&>\"'").rect(0, 0, 1, 1, "#000", "</title><script>");
  EXPECT_TRUE(well_formed(svg.str()));
  EXPECT_EQ(svg.str().find("<script"), std::string::npos);
}

TEST(Svg, TheCheckerRefusesBrokenDocuments) {
  EXPECT_FALSE(well_formed("<svg><rect></svg>"));
  EXPECT_FALSE(well_formed("<svg>a & b</svg>"));
  EXPECT_TRUE(well_formed("<svg><rect/>a &amp; b</svg>"));
}

TEST(StatsSvg, BarsAreAsTallAsTheirCounts) {
  DatabaseStats stats;
  stats.by_layer = {counts(0, 0, 0), counts(0, 0, 0), counts(0, 0, 0),
                    counts(0, 0, 40), counts(0, 0, 0), counts(10, 0, 10)};
  stats.by_remoteness = {counts(7, 0, 0), counts(0, 0, 21), counts(3, 0, 0)};
  const std::string svg = stats_svg(stats, "Database <test> & co");
  ASSERT_TRUE(well_formed(svg));
  EXPECT_NE(svg.find("Database &lt;test&gt; &amp; co"), std::string::npos);

  const auto win = heights(svg, kWinColour);
  const auto loss = heights(svg, kLossColour);
  const double full = win.at("layer 3: win 40, loss 0, draw 0");
  ASSERT_GT(full, 0);
  EXPECT_NEAR(win.at("layer 5: win 10, loss 10, draw 0") / full, 0.25, 0.01);
  EXPECT_NEAR(loss.at("layer 5: win 10, loss 10, draw 0") / full, 0.25, 0.01);
  // Each chart has its own scale: remoteness 1's 21 is that chart's full height.
  EXPECT_NEAR(win.at("remoteness 1: win 21, loss 0, draw 0"), full, 0.01);
  EXPECT_NEAR(loss.at("remoteness 2: win 0, loss 3, draw 0") / full, 3.0 / 21, 0.01);
  // Layers without positions before the first are not drawn; none has an empty bar.
  EXPECT_EQ(svg.find("layer 0:"), std::string::npos);
  EXPECT_EQ(svg.find("layer 4:"), std::string::npos);
  EXPECT_EQ(win.size(), 3u);
}

TEST(StatsSvg, AProofDatabaseHasANoteForRemoteness) {
  DatabaseStats stats;
  stats.by_layer = {counts(1, 0, 2)};
  const std::string svg = stats_svg(stats, "proof");
  EXPECT_TRUE(well_formed(svg));
  EXPECT_NE(svg.find("no remoteness"), std::string::npos);
}

TEST(StatsSvg, ShortCounts) {
  EXPECT_EQ(short_count(0), "0");
  EXPECT_EQ(short_count(950), "950");
  EXPECT_EQ(short_count(12500), "12.5k");
  EXPECT_EQ(short_count(3.1e6), "3.1M");
  EXPECT_EQ(short_count(1.2e9), "1.2G");
}

TEST(MapSvg, EverySquareIsDrawnWithItsValue) {
  const Rastros rastros(Board(3, 3), Board(3, 3).square_at(1, 1));
  const Board& board = rastros.board();
  std::vector<StartSquareOutcome> results;
  // Every square but the goals, the corner c1 given up (over budget) and b1 left out.
  for (Square square = 0; square < board.square_count(); ++square) {
    if (square == board.goal_of(Player::one) || square == board.goal_of(Player::two)) continue;
    if (square == board.square_at(1, 0)) continue;
    StartSquareOutcome result{square, Outcome{square % 2 ? Value::win : Value::loss, square},
                              square == board.square_at(2, 0)};
    results.push_back(result);
  }
  const std::string svg = map_svg(rastros, results, false);
  ASSERT_TRUE(well_formed(svg));
  EXPECT_NE(svg.find("a1: goal of player 1"), std::string::npos);
  EXPECT_NE(svg.find("c3: goal of player 2"), std::string::npos);
  EXPECT_NE(svg.find("b1: not solved"), std::string::npos);
  EXPECT_NE(svg.find("c1: not solved"), std::string::npos);
  // b2 is square 4: a loss in 4 plies, drawn red with "L4"; a2 (square 3) a win in 3.
  EXPECT_NE(svg.find("fill=\"" + std::string(kLossColour) + "\"><title>b2: player 1 loss in 4 plies"),
            std::string::npos);
  EXPECT_NE(svg.find(">L4</text>"), std::string::npos);
  EXPECT_NE(svg.find("fill=\"" + std::string(kWinColour) + "\"><title>a2: player 1 win in 3 plies"),
            std::string::npos);
  int squares = 0;
  for (std::size_t at = svg.find("<title>"); at != std::string::npos; at = svg.find("<title>", at + 1)) {
    ++squares;
  }
  EXPECT_EQ(squares, board.square_count());
}

}  // namespace
}  // namespace rastros::report
