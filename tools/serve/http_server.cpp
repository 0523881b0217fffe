#include "serve/http_server.hpp"

#include <algorithm>
#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <csignal>
#include <optional>
#include <thread>
#include <vector>

#include "core/errors.hpp"

namespace rastros::tools::serve {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

/// How long a connection may take to send a request (and to take a response).
constexpr auto kIoTimeout = std::chrono::seconds(30);
/// Searches waiting for the pool beyond this many are refused at once (503).
constexpr int kMaxQueuedPerSlot = 256;

}  // namespace

void check_server_options(const ServerOptions& options) {
  if (options.io_threads < 1 || options.io_threads > kMaxIoThreads) {
    throw InputError("--io-threads must be between 1 and " + std::to_string(kMaxIoThreads) +
                     ", not " + std::to_string(options.io_threads));
  }
}

class HttpServer::Impl {
 public:
  Impl(Api& api, const ServerOptions& options)
      : api_(api),
        options_(options),
        io_(std::max(1, options.io_threads)),
        acceptor_(net::make_strand(io_)),
        signals_(io_),
        searches_(static_cast<std::size_t>(api.options().max_searches)) {
    boost::system::error_code error;
    const net::ip::address address = net::ip::make_address(options.bind, error);
    if (error) throw InputError("--bind " + options.bind + " is not an IP address");
    const tcp::endpoint endpoint(address, options.port);
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(net::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(net::socket_base::max_listen_connections);
  }

  ~Impl() {
    api_.stop();
    searches_.join();
  }

  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }

  std::string url() const {
    const net::ip::address address = acceptor_.local_endpoint().address();
    const std::string host =
        address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
    return "http://" + host + ":" + std::to_string(port()) + "/";
  }

  void run(bool handle_signals) {
    if (handle_signals) {
      signals_.add(SIGINT);
      signals_.add(SIGTERM);
      signals_.async_wait([this](const boost::system::error_code& error, int) {
        if (!error) stop();
      });
    }
    accept();
    std::vector<std::thread> threads;
    for (int i = 1; i < options_.io_threads; ++i) threads.emplace_back([this] { io_.run(); });
    io_.run();
    for (std::thread& thread : threads) thread.join();
    // Searches still running were cancelled by stop(): they end promptly.
    searches_.join();
  }

  void stop() {
    api_.stop();
    io_.stop();
  }

  Api& api() { return api_; }
  const ServerOptions& options() const { return options_; }

  /// Runs a search request on the pool; false when too many already wait.
  template <typename Job>
  bool submit_search(Job job) {
    const int limit = kMaxQueuedPerSlot * api_.options().max_searches;
    if (queued_.fetch_add(1) >= limit) {
      queued_.fetch_sub(1);
      return false;
    }
    net::post(searches_, [this, job = std::move(job)]() mutable {
      queued_.fetch_sub(1);
      job();
    });
    return true;
  }

 private:
  void accept();

  Api& api_;
  ServerOptions options_;
  // Declared first so destroyed last: sessions (and handlers queued in the pool) use it.
  net::io_context io_;
  tcp::acceptor acceptor_;
  net::signal_set signals_;
  std::atomic<int> queued_{0};
  net::thread_pool searches_;
};

namespace {

/// A parse error of the request itself (as opposed to the connection ending or timing out).
bool is_malformed_request(const beast::error_code& error) {
  static constexpr http::error kMalformed[] = {
      http::error::bad_line_ending,    http::error::bad_method,
      http::error::bad_target,         http::error::bad_version,
      http::error::bad_field,          http::error::bad_value,
      http::error::bad_content_length, http::error::bad_transfer_encoding,
      http::error::bad_chunk,          http::error::bad_chunk_extension,
      http::error::bad_obs_fold};
  return std::any_of(std::begin(kMalformed), std::end(kMalformed),
                     [&](http::error kind) { return error == kind; });
}

/// One connection: read a request, answer it (at once or after a search), repeat while the
/// client keeps the connection alive.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, HttpServer::Impl& server)
      : stream_(std::move(socket)), server_(server) {}

