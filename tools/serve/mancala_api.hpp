#pragma once
// The endpoints of every mancala game's page (`rastros serve --game kalah|congkak|oware`),
// under /api/<game>/:
//
//   GET /api/<game>/info                     the variant, its start, the database, limits
//   GET /api/<game>/solve?moves=1+3          (or position=...) the game's `solve --json`
//       plus "source": "database" or "search"
//   GET /api/<game>/moves?moves=...          the game's `show --json`
//   GET /api/<game>/play?moves=...&move=3    the position after the move and how it was sown
//
// The flow is shared: parameters checked, the variant (the server's, or with a game whose
// `kVariableVariant` is set the request's houses and seeds), answers that need no search at
// once, solved positions cached, searches in the Api's slots within its time budget. What
// differs is a Rules class (KalahRules, CongkakRules, OwareRules: the static functions called
// below), which only reads the library's answers and writes JSON.

#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "engine/score_solver.hpp"
#include "search/solver.hpp"
#include "serve/api.hpp"
#include "serve/lru_cache.hpp"
#include "serve/request.hpp"
#include "serve/stop_at_deadline.hpp"

namespace rastros::tools::serve {

/// A whole-number parameter, `fallback` when absent. Throws InputError on anything else.
inline int int_parameter(const Parameters& parameters, const std::string& name, int fallback) {
  const std::optional<std::string> text = parameters.get(name);
  if (!text) return fallback;
  int value = 0;
  const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc() || end != text->data() + text->size()) {
    throw InputError("parameter " + name + " must be a whole number, not " + quote_input(*text));
  }
  return value;
}

/// Runs `solve()` with `stop()` called at the request's deadline or when the server stops;
/// SearchCancelled (503) when it was.
template <class Solve, class Stop>
auto solve_by_deadline(Solve solve, Stop stop, const std::atomic<bool>& stopped,
                       Clock::time_point until) {
  try {
    const StopAtDeadline watch(stop, stopped, until);
    return solve();
  } catch (const engine::SearchStopped&) {
    throw SearchCancelled();
  }
}

template <class Rules>
class MancalaApi {
 public:
  using Serve = typename Rules::Serve;
  using Input = typename Rules::Input;
  using Solved = typename Rules::Solved;

  MancalaApi(Api& api, Serve serve)
      : api_(api), serve_(std::move(serve)), cache_(api.options().cache_entries) {}

  /// The response to /api/<game>/...; nothing when it needs a search and `may_search` is false.
  /// Throws InputError (400) and SearchCancelled (503) as the Api's own endpoints do.
  std::optional<Response> respond(std::string_view path,
                                  const std::map<std::string, std::string>& values,
                                  Clock::time_point received, bool may_search) {
    const std::string base = "/api/" + std::string(Rules::kName) + "/";
    const std::string_view endpoint = path.substr(std::min(path.size(), base.size()));
    if (endpoint == "info") {
      const Parameters parameters(
          values, Rules::kVariableVariant ? names({}) : std::vector<std::string_view>{}, path);
      return json_response(200, info(parameters));
    }
    if (endpoint == "solve") {
      return solve(Parameters(values, names({"moves", "position"}), path), received, may_search);
    }
    if (endpoint == "moves") {
      const Parameters parameters(values, names({"moves", "position"}), path);
      return json_response(200, Rules::show_json(input_of(parameters)));
    }
    if (endpoint == "play") {
      return play(Parameters(values, names({"moves", "position", "move"}), path));
    }
    return error_response(404, "no such endpoint: " + std::string(path) + " (try " + base +
                                   "solve, " + base + "moves, " + base + "play or " + base +
                                   "info)");
  }

 private:
  /// The variant's parameter names, then `more`.
  static std::vector<std::string_view> names(std::initializer_list<std::string_view> more) {
    std::vector<std::string_view> all(Rules::kVariantKeys.begin(), Rules::kVariantKeys.end());
    all.insert(all.end(), more);
    return all;
  }

  Input input_of(const Parameters& parameters) const {
    if constexpr (!Rules::kVariableVariant) {
      // The variant is the server's: a request may name it, to be sure, but not change it.
      for (const auto& [name, value] : Rules::served(serve_)) {
        const std::optional<std::string> given = parameters.get(std::string(name));
        if (given && *given != value) {
          throw InputError("this server plays " + Rules::variant_name(serve_) + ": " +
                           std::string(name) + "=" + quote_input(*given) +
                           " does not apply (start another with rastros serve --game " +
                           std::string(Rules::kName) + " --" + std::string(name) + " ...)");
        }
      }
    }
    return Rules::resolve(serve_, parameters);
  }

  std::optional<Response> solve(const Parameters& parameters, Clock::time_point received,
                                bool may_search) {
    const Input input = input_of(parameters);
    if (auto now = Rules::answer_now(serve_, input, seconds_since(received))) {
      return json_response(200, *now);
    }
    const std::string key = Rules::key(input);
    const auto answer = [&](const Solved& solved) {
      return json_response(200, Rules::answer_json(serve_, input, solved, seconds_since(received)));
    };
    if (const auto cached = cache_.find(key)) return answer(*cached);
    if (!may_search) return std::nullopt;
    std::optional<Solved> solved;
    api_.with_search_slot(received, [&](const std::atomic<bool>& stopped, Clock::time_point until) {
      // Another request may have solved the same position while this one waited.
      if (const auto cached = cache_.find(key)) {
        solved = *cached;
        return;
      }
      solved = Rules::search(serve_, api_.options(), input, stopped, until);
      cache_.store(key, *solved);
    });
    return answer(*solved);
  }

  Response play(const Parameters& parameters) const {
    const Input input = input_of(parameters);
    const std::optional<std::string> text = parameters.get("move");
    if (!text) {
      throw InputError("/api/" + std::string(Rules::kName) +
                       "/play needs move=N, the house to sow (1.." +
                       std::to_string(input.game.houses()) + ")");
    }
    return json_response(200, Rules::play_json(input, *text, !parameters.get("position")));
  }

  Json info(const Parameters& parameters) const {
    Json out = Rules::info_json(serve_, input_of(parameters).game);
    out.set("max_seconds", api_.options().max_seconds)
        .set("max_searches", api_.options().max_searches);
    return out;
  }

  Api& api_;
  Serve serve_;
  LruCache<Solved> cache_;
};

}  // namespace rastros::tools::serve
