#pragma once
// The HTTP side of `rastros serve` (Boost.Beast): accepts connections, reads requests (HTTP/1.1,
// keep-alive), and hands each to the Api. Requests the Api answers at once are answered on the
// I/O threads; those that need a search go to a pool of max_searches threads (the rest queue
// there), so database answers never wait behind a search.

#include <cstdint>
#include <memory>
#include <string>

#include "serve/api.hpp"

namespace rastros::tools::serve {

struct ServerOptions {
  std::string bind = "127.0.0.1";
  std::uint16_t port = 8080;  // 0: any free port
  int io_threads = 1;
  /// Longest request header and body accepted (431 and 413 beyond).
  std::size_t header_limit = 8192;
  std::size_t body_limit = 4096;
};

/// The most I/O threads a server runs: each is a thread of its own, made at start.
inline constexpr int kMaxIoThreads = 1024;
/// Throws InputError naming --io-threads unless 1 <= io_threads <= kMaxIoThreads.
void check_server_options(const ServerOptions& options);

class HttpServer {
 public:
  /// Binds and listens. Throws InputError for a malformed address, std::system_error when the
  /// address cannot be bound.
  HttpServer(Api& api, const ServerOptions& options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// The port bound (the chosen one when options.port was 0).
  std::uint16_t port() const;
  /// "http://ADDRESS:PORT/".
  std::string url() const;

  /// Serves until stop() is called or SIGINT/SIGTERM arrives (when `handle_signals`).
  void run(bool handle_signals);
  /// Stops serving: cancels searches, closes the listener. Thread-safe.
  void stop();

  class Impl;  // public only so that the connections in http_server.cpp can name it

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace rastros::tools::serve
