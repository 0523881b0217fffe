#include "games/mancala/mancala_batch_line.hpp"

#include "batch/score_batch_line.hpp"
#include "core/errors.hpp"

namespace rastros::mancala {

MancalaBatchText read_mancala_batch_line(std::string_view text, int default_houses,
                                         int default_seeds) {
  MancalaBatchText line{default_houses, default_seeds, std::nullopt, std::nullopt};
  std::string body = split_batch_line(text, [&](const std::string& name, const std::string& value) {
    if (name == "houses") {
      line.houses = batch_option_number(name, value);
    } else if (name == "seeds") {
      line.seeds = batch_option_number(name, value);
    } else {
      throw InputError("unknown option " + quote_input("--" + name, 40) +
                       " (a line takes --houses, --seeds)");
    }
  });
  if (body.find('/') != std::string::npos) {
    line.position = std::move(body);
  } else {
    line.moves = std::move(body);
  }
  return line;
}

}  // namespace rastros::mancala
