#include "report/svg.hpp"

#include <cmath>
#include <iomanip>

namespace rastros::report {
namespace {

// Coordinates with at most two decimals: exact enough for a screen, and the same bytes from
// every run (tests and docs/img compare pictures byte for byte).
std::string number(double value) {
  std::ostringstream out;
  const double rounded = std::round(value * 100) / 100;
  out << std::setprecision(10) << (rounded == 0 ? 0.0 : rounded);
  return out.str();
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

Svg::Svg(int width, int height) : width_(width), height_(height) {
  rect(0, 0, width, height, "#fff");
}

Svg& Svg::rect(double x, double y, double width, double height, std::string_view fill,
               std::string_view tooltip) {
  body_ << "<rect x=\"" << number(x) << "\" y=\"" << number(y) << "\" width=\"" << number(width)
        << "\" height=\"" << number(height) << "\" fill=\"" << xml_escape(fill) << "\"";
  if (tooltip.empty()) {
    body_ << "/>\n";
  } else {
    body_ << "><title>" << xml_escape(tooltip) << "</title></rect>\n";
  }
  return *this;
}

Svg& Svg::frame(double x, double y, double width, double height, std::string_view stroke) {
  body_ << "<rect x=\"" << number(x) << "\" y=\"" << number(y) << "\" width=\"" << number(width)
        << "\" height=\"" << number(height) << "\" fill=\"none\" stroke=\"" << xml_escape(stroke)
        << "\"/>\n";
  return *this;
}

Svg& Svg::line(double x1, double y1, double x2, double y2, std::string_view stroke) {
  body_ << "<line x1=\"" << number(x1) << "\" y1=\"" << number(y1) << "\" x2=\"" << number(x2)
        << "\" y2=\"" << number(y2) << "\" stroke=\"" << xml_escape(stroke) << "\"/>\n";
  return *this;
}

Svg& Svg::text(double x, double y, std::string_view content, int size, std::string_view anchor,
               std::string_view fill) {
  body_ << "<text x=\"" << number(x) << "\" y=\"" << number(y) << "\" font-size=\"" << size
        << "\" text-anchor=\"" << xml_escape(anchor) << "\" fill=\"" << xml_escape(fill) << "\">"
        << xml_escape(content) << "</text>\n";
  return *this;
}

double Svg::legend(double x, double y,
                   const std::vector<std::pair<std::string, std::string>>& entries,
                   double spacing, int size) {
  for (const auto& [label, colour] : entries) {
    rect(x, y - 10, 12, 12, colour);
    text(x + 16, y, label, size);
    x += spacing;
  }
  return x;
}

std::string Svg::str() const {
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width_ << "\" height=\""
      << height_ << "\" viewBox=\"0 0 " << width_ << " " << height_
      << "\" font-family=\"sans-serif\">\n"
      << body_.str() << "</svg>\n";
  return out.str();
}

}  // namespace rastros::report
