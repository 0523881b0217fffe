#include "serve/api.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

#include "analysis_output.hpp"
#include "core/errors.hpp"
#include "map_output.hpp"
#include "options.hpp"
#include "rastros/notation.hpp"
#include "serve/congkak_api.hpp"
#include "serve/kalah_api.hpp"
#include "serve/oware_api.hpp"
#include "serve/reversi_api.hpp"
#include "serve/lru_cache.hpp"

namespace rastros::tools::serve {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string decode_component(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%') {
      const int high = i + 2 < text.size() ? hex_digit(text[i + 1]) : -1;
      const int low = i + 2 < text.size() ? hex_digit(text[i + 2]) : -1;
      if (high < 0 || low < 0) throw InputError("malformed %-escape in the query string");
      out += static_cast<char>(high * 16 + low);
      i += 2;
    } else {
      out += c;
    }
  }
  for (unsigned char c : out) {
    if (c < 0x20 || c > 0x7e) {
      throw InputError("the query string holds a character outside printable ASCII");
    }
  }
  return out;
}

VariantOptions variant_of(const Parameters& parameters) {
  VariantOptions variant;
  variant.board = parameters.get_or("board", variant.board);
  variant.start = parameters.get("start");
  variant.rules = parameters.get_or("rules", variant.rules);
  variant.steps = parameters.get_or("steps", variant.steps);
  return variant;
}

bool same_game(const Rastros& a, const Rastros& b) {
  return a.board().width() == b.board().width() && a.board().height() == b.board().height() &&
         a.board().steps() == b.board().steps() && a.start() == b.start() &&
         a.stuck_rule() == b.stuck_rule();
}

std::string game_key(const Rastros& rastros) {
  return rastros.board().name() + " " + std::string(steps_name(rastros.board().steps())) + " " +
         std::string(rules_name(rastros.stuck_rule()));
}

std::string content_type_of(const std::filesystem::path& path) {
  const std::string extension = path.extension().string();
  if (extension == ".html") return "text/html; charset=utf-8";
  if (extension == ".js") return "text/javascript; charset=utf-8";
  if (extension == ".css") return "text/css; charset=utf-8";
  if (extension == ".png") return "image/png";
  if (extension == ".svg") return "image/svg+xml";
  if (extension == ".ico") return "image/x-icon";
  return "";
}

std::string budget_message(double seconds) {
  std::ostringstream out;
  out << "search over its time budget of " << seconds
      << " s (rastros serve --max-seconds; a database for this board answers at once)";
  return out.str();
}

}  // namespace

std::map<std::string, std::string> parse_query(std::string_view query) {
  std::map<std::string, std::string> parameters;
  while (!query.empty()) {
    const std::size_t end = std::min(query.find('&'), query.size());
    const std::string_view pair = query.substr(0, end);
    query.remove_prefix(std::min(end + 1, query.size()));
    if (pair.empty()) continue;
    const std::size_t equals = pair.find('=');
    std::string name = decode_component(pair.substr(0, equals));
    if (name.empty()) throw InputError("a query parameter has no name");
    // A bare name would otherwise read as an empty value, which means "the default".
    if (equals == std::string_view::npos) {
      throw InputError("parameter " + quote_input(name) + " has no value (write " +
                       escape_control(name) + "=...)");
    }
    std::string value = decode_component(pair.substr(equals + 1));
    if (parameters.count(name)) throw InputError("parameter " + quote_input(name) + " given twice");
    parameters.emplace(std::move(name), std::move(value));
  }
  return parameters;
}

/// A loaded database and its query object (which refers to it: both stay put).
struct Api::Loaded {
  Loaded(DatabaseReader loaded, std::string file_name)
      : database(std::move(loaded)), query(database), name(std::move(file_name)) {}
  DatabaseReader database;
  DatabaseQuery query;
  std::string name;
};

/// Search results by game and position (or map), least recently used dropped first.
struct RastrosCacheEntry {
  std::optional<Analysis> analysis;
  std::vector<StartSquareOutcome> map;
};
struct Api::Cache : LruCache<RastrosCacheEntry> {
  using Entry = RastrosCacheEntry;
  using LruCache::LruCache;
};

/// One of the max_searches slots, held for the life of the object; `acquired` is false when
/// the deadline passed (or the server stopped) before a slot came free.
class Api::SearchSlot {
 public:
  SearchSlot(Api& api, Clock::time_point deadline) : api_(api) {
    std::unique_lock lock(api_.slots_mutex_);
    acquired_ = api_.slots_free_.wait_until(lock, deadline, [&] {
      return api_.stopped_.load() || api_.searches_running_ < api_.options_.max_searches;
    });
    acquired_ = acquired_ && !api_.stopped_.load();
    if (acquired_) ++api_.searches_running_;
  }
  ~SearchSlot() {
    if (!acquired_) return;
    {
      const std::lock_guard lock(api_.slots_mutex_);
      --api_.searches_running_;
    }
    api_.slots_free_.notify_one();
  }
  SearchSlot(const SearchSlot&) = delete;
  SearchSlot& operator=(const SearchSlot&) = delete;
  bool acquired() const { return acquired_; }

