#include "json.hpp"

#include <cmath>
#include <cstdio>

namespace rastros::tools {
namespace {

void write_string(std::string& out, const std::string& text) {
  out += '"';
  for (unsigned char c : text) {
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
