// `rastros serve`: the page and the JSON API over HTTP (tools/serve/), backed by the loaded
// databases and the live solver. Prints "listening on URL" as its first line on stdout.

#include <oneapi/tbb/info.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <thread>

#include "commands.hpp"
#include "core/errors.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "search/memory_share.hpp"
#include "serve/api.hpp"
#include "serve/http_server.hpp"
#include "serve/mancala_serve.hpp"
#include "serve/reversi_api.hpp"

#ifndef RASTROS_WEB_ROOT
#define RASTROS_WEB_ROOT ""
#endif

namespace rastros::tools {

int run_serve(const Arguments& arguments) {
  int port = 8080;
  std::string bind = "127.0.0.1";
  std::vector<std::string> files;
  double max_seconds = 10;
  int max_searches = oneapi::tbb::info::default_concurrency();
  int threads = 0;
  // One I/O thread per core: database answers are pure CPU, and on 2 cores a second I/O thread
  // takes 200 concurrent clients from 32k to 44k requests/s (median 6.1 ms to 4.3 ms).
  int io_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::string memory;
  std::string web_root = RASTROS_WEB_ROOT;
  bool quiet = false;
  po::options_description description("Options");
  description.add_options()("port", po::value(&port)->default_value(port),
                            "TCP port, 0 to 65535 (0: any free port, printed on the first line)")(
      "bind", po::value(&bind)->default_value(bind),
      "address to listen on (127.0.0.1: this machine only; 0.0.0.0: every interface)")(
      "db", po::value(&files)->composing(),
      "database file to answer from (repeatable; each answers the game of its header)")(
      "max-seconds", po::value(&max_seconds)->default_value(max_seconds),
      "time budget in seconds of a request that needs a search (503 beyond), queueing "
      "included; more than 0, at most 86400")(
      "max-searches", po::value(&max_searches)->default_value(max_searches),
      "searches running at once, 1 to 1024; the others queue (default: cores)")(
      "io-threads", po::value(&io_threads)->default_value(io_threads),
      "threads answering connections, 1 to 1024 (database answers, files, errors; default: "
      "cores)");
  add_threads_option(description, threads);
  description.add_options()("memory", po::value(&memory),
                            "the most memory the searches may use, shared by the --max-searches "
                            "running at once (default: a 32M table each)")(
      "web-root", po::value(&web_root)->default_value(web_root),
      "directory of the pages' files (index.html and the other games' pages, their scripts "
      "and style sheets)")(
      "quiet", po::bool_switch(&quiet),
      "no status lines on stderr (the \"listening on\" line on stdout stays)");
  serve::MancalaServeOptions mancala;
  serve::add_mancala_serve_options(description, mancala);
  serve::ReversiServeOptions reversi;
  serve::add_reversi_serve_options(description, reversi);
  if (!parse_command_line(arguments, description,
                          "Usage: rastros serve [--port 8080] [--bind 127.0.0.1] [--db FILE...]\n"
                          "Serves the page (play and explore in the browser) and a JSON API:\n"
                          "  GET /api/solve?board=7x7&start=d4&rules=standard&steps=king&moves="
                          "c3+b2   (or position=...)\n"
                          "  GET /api/map?board=5x5&rules=standard&steps=king[&value_only=1]\n"
                          "  GET /api/info\n"
                          "With --game kalah [--houses 4 --seeds 4 --rules standard]: the Kalah "
                          "page and /api/kalah/{solve,moves,play,info}; likewise --game congkak "
                          "(any variant) and --game oware [--endgame FILE --max-positions N].\n"
                          "With --game reversi [--board 8x8]: the Reversi page and "
                          "/api/reversi/{hint,moves,play,info}.\n"
                          "Stops on SIGINT or SIGTERM.")) {
    return 0;
  }
  if (port < 0 || port > 65535) throw InputError("--port must be between 0 and 65535");
  serve::ServerOptions server_options;
  server_options.io_threads = io_threads;
  serve::check_server_options(server_options);
  serve::ApiOptions api_options;
  api_options.max_seconds = max_seconds;
  api_options.max_searches = max_searches;
  serve::check_api_options(api_options);
  std::error_code error;
  if (!std::filesystem::is_regular_file(std::filesystem::path(web_root) / "index.html", error)) {
    // Given on the command line, a wrong directory is a mistake; the built-in default may be
    // missing where the binary was copied without its page, and the API still works then.
    if (web_root != RASTROS_WEB_ROOT) {
      throw InputError("--web-root " + escape_control(web_root) +
                       " is not a directory holding the page (index.html)");
    }
    if (!quiet)
      std::cerr << "rastros serve: warning: no page in " << escape_control(web_root)
                << " (give --web-root); serving the API only\n";
  }
  // --memory is the server's: the searches running at once share it. Without it each search has
  // the default table of one solve.
  api_options.table_bytes =
      memory.empty() ? default_table_bytes(false)
                     : table_share(parse_memory_size(memory), std::max(max_searches, 1),
                                   "searches at once", "--max-searches");
  api_options.web_root = web_root;
  // Without --memory every running search holds a default table: they must fit the machine.
  const double physical = physical_memory_bytes();
  if (memory.empty() && physical > 0 &&
      static_cast<double>(api_options.table_bytes) * max_searches > physical) {
    throw InputError("--max-searches " + std::to_string(max_searches) + " tables of " +
                     std::to_string(api_options.table_bytes >> 20) +
                     " MiB are more than this machine's memory; give --memory");
  }
  const ThreadLimit limit(threads);

  // Each file's header and block index; blocks are read as requests need them.
  std::vector<DatabaseReader> databases;
  for (const std::string& file : files) databases.emplace_back(file);
  serve::Api api(std::move(databases), files, api_options);
  server_options.bind = bind;
  server_options.port = static_cast<std::uint16_t>(port);
  serve::HttpServer server(api, server_options);
  // Before the first line on stdout, which a refused option must not print.
  // Each refuses its options for the other games: both run.
  std::string game = serve::configure_mancala(api, arguments, mancala, files, quiet);
  const std::string reversi_game = serve::configure_reversi(api, arguments, reversi, files);
  if (game.empty()) game = reversi_game;
  std::cout << "listening on " << server.url() << std::endl;
  if (!quiet) {
    if (!game.empty()) std::cerr << "rastros serve: " << game << "\n";
    std::cerr << "rastros serve: " << files.size() << " database(s), at most " << max_searches
              << " searches at once, " << max_seconds << " s each; Ctrl-C stops\n";
  }
  server.run(true);
  if (!quiet) std::cerr << "rastros serve: stopped\n";
  return 0;
}

}  // namespace rastros::tools
