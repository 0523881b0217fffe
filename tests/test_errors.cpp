// Messages that quote input (core/errors): always one line and always valid UTF-8. Whole UTF-8
// characters are kept, control characters and bytes of no well-formed character are escaped,
// and a cut input ends before a character it would split.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

#include "core/errors.hpp"
#include "rastros/board.hpp"
#include "rastros/notation.hpp"

namespace rastros {
namespace {

// The length of the well-formed UTF-8 character at text[at], or 0: decoded, then checked
// against the code point's range (no overlong form, no surrogate, nothing past U+10FFFF).
// Written from the definition, independently of errors.cpp's byte-range table.
std::size_t utf8_character_length(std::string_view text, std::size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  std::size_t length = 0;
  std::uint32_t code = 0;
  if (lead < 0x80) return 1;
  if ((lead & 0xe0) == 0xc0) {
    length = 2;
    code = lead & 0x1f;
  } else if ((lead & 0xf0) == 0xe0) {
    length = 3;
    code = lead & 0x0f;
  } else if ((lead & 0xf8) == 0xf0) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    const auto byte = static_cast<unsigned char>(text[at + k]);
    if ((byte & 0xc0) != 0x80) return 0;
    code = code << 6 | (byte & 0x3f);
  }
  static constexpr std::uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kSmallest[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  return length;
}

bool is_valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_character_length(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

// Valid UTF-8 without a control character (C0, DEL or C1): what escape_control keeps as it is.
bool is_plain_text(std::string_view text) {
  if (!is_valid_utf8(text)) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte == 0x7f) return false;
    if (byte == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0) return false;
  }
  return true;
}

// A random string of `length` bytes, often built from pieces of UTF-8 (lead bytes, continuation
// bytes, whole characters) so that near-valid sequences come up as often as plain noise.
std::string random_bytes(std::mt19937& random, std::size_t length) {
  static constexpr std::string_view kPieces[] = {
      "a", "\n", "\x01", "\x7f", "\xc3\xbf", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc2\x85",
      "\xc3", "\xe2\x82", "\xf0\x9f\x98", "\x80", "\xbf", "\xc0\xaf", "\xed\xa0\x80",
      "\xf4\x90\x80\x80", "\xef\xbf\xbf", "\xf4\x8f\xbf\xbf", "\xff", "\xfe"};
  std::string text;
  while (text.size() < length) {
    if (random() % 2 == 0) {
      text += static_cast<char>(random() % 256);
    } else {
      text += kPieces[random() % std::size(kPieces)];
    }
  }
  text.resize(length);
  return text;
}

TEST(Errors, ValidUtf8IsKept) {
  for (const std::string_view text :
       {"d4 '\\' \xc3\xa9", "7/7/7\xc3\xbf/3o3/7/7/7 1", "\xe2\x82\xac 10", "\xf0\x9f\x98\x80!",
        "\xc2\xa0\xc2\xbf", "\xed\x9f\xbf\xee\x80\x80", "\xef\xbf\xbd\xef\xbf\xbf",
        "\xf4\x8f\xbf\xbf", "\xe0\xa0\x80\xf0\x90\x80\x80"}) {
    ASSERT_TRUE(is_valid_utf8(text)) << text;
    EXPECT_EQ(escape_control(text), text);
    EXPECT_EQ(quote_input(text), "'" + std::string(text) + "'");
  }
}

TEST(Errors, ControlCharactersAreEscaped) {
  EXPECT_EQ(escape_control("a\nb\tc\x7f\x01"), "a\\nb\\x09c\\x7f\\x01");
  EXPECT_EQ(escape_control(std::string_view("\0z", 2)), "\\x00z");
  // The C1 controls (U+0080..U+009F) byte by byte: NEL and CSI mean something to terminals.
  EXPECT_EQ(escape_control("a\xc2\x85z\xc2\x9b"), "a\\xc2\\x85z\\xc2\\x9b");
  EXPECT_EQ(escape_control("\xc2\xa0"), "\xc2\xa0");  // U+00A0, the first character after them
}

TEST(Errors, InvalidBytesAreEscaped) {
  EXPECT_EQ(escape_control("7\xc3/"), "7\\xc3/");                        // a lead byte alone
  EXPECT_EQ(escape_control("\xc3"), "\\xc3");                             // ... at the end
  EXPECT_EQ(escape_control("\xbf\x80"), "\\xbf\\x80");                    // stray continuations
  EXPECT_EQ(escape_control("\xff\xfe\xf5"), "\\xff\\xfe\\xf5");           // never in UTF-8
  EXPECT_EQ(escape_control("\xc0\xaf\xc1\xbf"), "\\xc0\\xaf\\xc1\\xbf");  // overlong 2 bytes
  EXPECT_EQ(escape_control("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");           // overlong 3 bytes
  EXPECT_EQ(escape_control("\xf0\x8f\xbf\xbf"), "\\xf0\\x8f\\xbf\\xbf");  // overlong 4 bytes
  EXPECT_EQ(escape_control("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a surrogate
  EXPECT_EQ(escape_control("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
  EXPECT_EQ(escape_control("\xe2\x82z"), "\\xe2\\x82z");                  // cut short
  EXPECT_EQ(escape_control("\xf0\x9f\x98"), "\\xf0\\x9f\\x98");           // ... at the end
  // A bad byte does not swallow the good character after it.
  EXPECT_EQ(escape_control("\xe2\xc3\xbf"), "\\xe2\xc3\xbf");
  EXPECT_EQ(escape_control("\xc3\xbf\xbf"), "\xc3\xbf\\xbf");
  EXPECT_EQ(quote_input("a\xff"), "'a\\xff'");
}

TEST(Errors, ACutNeverSplitsACharacter) {
  EXPECT_EQ(quote_input("abcdef", 3), "'abc...'");
  EXPECT_EQ(quote_input("a\nbcdef", 3), "'a\\nb...'");
  EXPECT_EQ(quote_input("abc", 3), "'abc'");
  // 'a', then U+00FF in bytes 1..2: a cut after byte 2 leaves it out whole.
  EXPECT_EQ(quote_input("a\xc3\xbf" "b", 1), "'a...'");
  EXPECT_EQ(quote_input("a\xc3\xbf" "b", 2), "'a...'");
  EXPECT_EQ(quote_input("a\xc3\xbf" "b", 3), "'a\xc3\xbf...'");
  // A 4-byte character: every cut inside it leaves it out.
  const std::string emoji = "\xf0\x9f\x98\x80" "z";
  for (std::size_t cut = 0; cut < 4; ++cut) EXPECT_EQ(quote_input(emoji, cut), "'...'") << cut;
  EXPECT_EQ(quote_input(emoji, 4), "'\xf0\x9f\x98\x80...'");
  // Bytes of no character are cut one by one, as they are escaped.
  EXPECT_EQ(quote_input("\xff\xc3" "abc", 1), "'\\xff...'");
  EXPECT_EQ(quote_input("\xff\xc3" "abc", 2), "'\\xff\\xc3...'");
  EXPECT_EQ(quote_input("\xe2\x82" "abc", 1), "'\\xe2...'");
}

TEST(Errors, LongInputIsQuotedInPart) {
  // A 128 KiB argument is not repeated whole; a position string (at most 97 bytes) still is.
  const std::string huge(128 << 10, 'x');
  EXPECT_EQ(quote_input(huge), "'" + std::string(kQuotedInputBytes, 'x') + "...'");
  const std::string position(97, 'x');
  EXPECT_EQ(quote_input(position), "'" + position + "'");
  EXPECT_EQ(shorten_message(huge, 10), "xxxxxxxxxx...");
  EXPECT_EQ(shorten_message("short", 10), "short");
  EXPECT_EQ(shorten_message("ab\xc3\xbf", 3), "ab...");  // never inside a character
}

TEST(Errors, CharacterAtNamesTheWholeCharacter) {
  const std::string_view text = "7\xc3\xbf/\xf0\x9f\x98\x80\xff\x80q";
  EXPECT_EQ(character_at(text, 0), "7");
  EXPECT_EQ(character_at(text, 1), "\xc3\xbf");
  EXPECT_EQ(character_at(text, 2), "\xc3\xbf");  // a byte inside a character: all of it
  for (std::size_t at = 4; at < 8; ++at) EXPECT_EQ(character_at(text, at), "\xf0\x9f\x98\x80");
  EXPECT_EQ(character_at(text, 8), "\xff");
  EXPECT_EQ(character_at(text, 9), "\x80");  // a stray continuation byte alone
  EXPECT_EQ(character_at(text, 10), "q");
  EXPECT_EQ(character_at(text, 11), "");
  EXPECT_EQ(quote_character(text, 1), "'\xc3\xbf'");
  EXPECT_EQ(quote_character(text, 9), "'\\x80'");
  EXPECT_EQ(quote_character("a\nb", 1), "'\\n'");
}

// Every string of up to two bytes, and random strings up to 40: the output is valid UTF-8 on one
// line, it equals the input exactly when the input is plain text, and a cut quote_input makes
// falls on a character boundary (escaping the part kept and the part left gives the whole).
void check_escaping(const std::string& text, std::size_t max_length) {
  const std::string escaped = escape_control(text);
  ASSERT_TRUE(is_valid_utf8(escaped)) << escaped;
  ASSERT_EQ(escaped.find('\n'), std::string::npos) << escaped;
  ASSERT_EQ(escaped == text, is_plain_text(text)) << escaped;
  const std::string quoted = quote_input(text, max_length);
  ASSERT_TRUE(is_valid_utf8(quoted)) << quoted;
  if (text.size() <= max_length) {
    ASSERT_EQ(quoted, "'" + escaped + "'");
    return;
  }
  ASSERT_GE(quoted.size(), 5U);
  ASSERT_EQ(quoted.substr(quoted.size() - 4), "...'");
  const std::string kept = quoted.substr(1, quoted.size() - 5);
  // The kept prefix is the escaping of text's first `end` bytes, for an end at or before the cut
  // and at most 3 bytes before it (a character is at most 4 bytes long).
  bool found = false;
  for (std::size_t back = 0; back < 4 && back <= max_length && !found; ++back) {
    const std::size_t end = max_length - back;
    if (escape_control(text.substr(0, end)) != kept) continue;
    found = true;
    // A boundary: the two parts escape to the whole.
    ASSERT_EQ(kept + escape_control(text.substr(end)), escaped) << "cut at " << end;
  }
  ASSERT_TRUE(found) << "quote_input(..., " << max_length << ") kept '" << kept << "'";
}

TEST(Errors, OutputIsAlwaysValidUtf8) {
  for (int first = 0; first < 256; ++first) {
    check_escaping(std::string(1, static_cast<char>(first)), 1);
    for (int second = 0; second < 256; ++second) {
      const std::string text{static_cast<char>(first), static_cast<char>(second)};
      check_escaping(text, 1);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  std::mt19937 random(20240601);
  for (int round = 0; round < 20000; ++round) {
    const std::string text = random_bytes(random, random() % 41);
    check_escaping(text, random() % 44);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// The report that started this: a position with U+00FF in it. Its message is valid UTF-8 and
// quotes the position whole.
TEST(Errors, PositionMessageIsValidUtf8) {
  const std::string position = "7/7/7\xc3\xbf/3o3/7/7/7 1";
  try {
    parse_position(Board(7, 7), position);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_TRUE(is_valid_utf8(message)) << message;
    EXPECT_NE(message.find("'" + position + "'"), std::string::npos) << message;
    EXPECT_NE(message.find("unexpected character"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace rastros
