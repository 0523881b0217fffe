#pragma once
// A small JSON value for command output: objects keep their keys in insertion order, so the
// printed key order is the contract order of docs/commands.md.

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace rastros::tools {

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() : value_(nullptr) {}
  Json(std::nullptr_t) : value_(nullptr) {}
  Json(bool value) : value_(value) {}
  Json(int value) : value_(static_cast<std::int64_t>(value)) {}
  Json(std::int64_t value) : value_(value) {}
  Json(std::uint64_t value) : value_(static_cast<std::int64_t>(value)) {}
  Json(double value) : value_(value) {}
  Json(const char* value) : value_(std::string(value)) {}
  Json(std::string value) : value_(std::move(value)) {}
  Json(std::string_view value) : value_(std::string(value)) {}
  Json(Array value) : value_(std::move(value)) {}

  static Json object() { return Json(Object{}); }
  static Json array() { return Json(Array{}); }

  /// Adds a key to an object (keys are not checked for duplicates).
  Json& set(std::string key, Json value);
  /// Adds a key to an object before all the others.
  Json& prepend(std::string key, Json value);
  /// Appends to an array.
  Json& push(Json value);

  std::string dump() const;

 private:
  explicit Json(Object value) : value_(std::move(value)) {}
  void write(std::string& out) const;
  std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, Array, Object> value_;
};

}  // namespace rastros::tools
