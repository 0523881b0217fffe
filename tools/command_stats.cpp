// `rastros stats`: a database's positions by value, by layer (region size) and by remoteness,
// as a text table, one JSON object, CSV for plotting, or an SVG picture.

#include <filesystem>
#include <iomanip>
#include <iostream>

#include "commands.hpp"
#include "core/errors.hpp"
#include "db/database_stats.hpp"
#include "db/strong_database.hpp"
#include "options.hpp"
#include "report/stats_svg.hpp"

namespace rastros::tools {
namespace {

std::uint64_t total(const ValueCounts& counts) {
  return counts[0] + counts[1] + counts[2];
}

constexpr int kLoss = static_cast<int>(Value::loss);
constexpr int kDraw = static_cast<int>(Value::draw);
constexpr int kWin = static_cast<int>(Value::win);

Json counts_json(const ValueCounts& counts) {
  Json json = Json::object();
  json.set("win", counts[kWin]).set("loss", counts[kLoss]).set("draw", counts[kDraw]);
  return json;
}

// Rows indexed by region size or remoteness; rows without positions are left out, so a plot
// of the JSON or CSV has no runs of zeros.
Json rows_json(const std::vector<ValueCounts>& rows, const char* index_name) {
  Json array = Json::array();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (total(rows[i]) == 0) continue;
    Json row = Json::object();
    row.set(index_name, static_cast<std::int64_t>(i));
    row.set("win", rows[i][kWin]).set("loss", rows[i][kLoss]).set("draw", rows[i][kDraw]);
    array.push(row);
  }
  return array;
}

void print_table(const char* title, const char* index_name, const std::vector<ValueCounts>& rows) {
  std::cout << "\n"
            << title << "\n"
            << std::setw(10) << index_name << std::setw(14) << "win" << std::setw(14) << "loss"
            << std::setw(14) << "draw" << std::setw(14) << "total\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (total(rows[i]) == 0) continue;
    std::cout << std::setw(10) << i << std::setw(14) << rows[i][kWin] << std::setw(14)
              << rows[i][kLoss] << std::setw(14) << rows[i][kDraw] << std::setw(13)
              << total(rows[i]) << "\n";
  }
}

// The picture's title: the file's name and what it holds.
std::string picture_title(const std::string& file, DatabaseKind kind, const Rastros& game) {
  const Board& board = game.board();
  std::string title = "Database " + std::filesystem::path(file).filename().string();
  title.append(": ").append(kind_name(kind)).append(", ").append(board.name()).append(", ");
  title.append(steps_name(board.steps())).append(" steps, ").append(rules_name(game.stuck_rule()));
  return title.append(" rules, start ").append(square_name(board, game.start()));
}

}  // namespace

int run_stats(const Arguments& arguments) {
  std::string file;
  bool json = false;
  bool csv = false;
  bool svg = false;
  po::options_description description("Options");
  description.add_options()("db", po::value(&file)->required(), "database file (.rdb)")(
      "json", po::bool_switch(&json), "print one JSON object")(
      "csv", po::bool_switch(&csv),
      "print CSV for plotting: table,index,win,loss,draw,total (table is value, layer or "
      "remoteness)")(
      "svg", po::bool_switch(&svg),
      "print an SVG picture: positions by layer and by remoteness as stacked bars");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros stats --db FILE [--json | --csv | --svg]\n"
                          "Counts a database's positions by value (for the side to move), by "
                          "layer (squares left in the\nsnail's region) and by remoteness (plies "
                          "to the end with perfect play).")) {
    return 0;
  }
  if (json + csv + svg > 1) throw InputError("give one of --json, --csv and --svg, not more");
  const Database database = read_database(file);
  const DatabaseHeader& header = database.header();
  const Rastros game = game_of(header);
  DatabaseStats stats = database_stats(database);
  const Board& board = game.board();
  // A proof database stores no remoteness: no table by remoteness rather than one of zeros.
  if (header.kind == DatabaseKind::proof) stats.by_remoteness.clear();

  if (json) {
    Json out = Json::object();
    out.set("board", board.name())
        .set("start", square_name(board, game.start()))
        .set("rules", rules_name(game.stuck_rule()))
        .set("steps", steps_name(board.steps()))
        .set("kind", kind_name(header.kind))
        .set("positions", stats.positions)
        .set("by_value", counts_json(stats.by_value))
        .set("by_layer", rows_json(stats.by_layer, "layer"))
        .set("by_remoteness", rows_json(stats.by_remoteness, "remoteness"));
    std::cout << out.dump() << "\n";
    return 0;
  }
  if (svg) {
    std::cout << report::stats_svg(stats, picture_title(file, header.kind, game));
    return 0;
  }
  if (csv) {
    std::cout << "table,index,win,loss,draw,total\n";
    const ValueCounts& v = stats.by_value;
    std::cout << "value,all," << v[kWin] << "," << v[kLoss] << "," << v[kDraw] << "," << total(v)
              << "\n";
    const auto rows = [](const char* table, const std::vector<ValueCounts>& counts) {
      for (std::size_t i = 0; i < counts.size(); ++i) {
        if (total(counts[i]) == 0) continue;
        std::cout << table << "," << i << "," << counts[i][kWin] << "," << counts[i][kLoss] << ","
                  << counts[i][kDraw] << "," << total(counts[i]) << "\n";
      }
    };
    rows("layer", stats.by_layer);
    rows("remoteness", stats.by_remoteness);
    return 0;
  }
  std::cout << "Database " << file << ": " << kind_name(header.kind) << ", board " << board.name()
            << ", " << steps_name(board.steps()) << " steps, " << rules_name(game.stuck_rule())
            << " rules, start " << square_name(board, game.start()) << "\n"
            << "Positions: " << stats.positions << " (win " << stats.by_value[kWin] << ", loss "
            << stats.by_value[kLoss] << ", draw " << stats.by_value[kDraw]
            << "; values for the side to move)\n";
  print_table("By layer (squares left in the snail's region):", "layer", stats.by_layer);
  if (header.kind == DatabaseKind::proof) {
    std::cout << "\nNo remoteness: a proof database stores values only (leaves of at most "
              << header.leaf_squares << " squares are left out).\n";
    return 0;
  }
  print_table("By remoteness (plies to the end; draws have none):", "remoteness",
              stats.by_remoteness);
  return 0;
}

}  // namespace rastros::tools
