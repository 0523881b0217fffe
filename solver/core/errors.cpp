#include "core/errors.hpp"

namespace rastros {

std::string escape_control(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == '\n') {
      out += "\\n";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    } else {
      out += c;
    }
  }
  return out;
}

std::string quote_input(std::string_view text, std::size_t max_length) {
  const bool cut = text.size() > max_length;
  // Appended piece by piece: `"'" + std::string` trips GCC 12's false -Wrestrict (bug 105651).
  std::string out(1, '\'');
  out.append(escape_control(cut ? text.substr(0, max_length) : text));
  out.append(cut ? "...'" : "'");
  return out;
}

}  // namespace rastros
