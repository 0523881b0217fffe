#include "games/kalah/kalah_batch_line.hpp"

#include "core/errors.hpp"

namespace rastros::kalah {

namespace {

KalahBatchJob parse_job(std::string_view text, const KalahVariantText& defaults) {
  KalahVariantText variant = defaults;
  const std::string body =
      split_batch_line(text, [&](const std::string& name, const std::string& value) {
        if (name == "houses") {
          variant.houses = batch_option_number(name, value);
        } else if (name == "seeds") {
          variant.seeds = batch_option_number(name, value);
        } else if (name == "rules") {
          variant.rules = value;
        } else {
          throw InputError("unknown option " + quote_input("--" + name, 40) +
                           " (a line takes --houses, --seeds, --rules)");
        }
      });
  return resolve_kalah_input(variant, body, body.find('/') != std::string::npos);
}

}  // namespace

KalahBatchLine parse_kalah_batch_line(std::string_view text, const KalahVariantText& defaults) {
  return parse_score_batch_line<KalahBatchJob>(
      text, [&](std::string_view line) { return parse_job(line, defaults); });
}

}  // namespace rastros::kalah