 private:
  Api& api_;
  bool acquired_ = false;
};

void check_api_options(const ApiOptions& options) {
  // One pool thread per search slot, and a deadline of received + max_seconds on the steady
  // clock: beyond these bounds the threads cannot be made or the deadline overflows.
  if (options.max_searches < 1 || options.max_searches > kMaxSearchesCeiling) {
    throw InputError("--max-searches must be between 1 and " +
                     std::to_string(kMaxSearchesCeiling) + ", not " +
                     std::to_string(options.max_searches));
  }
  if (!(options.max_seconds > 0 && options.max_seconds <= kMaxSearchSeconds)) {
    throw InputError("--max-seconds must be more than 0 and at most " +
                     std::to_string(static_cast<int>(kMaxSearchSeconds)) + " (a day)");
  }
}

Api::Api(std::vector<DatabaseReader> databases, std::vector<std::string> database_names,
         ApiOptions options)
    : options_(std::move(options)), cache_(std::make_unique<Cache>(options_.cache_entries)) {
  check_api_options(options_);
  for (std::size_t i = 0; i < databases.size(); ++i) {
    databases_.push_back(std::make_unique<Loaded>(
        std::move(databases[i]), i < database_names.size() ? database_names[i] : ""));
  }
}

Api::~Api() = default;

void Api::serve_kalah(KalahServe kalah) {
  kalah_ = std::make_unique<KalahApi>(*this, std::move(kalah));
}

void Api::serve_congkak(CongkakServe congkak) {
  congkak_ = std::make_unique<CongkakApi>(*this, std::move(congkak));
}

void Api::serve_oware(OwareServe oware) {
  oware_ = std::make_unique<OwareApi>(*this, std::move(oware));
}

void Api::serve_reversi(ReversiServe reversi) {
  reversi_ = std::make_unique<ReversiApi>(*this, std::move(reversi));
}

void Api::with_search_slot(
    Clock::time_point received,
    const std::function<void(const std::atomic<bool>& stopped, Clock::time_point deadline)>&
        search) {
  const Clock::time_point until = deadline(received);
  const SearchSlot slot(*this, until);
  if (!slot.acquired()) throw SearchCancelled();
  search(stopped_, until);
}

void Api::stop() {
  stopped_.store(true);
  const std::lock_guard lock(slots_mutex_);
  slots_free_.notify_all();
}

Clock::time_point Api::deadline(Clock::time_point received) const {
  return received + std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double>(options_.max_seconds));
}

std::optional<Response> Api::answer_now(std::string_view method, std::string_view target,
                                        Clock::time_point received) {
  return respond(method, target, received, false);
}

Response Api::handle(std::string_view method, std::string_view target, Clock::time_point received) {
  return *respond(method, target, received, true);
}

std::optional<Response> Api::respond(std::string_view method, std::string_view target,
                                     Clock::time_point received, bool may_search) {
  if (target.size() > kMaxTargetLength) {
    return error_response(
        414, "request target longer than " + std::to_string(kMaxTargetLength) + " bytes");
  }
  if (method != "GET") {
    return error_response(405, "method " + std::string(method) + " not allowed: use GET");
  }
  const std::size_t question = target.find('?');
  const std::string_view path = target.substr(0, question);
  const std::string_view query =
      question == std::string_view::npos ? std::string_view() : target.substr(question + 1);
  try {
    if (path.starts_with("/api/")) {
      const std::map<std::string, std::string> parameters = parse_query(query);
      if (kalah_ && path.starts_with("/api/kalah/")) {
        return kalah_->respond(path, parameters, received, may_search);
      }
      if (congkak_ && path.starts_with("/api/congkak/")) {
        return congkak_->respond(path, parameters, received, may_search);
      }
      if (oware_ && path.starts_with("/api/oware/")) {
        return oware_->respond(path, parameters, received, may_search);
      }
      if (reversi_ && path.starts_with("/api/reversi/")) {
        return reversi_->respond(path, parameters, received, may_search);
      }
      if (path == "/api/solve") return solve(parameters, received, may_search);
      if (path == "/api/map") return map(parameters, received, may_search);
      if (path == "/api/info") {
        Parameters(parameters, {}, "/api/info");
        return info();
      }
      return error_response(404, "no such endpoint: " + std::string(path) +
                                     " (try /api/solve, /api/map or /api/info)");
    }
    return file(path);
  } catch (const InputError& error) {
    return error_response(400, error.what());
  } catch (const SearchCancelled&) {
    return error_response(503,
                          stopped_ ? "server shutting down" : budget_message(options_.max_seconds));
  } catch (const std::bad_alloc&) {
    return error_response(503, "out of memory for this search");
  } catch (const std::exception& error) {
    return error_response(500, std::string("internal error: ") + error.what());
  }
}

