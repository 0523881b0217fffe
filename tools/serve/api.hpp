#pragma once
// The request handler of `rastros serve`, without sockets: a method and a request target in,
// a status, a content type and a body out. The HTTP server (http_server.hpp) only moves bytes.
//
//   GET /api/solve?board=7x7&start=d4&rules=standard&steps=king&moves=c3+b2   (or position=...)
//       the JSON of `rastros solve --json` plus "source": "database" or "search"
//   GET /api/map?board=5x5&rules=standard&steps=king[&value_only=1]
//       the JSON of `rastros map --json` plus "source": "search"
//   GET /api/info      the loaded databases and the server's limits
//   GET /api/kalah/... when serving Kalah (serve_kalah; kalah_api.hpp), and / is kalah.html
//   GET /api/congkak/..., /api/oware/... likewise (congkak_api.hpp, oware_api.hpp: the mancala
//       games share mancala_api.hpp), / is congkak.html, oware.html
//   GET /api/reversi/... likewise for Reversi (reversi_api.hpp), / is reversi.html
//   GET /, /app.js...  the page's files, from the web root
//
// Bad parameters get 400 and {"error": "..."}; a search that cannot finish within the time
// budget (counted from the request's arrival, so time spent queueing counts) gets 503. At most
// `max_searches` searches run at once; the others wait for a slot. Database answers, errors,
// files and results already searched (kept in a small cache) never wait: answer_now gives them.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/database_file.hpp"
#include "db/database_query.hpp"
#include "db/database_reader.hpp"
#include "search/solver.hpp"
#include "search/start_map.hpp"
#include "serve/request.hpp"

namespace rastros::tools::serve {

using Clock = std::chrono::steady_clock;

template <class Rules>
class MancalaApi;
struct KalahRules;
struct KalahServe;
struct CongkakRules;
struct CongkakServe;
struct OwareRules;
struct OwareServe;
class ReversiApi;
struct ReversiServe;

/// Seconds from `start` to now: a request's time so far.
inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct ApiOptions {
  /// Time budget of a request that needs a search, from its arrival.
  double max_seconds = 10;
  /// Searches running at once; the others wait.
  int max_searches = 2;
  /// Transposition table of each search.
  std::size_t table_bytes = std::size_t{32} << 20;
  /// The page's files; empty: no files are served.
  std::filesystem::path web_root;
  /// Search results kept (answers and maps), least recently used dropped first.
  std::size_t cache_entries = 4096;
};

/// The bounds check_api_options enforces (docs/commands.md, serve).
inline constexpr int kMaxSearchesCeiling = 1024;
inline constexpr double kMaxSearchSeconds = 86400;
/// Throws InputError naming the option when max_searches or max_seconds is out of bounds.
void check_api_options(const ApiOptions& options);

/// Longest request target accepted (414 beyond).
inline constexpr std::size_t kMaxTargetLength = 2048;

class Api {
 public:
  /// `databases` are answered from, each for the game of its header. Throws FileError when a
  /// header describes a game this build cannot play.
  /// (A DatabaseReader answers from a file a block at a time, or from a Database in memory.)
  Api(std::vector<DatabaseReader> databases, std::vector<std::string> database_names,
      ApiOptions options);
  ~Api();
  Api(const Api&) = delete;
  Api& operator=(const Api&) = delete;

  /// The response when it needs no search (files, errors, database answers, cached results);
  /// nothing when it does. Fast and thread-safe.
  std::optional<Response> answer_now(std::string_view method, std::string_view target,
                                     Clock::time_point received = Clock::now());

  /// The response to any request, searching when needed: blocks, waiting for a search slot
  /// when all are busy. 503 once `received` + max_seconds has passed. Thread-safe.
  Response handle(std::string_view method, std::string_view target,
                  Clock::time_point received = Clock::now());

  /// Cancels the running searches and refuses new ones (503): for shutting down.
  void stop();

  const ApiOptions& options() const { return options_; }

  /// Answers /api/kalah/ (kalah_api.hpp) for `kalah`'s variant too, and serves kalah.html as
  /// the page. Call before serving.
  void serve_kalah(KalahServe kalah);
  /// Likewise /api/congkak/ (congkak_api.hpp) and congkak.html.
  void serve_congkak(CongkakServe congkak);
  /// Likewise /api/oware/ (oware_api.hpp) and oware.html.
  void serve_oware(OwareServe oware);
  /// Likewise /api/reversi/ (reversi_api.hpp) and reversi.html.
  void serve_reversi(ReversiServe reversi);

  /// For the games' handlers: runs `search` holding one of the max_searches slots, given the
  /// flag stop() sets and the request's deadline (received + max_seconds). Throws
  /// SearchCancelled when no slot came free before the deadline or the server stopped.
  void with_search_slot(
      Clock::time_point received,
      const std::function<void(const std::atomic<bool>& stopped, Clock::time_point deadline)>&
          search);

 private:
  struct Loaded;
  struct Cache;
  class SearchSlot;

  std::optional<Response> respond(std::string_view method, std::string_view target,
                                  Clock::time_point received, bool may_search);
  std::optional<Response> solve(const std::map<std::string, std::string>& parameters,
                                Clock::time_point received, bool may_search);
  std::optional<Response> map(const std::map<std::string, std::string>& parameters,
                              Clock::time_point received, bool may_search);
  Response info() const;
  Response file(std::string_view path) const;
  Clock::time_point deadline(Clock::time_point received) const;

  ApiOptions options_;
  std::vector<std::unique_ptr<Loaded>> databases_;
  std::unique_ptr<Cache> cache_;
  std::unique_ptr<MancalaApi<KalahRules>> kalah_;
  std::unique_ptr<MancalaApi<CongkakRules>> congkak_;
  std::unique_ptr<MancalaApi<OwareRules>> oware_;
  std::unique_ptr<ReversiApi> reversi_;
  std::atomic<bool> stopped_{false};
  std::mutex slots_mutex_;
  std::condition_variable slots_free_;
  int searches_running_ = 0;
};

}  // namespace rastros::tools::serve
