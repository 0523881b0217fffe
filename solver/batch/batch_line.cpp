#include "batch/batch_line.hpp"

#include <algorithm>
#include <exception>
#include <vector>

#include "core/errors.hpp"

namespace rastros {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

// Splits off the first word of `rest` (which starts with a non-space) and returns it.
std::string_view take_word(std::string_view& rest) {
  std::size_t end = 0;
  while (end < rest.size() && !is_space(rest[end])) ++end;
  const std::string_view word = rest.substr(0, end);
  rest = trim(rest.substr(end));
  return word;
}

// Longest option word quoted whole in a message; longer ones are cut.
constexpr std::size_t kShownOptionBytes = 40;

// Reads the leading --name value / --name=value options into `variant`; returns the rest.
std::string_view read_options(std::string_view rest, VariantText& variant) {
  std::vector<std::string_view> seen;  // as on the command line, each option at most once
  while (rest.starts_with("--")) {
    std::string_view word = take_word(rest);
    std::string_view name = word.substr(2);
    std::optional<std::string_view> value;
    if (const std::size_t equals = name.find('='); equals != std::string_view::npos) {
      value = name.substr(equals + 1);
      name = name.substr(0, equals);
    } else if (!rest.empty()) {
      value = take_word(rest);
    }
    std::string* target = nullptr;
    if (name == "board") {
      target = &variant.board;
    } else if (name == "rules") {
      target = &variant.rules;
    } else if (name == "steps") {
      target = &variant.steps;
    } else if (name != "start") {
      throw InputError("unknown option " + quote_input(word, kShownOptionBytes) +
                       " (a line takes --board, --start, --rules, --steps)");
    }
    if (!value || value->empty())
      throw InputError("option --" + std::string(name) + " needs a value");
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      throw InputError("option --" + std::string(name) + " given more than once");
    }
    seen.push_back(name);
    if (target) {
      *target = std::string(*value);
    } else {
      variant.start = std::string(*value);
    }
  }
  return rest;
}

}  // namespace

BatchLine parse_batch_line(std::string_view text, const VariantText& defaults) {
  BatchLine line;
  // Before trimming: LineReader cuts a longer line to kMaxBatchLineBytes + 1 bytes, which may be
  // all blanks, and a cut game must never be solved as if it were whole.
  if (text.size() > kMaxBatchLineBytes) {
    line.kind = BatchLine::Kind::error;
    line.error = "line longer than " + std::to_string(kMaxBatchLineBytes) + " bytes";
    return line;
  }
  text = trim(text);
  if (text.empty() || text.front() == '#') return line;
  try {
    VariantText variant = defaults;
    const std::string_view rest = read_options(text, variant);
    line.job = resolve_input(variant, rest, rest.find('/') != std::string_view::npos);
    line.kind = BatchLine::Kind::job;
  } catch (const InputError& error) {
    line.kind = BatchLine::Kind::error;
    line.error = error.what();
  } catch (const std::exception& error) {
    // Anything else a parser might throw (std::bad_alloc aside, nothing should): still a bad
    // line, never a crash of the whole run.
    line.kind = BatchLine::Kind::error;
    line.error = std::string("cannot read the line: ") + error.what();
  }
  return line;
}

}  // namespace rastros
