#include "batch/score_batch_line.hpp"

#include <charconv>
#include <sstream>
#include <vector>

namespace rastros {

std::string split_batch_line(
    std::string_view text,
    const std::function<void(const std::string& name, const std::string& value)>& option,
    const std::function<bool(const std::string& word)>& is_option) {
  std::istringstream words{std::string(text)};
  std::vector<std::string> rest;
  std::string word;
  while (words >> word) {
    if (!rest.empty() || word.rfind("--", 0) != 0 || (is_option && !is_option(word))) {
      rest.push_back(word);
      continue;
    }
    std::string name = word.substr(2), value;
    if (const auto equals = name.find('='); equals != std::string::npos) {
      value = name.substr(equals + 1);
      name.resize(equals);
    } else if (!(words >> value)) {
      throw InputError("--" + name + " needs a value");
    }
    option(name, value);
  }
  std::string body;
  for (const std::string& part : rest) {
    if (!body.empty()) body.append(" ");
    body.append(part);
  }
  return body;
}

int batch_option_number(const std::string& name, const std::string& value) {
  int number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || end != value.data() + value.size()) {
    throw InputError("--" + name + " takes a number, not " + quote_input(value, 40));
  }
  return number;
}

bool skipped_batch_line(std::string_view text) {
  if (text.size() > kMaxScoreBatchLineBytes) return false;
  const std::size_t first = text.find_first_not_of(" \t\r");
  return first == std::string_view::npos || text[first] == '#';
}

}  // namespace rastros
