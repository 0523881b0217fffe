#include "games/kalah/kalah_batch_line.hpp"

#include <charconv>
#include <sstream>

#include "core/errors.hpp"

namespace rastros::kalah {

namespace {

int option_number(const std::string& name, const std::string& value) {
  int number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || end != value.data() + value.size()) {
    throw InputError("--" + name + " takes a number, not " + quote_input(value, 40));
  }
  return number;
}

KalahBatchJob parse_job(std::string_view text, const KalahVariantText& defaults) {
  KalahVariantText variant = defaults;
  std::istringstream words{std::string(text)};
  std::vector<std::string> rest;
  std::string word;
  while (words >> word) {
    if (!rest.empty() || word.rfind("--", 0) != 0) {
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
    if (name == "houses") {
      variant.houses = option_number(name, value);
    } else if (name == "seeds") {
      variant.seeds = option_number(name, value);
    } else if (name == "rules") {
      variant.rules = value;
    } else {
      throw InputError("unknown option " + quote_input("--" + name, 40) +
                       " (a line takes --houses, --seeds, --rules)");
    }
  }
  std::string body;
  for (const std::string& part : rest) {
    if (!body.empty()) body.append(" ");
    body.append(part);
  }
  return resolve_kalah_input(variant, body, body.find('/') != std::string::npos);
}

}  // namespace

KalahBatchLine parse_kalah_batch_line(std::string_view text, const KalahVariantText& defaults) {
  KalahBatchLine line;
  if (text.size() > kMaxKalahBatchLineBytes) {
    line.kind = KalahBatchLine::Kind::error;
    line.error = "line longer than " + std::to_string(kMaxKalahBatchLineBytes) + " bytes";
    return line;
  }
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos || text[first] == '#') return line;
  try {
    line.job = parse_job(text, defaults);
    line.kind = KalahBatchLine::Kind::job;
  } catch (const InputError& error) {
    line.kind = KalahBatchLine::Kind::error;
    line.error = error.what();
  } catch (const std::exception& error) {  // bad_alloc and the like: a message, never a crash
    line.kind = KalahBatchLine::Kind::error;
    line.error = std::string("cannot read the line: ") + error.what();
  }
  return line;
}

}  // namespace rastros::kalah
