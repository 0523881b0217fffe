#pragma once
// A small SVG writer for the pictures the tools draw (database statistics, start-square maps):
// just the elements they need, with every text escaped, so a picture is always well-formed XML.

#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rastros::report {

/// `text` with &, <, >, " and ' written as XML entities.
std::string xml_escape(std::string_view text);

class Svg {
 public:
  /// A picture of width x height user units on a white background.
  Svg(int width, int height);

  /// A filled rectangle; a non-empty `tooltip` becomes its <title> (shown on hover).
  Svg& rect(double x, double y, double width, double height, std::string_view fill,
            std::string_view tooltip = {});
  /// A rectangle's outline only.
  Svg& frame(double x, double y, double width, double height, std::string_view stroke);
  Svg& line(double x1, double y1, double x2, double y2, std::string_view stroke);
  /// Text whose baseline starts (anchor "start"), centres ("middle") or ends ("end") at x, y.
  Svg& text(double x, double y, std::string_view text, int size = 12,
            std::string_view anchor = "start", std::string_view fill = "#222");

  /// A legend: a square of each colour followed by its label, `spacing` apart, from x
  /// rightwards; returns where the next one would go.
  double legend(double x, double y, const std::vector<std::pair<std::string, std::string>>& entries,
                double spacing, int size = 12);

  /// The whole document, closed.
  std::string str() const;

 private:
  std::ostringstream body_;
  int width_;
  int height_;
};

}  // namespace rastros::report
