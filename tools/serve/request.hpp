#pragma once
// What every endpoint of `rastros serve` shares, whichever game it answers: the response, JSON
// and error responses, the query string decoded, and its parameters checked against the names
// an endpoint knows. The games' handlers (api.cpp for Rastros, kalah_api.cpp) parse nothing
// themselves.

#include <algorithm>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "json.hpp"

namespace rastros::tools::serve {

struct Response {
  unsigned status = 200;
  std::string content_type = "application/json";
  std::string body;
};

inline Response json_response(unsigned status, const Json& json) {
  return {status, "application/json", json.dump()};
}

inline Response error_response(unsigned status, const std::string& message) {
  Json json = Json::object();
  json.set("error", message);
  return json_response(status, json);
}

/// Decodes a query string ("a=1&b=c3+b2"): '+' is a space, %XX a byte. Throws InputError on a
/// malformed escape, a repeated name, or a byte outside printable ASCII.
std::map<std::string, std::string> parse_query(std::string_view query);

/// The parameters of a request, checked against the names an endpoint knows: an unknown name
/// throws InputError listing the known ones.
class Parameters {
 public:
  Parameters(const std::map<std::string, std::string>& values,
             std::initializer_list<std::string_view> known, std::string_view endpoint)
      : Parameters(values, std::vector<std::string_view>(known), endpoint) {}
  Parameters(const std::map<std::string, std::string>& values,
             const std::vector<std::string_view>& known, std::string_view endpoint)
      : values_(values) {
    for (const auto& [name, value] : values) {
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        std::string list;
        for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
        throw InputError("unknown parameter " + quote_input(name) + " for " +
                         std::string(endpoint) + " (known: " + list + ")");
      }
    }
  }
  /// The value, or nothing when absent or empty.
  std::optional<std::string> get(const std::string& name) const {
    const auto found = values_.find(name);
    if (found == values_.end() || found->second.empty()) return std::nullopt;
    return found->second;
  }
  std::string get_or(const std::string& name, std::string fallback) const {
    return get(name).value_or(std::move(fallback));
  }
  bool flag(const std::string& name) const {
    const std::optional<std::string> value = get(name);
    if (!value || *value == "0" || *value == "false") return false;
    if (*value == "1" || *value == "true") return true;
    throw InputError("parameter " + name + " must be 1, 0, true or false, not " +
                     quote_input(*value));
  }

 private:
  const std::map<std::string, std::string>& values_;
};

}  // namespace rastros::tools::serve