  void start() {
    net::dispatch(stream_.get_executor(),
                  beast::bind_front_handler(&Session::read, shared_from_this()));
  }

 private:
  void read() {
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(server_.options().header_limit));
    parser_->body_limit(server_.options().body_limit);
    stream_.expires_after(kIoTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&Session::on_read, shared_from_this()));
  }

  void on_read(beast::error_code error, std::size_t) {
    if (error == http::error::end_of_stream) return close();
    if (error == http::error::header_limit || error == http::error::body_limit) {
      keep_alive_ = false;
      const bool header = error == http::error::header_limit;
      return send({header ? 431u : 413u, "application/json",
                   header ? R"({"error": "request header too large"})"
                          : R"({"error": "request body too large"})"});
    }
    if (is_malformed_request(error)) {
      // The client is still there and may read an answer: say why rather than hang up.
      keep_alive_ = false;
      version_ = 11;
      return send({400, "application/json", R"({"error": "malformed HTTP request"})"});
    }
    if (error) return;  // timeout, reset, a request cut short: drop the connection
    const auto received = Clock::now();
    const http::request<http::string_body>& request = parser_->get();
    keep_alive_ = request.keep_alive();
    version_ = request.version();
    std::string method(request.method_string());
    std::string target(request.target());
    if (std::optional<Response> response = server_.api().answer_now(method, target, received)) {
      return send(std::move(*response));
    }
    stream_.expires_never();  // the connection waits quietly while the search runs
    auto self = shared_from_this();
    const bool queued = server_.submit_search(
        [self, method = std::move(method), target = std::move(target), received] {
          Response response = self->server_.api().handle(method, target, received);
          net::post(self->stream_.get_executor(), [self, response = std::move(response)]() mutable {
            self->send(std::move(response));
          });
        });
    if (!queued) {
      send({503, "application/json", R"({"error": "too many searches waiting: try again later"})"});
    }
  }

  void send(Response response) {
    response_.emplace(static_cast<http::status>(response.status), version_);
    response_->set(http::field::server, "rastros");
    response_->set(http::field::content_type, response.content_type);
    response_->set(http::field::cache_control, "no-cache");
    response_->keep_alive(keep_alive_);
    response_->body() = std::move(response.body);
    response_->prepare_payload();
    stream_.expires_after(kIoTimeout);
    http::async_write(stream_, *response_,
                      beast::bind_front_handler(&Session::on_write, shared_from_this()));
  }

  void on_write(beast::error_code error, std::size_t) {
    if (error) return;
    if (!keep_alive_) return close();
    read();
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }

  beast::tcp_stream stream_;
  HttpServer::Impl& server_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::optional<http::response<http::string_body>> response_;
  bool keep_alive_ = false;
  unsigned version_ = 11;
};

}  // namespace

void HttpServer::Impl::accept() {
  // One I/O thread needs no strands: every handler of a connection runs on that thread.
  const net::any_io_executor executor = options_.io_threads > 1
                                            ? net::any_io_executor(net::make_strand(io_))
                                            : net::any_io_executor(io_.get_executor());
  acceptor_.async_accept(executor, [this](const beast::error_code& error, tcp::socket socket) {
    if (!error) {
      std::make_shared<Session>(std::move(socket), *this)->start();
    }
    if (acceptor_.is_open()) accept();
  });
}

HttpServer::HttpServer(Api& api, const ServerOptions& options)
    : impl_((check_server_options(options), std::make_unique<Impl>(api, options))) {}

HttpServer::~HttpServer() = default;

std::uint16_t HttpServer::port() const {
  return impl_->port();
}
std::string HttpServer::url() const {
  return impl_->url();
}
void HttpServer::run(bool handle_signals) {
  impl_->run(handle_signals);
}
void HttpServer::stop() {
  impl_->stop();
}

}  // namespace rastros::tools::serve