std::optional<Response> Api::solve(const std::map<std::string, std::string>& values,
                                   Clock::time_point received, bool may_search) {
  const Parameters parameters(values, {"board", "start", "rules", "steps", "moves", "position"},
                              "/api/solve");
  // Read as the command line and batch lines are (rastros/input.hpp).
  const PositionInput input =
      resolve_input(variant_of(parameters), parameters.get("moves"), parameters.get("position"));
  const Board& board = input.rastros.board();

  for (const auto& loaded : databases_) {
    if (!same_game(loaded->query.game(), input.rastros)) continue;
    if (const std::optional<DatabaseAnswer> answer = loaded->query.answer(input.position)) {
      const Analysis analysis{answer->outcome, answer->best_moves, answer->children, 0};
      return json_response(
          200, analysis_json({input, analysis, seconds_since(received), false, "database"}));
    }
  }
  const std::string key =
      "solve " + game_key(input.rastros) + " " + position_string(board, input.position);
  const auto from_cache = [&]() -> std::optional<Response> {
    if (const std::optional<Cache::Entry> entry = cache_->find(key)) {
      return json_response(
          200, analysis_json({input, *entry->analysis, seconds_since(received), false, "search"}));
    }
    return std::nullopt;
  };
  if (auto cached = from_cache()) return cached;
  if (!may_search) return std::nullopt;

  const Clock::time_point until = deadline(received);
  const SearchSlot slot(*this, until);
  if (!slot.acquired()) throw SearchCancelled();
  // Another request may have searched the same position while this one waited.
  if (auto cached = from_cache()) return cached;
  SolverOptions solver_options;
  solver_options.table_bytes = options_.table_bytes;
  Solver solver(input.rastros, solver_options, {&stopped_, until});
  const Analysis analysis = solver.analyse(input.position);
  cache_->store(key, {analysis, {}});
  return json_response(200,
                       analysis_json({input, analysis, seconds_since(received), false, "search"}));
}

std::optional<Response> Api::map(const std::map<std::string, std::string>& values,
                                 Clock::time_point received, bool may_search) {
  const Parameters parameters(values, {"board", "rules", "steps", "value_only"}, "/api/map");
  const bool value_only = parameters.flag("value_only");
  const Rastros rastros = resolve_map_variant(variant_of(parameters));
  const std::string key = "map " + game_key(rastros) + (value_only ? " value-only" : "");
  const auto respond_with = [&](const Cache::Entry& entry) {
    Json json = map_json(rastros, entry.map, value_only);
    json.set("seconds", seconds_since(received)).set("source", "search");
    return json_response(200, json);
  };
  if (const std::optional<Cache::Entry> entry = cache_->find(key)) return respond_with(*entry);
  if (!may_search) return std::nullopt;

  const Clock::time_point until = deadline(received);
  const SearchSlot slot(*this, until);
  if (!slot.acquired()) throw SearchCancelled();
  if (const std::optional<Cache::Entry> entry = cache_->find(key)) return respond_with(*entry);
  SolverOptions solver_options;
  solver_options.value_only = value_only;
  solver_options.table_bytes =
      value_only ? std::min(options_.table_bytes, default_table_bytes(true)) : options_.table_bytes;
  Solver solver(rastros, solver_options, {&stopped_, until});
  Cache::Entry entry{std::nullopt, solve_start_map(rastros, solver)};
  cache_->store(key, entry);
  return respond_with(entry);
}

Response Api::info() const {
  Json databases = Json::array();
  for (const auto& loaded : databases_) {
    Json entry = variant_json(loaded->query.game());
    entry.set("file", loaded->name)
        .set("kind", kind_name(loaded->database.header().kind))
        .set("positions", static_cast<std::uint64_t>(loaded->database.size()));
    databases.push(entry);
  }
  Json json = Json::object();
  json.set("databases", databases)
      .set("max_seconds", options_.max_seconds)
      .set("max_searches", options_.max_searches);
  return json_response(200, json);
}

Response Api::file(std::string_view path) const {
  const Response not_found{404, "text/plain; charset=utf-8", "not found\n"};
  std::string name(path != "/" ? std::string(path)
                   : kalah_   ? "/kalah.html"
                   : congkak_ ? "/congkak.html"
                   : oware_   ? "/oware.html"
                   : reversi_ ? "/reversi.html"
                              : "/index.html");
  name.erase(0, 1);
  // Only plain file names directly in the web root: no directories, no dot files.
  const bool plain =
      !name.empty() && name.front() != '.' && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '-' || c == '_' || c == '.';
      });
  if (options_.web_root.empty() || !plain) return not_found;
  const std::filesystem::path file = options_.web_root / name;
  const std::string type = content_type_of(file);
  if (type.empty()) return not_found;
  // A pipe or device under a page's name would hold an I/O thread forever.
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) return not_found;
  std::ifstream in(file, std::ios::binary);
  if (!in) return not_found;
  std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return {200, type, std::move(body)};
}

}  // namespace rastros::tools::serve
