#include "score_database_output.hpp"

#include <iostream>

namespace rastros::tools {

void add_database_options(po::options_description& description, std::string& file, bool& json,
                          const std::string& written_by) {
  const std::string db_help = "a strong database written by " + written_by;
  description.add_options()("db", po::value(&file)->required(), db_help.c_str())(
      "json", po::bool_switch(&json), "print one JSON object")("quiet", po::bool_switch(),
                                                               "accepted for uniformity");
}

int print_database_verify(Json head, std::uint64_t positions,
                          const std::optional<std::string>& problem, bool json) {
  if (json) {
    head.set("positions", positions).set("ok", !problem);
    if (problem) head.set("problem", *problem);
    std::cout << head.dump() << "\n";
  } else if (problem) {
    std::cout << "verify: FAILED at " << *problem << "\n";
  } else {
    std::cout << "verify: ok, " << positions << " positions recomputed\n";
  }
  return problem ? 1 : 0;
}

void print_database_stats(Json head, const std::string& group, std::uint64_t positions,
                          const std::vector<engine::ScoreCounts>& counts, bool json) {
  Json groups = Json::array();
  for (const engine::ScoreCounts& entry : counts) {
    std::uint64_t total = 0, ahead = 0, level = 0, behind = 0;
    Json by_score = Json::object();
    for (const auto& [score, n] : entry.by_score) {
      total += n;
      (score > 0 ? ahead : score < 0 ? behind : level) += n;
      by_score.set(std::to_string(score), n);
    }
    if (json) {
      Json item = Json::object();
      item.set(group, entry.group).set("positions", total).set("by_score", by_score);
      groups.push(item);
    } else {
      std::cout << group << " " << entry.group << ": " << total
                << " positions, score > 0: " << ahead << ", 0: " << level << ", < 0: " << behind
                << "\n";
    }
  }
  if (json) {
    head.set("positions", positions).set("by_" + group, groups);
    std::cout << head.dump() << "\n";
  }
}

}  // namespace rastros::tools
