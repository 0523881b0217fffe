#include "json.hpp"

#include <cmath>
#include <cstdio>

namespace rastros::tools {
namespace {

// The length of the well-formed UTF-8 sequence starting at text[at], or 0 if it is not one
// (stray continuation bytes, overlong forms, surrogates, beyond U+10FFFF, cut short).
std::size_t utf8_sequence_length(const std::string& text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;  // allowed range of the second byte
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;
    if (lead == 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;
    if (lead == 0xf4) high = 0x8f;
  } else {
    return 0;
  }
  if (at + length > text.size() || byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xbf) return 0;
  }
  return length;
}

// Writes `text` as a JSON string. Input the tools echo back (a bad batch line, a malformed
// square) may hold any bytes: bytes that are not well-formed UTF-8 become U+FFFD, so every
// line of output is valid JSON in UTF-8.
void write_string(std::string& out, const std::string& text) {
  out += '"';
  for (std::size_t at = 0; at < text.size(); ++at) {
    const unsigned char c = static_cast<unsigned char>(text[at]);
    if (c >= 0x80) {
      const std::size_t length = utf8_sequence_length(text, at);
      if (length == 0) {
        out += "\ufffd";
      } else {
        out.append(text, at, length);
        at += length - 1;
      }
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

}  // namespace

Json& Json::set(std::string key, Json value) {
  std::get<Object>(value_).emplace_back(std::move(key), std::move(value));
  return *this;
}

Json& Json::prepend(std::string key, Json value) {
  Object& object = std::get<Object>(value_);
  object.emplace(object.begin(), std::move(key), std::move(value));
  return *this;
}

Json& Json::push(Json value) {
  std::get<Array>(value_).push_back(std::move(value));
  return *this;
}

std::string Json::dump() const {
  std::string out;
  write(out);
  return out;
}

void Json::write(std::string& out) const {
  if (std::holds_alternative<std::nullptr_t>(value_)) {
    out += "null";
  } else if (const bool* flag = std::get_if<bool>(&value_)) {
    out += *flag ? "true" : "false";
  } else if (const std::int64_t* integer = std::get_if<std::int64_t>(&value_)) {
    out += std::to_string(*integer);
  } else if (const double* number = std::get_if<double>(&value_)) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", std::isfinite(*number) ? *number : 0.0);
    out += text;
  } else if (const std::string* text = std::get_if<std::string>(&value_)) {
    write_string(out, *text);
  } else if (const Array* array = std::get_if<Array>(&value_)) {
    out += '[';
    for (std::size_t i = 0; i < array->size(); ++i) {
      if (i) out += ", ";
      (*array)[i].write(out);
    }
    out += ']';
  } else {
    const Object& object = std::get<Object>(value_);
    out += '{';
    for (std::size_t i = 0; i < object.size(); ++i) {
      if (i) out += ", ";
      write_string(out, object[i].first);
      out += ": ";
      object[i].second.write(out);
    }
    out += '}';
  }
}

}  // namespace rastros::tools
