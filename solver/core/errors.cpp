#include "core/errors.hpp"

#include <utility>

namespace rastros {
namespace {

bool is_continuation(unsigned char byte) {
  return (byte & 0xc0) == 0x80;
}

/// The length of the well-formed UTF-8 character that starts at text[at] (1 for ASCII), or 0
/// when none does: a stray continuation byte, an overlong form, a surrogate, a code point past
/// U+10FFFF, a truncated sequence, or a byte that never appears in UTF-8 (RFC 3629, Table 3-7
/// of the Unicode Standard).
std::size_t sequence_length(std::string_view text, std::size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80;  // the range the second byte must fall in
  unsigned char high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;   // no overlong forms
    if (lead == 0xed) high = 0x9f;  // no surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;   // no overlong forms
    if (lead == 0xf4) high = 0x8f;  // nothing past U+10FFFF
  } else {
    return 0;  // 0x80..0xc1 and 0xf5..0xff never start a character
  }
  if (text.size() - at < length) return 0;
  const auto second = static_cast<unsigned char>(text[at + 1]);
  if (second < low || second > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (!is_continuation(static_cast<unsigned char>(text[at + k]))) return 0;
  }
  return length;
}

/// Where the character holding byte `at` starts and how long it is (1 for a byte that belongs
/// to no well-formed character).
std::pair<std::size_t, std::size_t> character_span(std::string_view text, std::size_t at) {
  // A character is at most 4 bytes, and only continuation bytes follow its first: its start is
  // the nearest byte at or before `at` that is not a continuation byte, at most 3 bytes back.
  for (std::size_t back = 0; back < 4 && back <= at; ++back) {
    const std::size_t start = at - back;
    const std::size_t length = sequence_length(text, start);
    if (length > back) return {start, length};
    if (!is_continuation(static_cast<unsigned char>(text[start]))) break;
  }
  return {at, 1};
}

}  // namespace

std::string escape_control(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  auto escape_byte = [&](unsigned char byte) {
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0xf];
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t length = sequence_length(text, i);
    if (byte == '\n') {
      out += "\\n";
    } else if (length == 0 || byte < 0x20 || byte == 0x7f) {
      escape_byte(byte);  // a control byte, or a byte of no well-formed character
    } else if (byte == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0) {
      escape_byte(byte);  // a C1 control (U+0080..U+009F): terminals act on some of them
      escape_byte(static_cast<unsigned char>(text[i + 1]));
      i += 2;
      continue;
    } else {
      out.append(text.substr(i, length));
      i += length;
      continue;
    }
    ++i;
  }
  return out;
}

std::string quote_input(std::string_view text, std::size_t max_length) {
  const bool cut = text.size() > max_length;
  std::size_t end = text.size();
  if (cut) {
    // The last character boundary at or before max_length: a character that byte max_length
    // falls inside is left out whole.
    end = max_length;
    if (end > 0) {
      const auto [start, length] = character_span(text, end);
      if (start < end) end = start;
    }
  }
  // Appended piece by piece: `"'" + std::string` trips GCC 12's false -Wrestrict (bug 105651).
  std::string out(1, '\'');
  out.append(escape_control(text.substr(0, end)));
  out.append(cut ? "...'" : "'");
  return out;
}

std::string shorten_message(std::string_view message, std::size_t max_length) {
  if (message.size() <= max_length) return std::string(message);
  std::size_t end = max_length;
  const auto [start, length] = character_span(message, end);
  if (start < end) end = start;
  std::string out(message.substr(0, end));
  out.append("...");
  return out;
}

std::string_view character_at(std::string_view text, std::size_t at) {
  if (at >= text.size()) return {};
  const auto [start, length] = character_span(text, at);
  return text.substr(start, length);
}

std::string quote_character(std::string_view text, std::size_t at) {
  return quote_input(character_at(text, at));
}

}  // namespace rastros
