#!/usr/bin/env python3
"""`rastros serve` over real sockets: the binary started on a free loopback port, then good,
bad and concurrent requests, the time budget, HTTP limits, keep-alive, start-up errors and a
clean stop on SIGTERM.

Usage: serve_test.py path/to/rastros path/to/data
"""
import concurrent.futures
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

RASTROS, DATA = sys.argv[1], sys.argv[2]
DB5 = os.path.join(DATA, "5x5-standard.rdb")
failures = []
passed = 0


def check(condition, what):
    global passed
    if condition:
        passed += 1
    else:
        failures.append(what)
        print("FAIL:", what, flush=True)


class Server:
    """A `rastros serve --port 0` process; its URL comes from the first line it prints."""

    def __init__(self, *arguments):
        self.process = subprocess.Popen(
            [RASTROS, "serve", "--port", "0", *arguments],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("listening on http://127.0.0.1:"):
            self.process.kill()
            raise RuntimeError("no 'listening on' line: %r %s" % (line, self.process.stderr.read()))
        self.url = line.split()[2]
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])

    def get(self, path, timeout=30):
        """(status, parsed JSON or text, seconds)."""
        started = time.monotonic()
        try:
            with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=timeout) as response:
                status, body, kind = response.status, response.read(), response.headers["Content-Type"]
        except urllib.error.HTTPError as error:
            status, body, kind = error.code, error.read(), error.headers["Content-Type"]
        seconds = time.monotonic() - started
        if kind == "application/json":
            return status, json.loads(body), seconds
        return status, body.decode("utf-8", "replace"), seconds

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = None
        self.process.stdout.close()
        self.process.stderr.close()
        return status


def cli_json(*arguments):
    out = subprocess.run([RASTROS, *arguments, "--json", "--quiet"], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


def without_volatile(answer):
    return {key: value for key, value in answer.items() if key not in ("nodes", "seconds", "source")}


def raw_request(port, data, read_all=True):
    """Sends raw bytes, returns the status line (or '' when the server closed at once)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(data)
        received = b""
        while read_all:
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
            if b"\r\n\r\n" in received:
                break
        return received.split(b"\r\n", 1)[0].decode()


# --- Start-up errors -----------------------------------------------------------------------------
with tempfile.TemporaryDirectory() as scratch:
    broken = os.path.join(scratch, "broken.rdb")
    with open(broken, "wb") as out:
        out.write(b"not a database at all")
    for arguments, want, what in [
            (["--db", broken], 3, "corrupt database"),
            (["--db", os.path.join(scratch, "missing.rdb")], 3, "missing database"),
            (["--bind", "not-an-address"], 2, "bad --bind"),
            (["--port", "70000"], 2, "bad --port"),
            (["--max-searches", "0"], 2, "bad --max-searches"),
            (["--max-seconds", "0"], 2, "bad --max-seconds"),
            # Issue 37: each once aborted, exhausted threads or overflowed the deadline.
            (["--io-threads", "33000"], 2, "--io-threads 33000"),
            (["--max-searches", "100000000"], 2, "--max-searches 100000000"),
            (["--max-seconds", "1e10"], 2, "--max-seconds 1e10"),
            (["--max-seconds", "inf"], 2, "--max-seconds inf"),
            (["--max-seconds", "nan"], 2, "--max-seconds nan"),
            (["--threads", "2147483647"], 2, "--threads 2147483647"),
            (["--bogus"], 2, "unknown option")]:
        result = subprocess.run([RASTROS, "serve", "--port", "0", *arguments], capture_output=True,
                                text=True, timeout=30)
        check(result.returncode == want and result.stdout == ""
              and len(result.stderr.strip().splitlines()) == 1,
              "%s: exit %d (want %d), stderr %r" % (what, result.returncode, want, result.stderr))

# --- Good and bad requests -----------------------------------------------------------------------
server = Server("--db", DB5, "--max-seconds", "1", "--max-searches", "2", "--threads", "2")
try:
    status, answer, _ = server.get("/api/solve?board=5x5&start=c3&rules=standard&steps=king&moves=b2+c1")
    check(status == 200 and answer.get("source") == "database", "database answer: %s %s" % (status, answer))
    expected = cli_json("solve", "--board", "5x5", "--moves", "b2 c1")
    check(without_volatile(answer) == without_volatile(expected)
          and list(answer) == list(expected) + ["source"],
          "same keys and values as rastros solve --json")

    status, answer, _ = server.get("/api/solve?board=4x5&moves=b3")
    check(status == 200 and answer.get("source") == "search", "search answer: %s %s" % (status, answer))
    check(without_volatile(answer) == without_volatile(cli_json("solve", "--board", "4x5", "--moves", "b3")),
          "search answer equals rastros solve --json")

    status, answer, _ = server.get("/api/map?board=4x4")
    expected = cli_json("map", "--board", "4x4")
    check(status == 200 and answer.get("squares") == expected["squares"], "map equals rastros map --json")

    status, info, _ = server.get("/api/info")
    check(status == 200 and info["databases"][0]["board"] == "5x5", "info lists the database")

    status, page, _ = server.get("/")
    check(status == 200 and '<svg id="board"' in page, "the page is served")
    for name in ("app.js", "style.css"):
        check(server.get("/" + name)[0] == 200, name + " is served")
    check(server.get("/missing.html")[0] == 404, "missing file: 404")

    for path, words in [("/api/solve?board=5x5&moves=b2+b2", "b2"),
                        ("/api/solve?board=77x77", "board"),
                        ("/api/solve?board=5x5&colour=blue", "unknown parameter"),
                        ("/api/solve?moves=%zz", "escape"),
                        ("/api/map?board=4x4&value_only=perhaps", "value_only")]:
        status, answer, _ = server.get(path)
        check(status == 400 and isinstance(answer, dict) and words in answer.get("error", ""),
              "%s: 400 naming %r, got %s %s" % (path, words, status, answer))
    check(server.get("/api/unknown")[0] == 404, "unknown endpoint: 404")

    # HTTP limits: a long target, a huge header, a body over the limit, another method.
    check(server.get("/api/solve?moves=" + "a" * 3000)[0] == 414, "long target: 414")
    check(raw_request(server.port, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n")
          .startswith("HTTP/1.1 431"), "huge header: 431")
    check(raw_request(server.port, b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
          .startswith("HTTP/1.1 413"), "huge body: 413")
    check(raw_request(server.port, b"POST /api/info HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
          .startswith("HTTP/1.1 405"), "POST: 405")
    # Malformed requests get 400 (then the connection closes), not a silent hang-up.
    for line in [b"garbage", b"GET", b"GET /", b"GET / HTTP/9", b"GET / HTTP/1.1 extra",
                 b"G\x01T / HTTP/1.1", b"GET /\x7f HTTP/1.1", b"GET / HTTP/1.1\r\nBad Field: x",
                 b"GET / HTTP/1.1\r\nContent-Length: x", b"GET  / HTTP/1.1", b"\x00\x00\x00"]:
        status_line = raw_request(server.port, line + b"\r\n\r\n")
        check(status_line.startswith("HTTP/1.1 400"), "malformed request %r: 400, got %r"
              % (line, status_line))

    # Keep-alive: several requests on one connection.
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    statuses = []
    for moves in ("b2", "b2+c1", "c2"):
        connection.request("GET", "/api/solve?board=5x5&moves=" + moves)
        response = connection.getresponse()
        response.read()
        statuses.append(response.status)
    connection.close()
    check(statuses == [200, 200, 200], "keep-alive: three answers on one connection %s" % statuses)

    # Concurrent requests: database answers, searches and errors mixed.
    paths = (["/api/solve?board=5x5&moves=" + m for m in ("b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4")]
             + ["/api/solve?board=4x4&start=" + s for s in ("b2", "c2", "b3", "c3", "a2", "a3")]
             + ["/api/solve?board=5x5&moves=c3"] * 4)
    with concurrent.futures.ThreadPoolExecutor(max_workers=40) as pool:
        results = list(pool.map(server.get, paths * 4))
    wanted = [400 if path.endswith("moves=c3") else 200 for path in paths * 4]
    check([status for status, _, _ in results] == wanted,
          "%d concurrent requests all answered correctly" % len(results))

    # The time budget: 1 s here; the 7x7 game from c4 needs far longer.
    status, answer, seconds = server.get("/api/solve?board=7x7&start=c4")
    check(status == 503 and "time budget" in answer.get("error", "") and seconds < 3,
          "over the budget: 503 after %.2f s: %s" % (seconds, answer))
    # Database answers stay fast while searches run (two over-budget searches in the background).
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        slow = [pool.submit(server.get, "/api/solve?board=7x7&start=" + s) for s in ("c4", "e4")]
        time.sleep(0.2)
        status, _, seconds = server.get("/api/solve?board=5x5&moves=b2")
        check(status == 200 and seconds < 0.5,
              "database answer during searches in %.3f s" % seconds)
        check([f.result()[0] for f in slow] == [503, 503], "both searches over budget: 503")
    # Searches beyond --max-searches queue; queueing counts against the budget.
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        started = time.monotonic()
        results = list(pool.map(server.get, ["/api/solve?board=7x7&start=" + s for s in ("b4", "d2", "f4")]))
        elapsed = time.monotonic() - started
    check([r[0] for r in results] == [503, 503, 503] and elapsed < 4,
          "three searches with two slots all end within the budget (%.2f s)" % elapsed)
    check(server.get("/api/solve?board=5x5&moves=b2")[0] == 200, "still answering afterwards")
finally:
    status = server.stop()
check(status == 0, "SIGTERM: exit status %s" % status)

# --- A clean stop while a search runs --------------------------------------------------------------
server = Server("--max-seconds", "60")
with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
    pending = pool.submit(server.get, "/api/solve?board=7x7&start=c4", 60)
    time.sleep(0.5)
    started = time.monotonic()
    status = server.stop()
    elapsed = time.monotonic() - started
    try:
        pending.result(timeout=10)
    except Exception:  # the connection is dropped: expected
        pass
check(status == 0 and elapsed < 5, "SIGTERM during a search: exit %s after %.2f s" % (status, elapsed))

# --- Kalah: rastros serve --game kalah ------------------------------------------------------------
KALAH = ["--game", "kalah", "--houses", "3", "--seeds", "3"]
for arguments, want, what in [
        (["--houses", "3"], 2, "--houses without --game kalah"),
        (["--game", "kalah", "--db", DB5], 2, "--db with --game kalah"),
        (["--game", "kalah", "--houses", "9"], 2, "bad --houses"),
        (["--game", "kalah", "--rules", "chess"], 2, "bad --rules"),
        (["--game", "kalah", "--endgame", os.path.join(DATA, "missing.kdb")], 3, "missing --endgame")]:
    result = subprocess.run([RASTROS, "serve", "--port", "0", *arguments], capture_output=True,
                            text=True, timeout=30)
    check(result.returncode == want and result.stdout == ""
          and len(result.stderr.strip().splitlines()) == 1,
          "kalah %s: exit %d (want %d), stderr %r" % (what, result.returncode, want, result.stderr))

server = Server(*KALAH, "--endgame-seeds", "6", "--max-seconds", "5", "--quiet")
try:
    status, info, _ = server.get("/api/kalah/info")
    check(status == 200 and (info["houses"], info["seeds"], info["rules"], info["start"], info["endgame_seeds"])
          == (3, 3, "standard", "3,3,3,0/3,3,3,0 1", 6), "kalah info: %s %s" % (status, info))
    for moves in ("", "1", "1 2", "3 1 2"):
        status, answer, _ = server.get("/api/kalah/solve?moves=" + moves.replace(" ", "+"))
        expected = cli_json("solve", *KALAH, "--endgame-seeds", "6", "--moves", moves)
        check(status == 200 and answer.get("source") in ("database", "search")
              and without_volatile(answer) == without_volatile(expected)
              and [key for key in answer if key != "source"] == list(expected),
              "kalah solve %r equals rastros solve --game kalah --json: %s %s" % (moves, status, answer))
        status, shown, _ = server.get("/api/kalah/moves?moves=" + moves.replace(" ", "+"))
        check(status == 200 and shown == cli_json("show", *KALAH, "--moves", moves),
              "kalah moves %r equals rastros show --game kalah --json" % moves)
        for move in shown["legal_moves"]:
            status, played, _ = server.get("/api/kalah/play?moves=%s&move=%s" % (moves.replace(" ", "+"), move))
            after = cli_json("show", *KALAH, "--moves", (moves + " " + move).strip())
            before = [int(n) for n in shown["position"].split()[0].replace("/", ",").split(",")]
            mover = shown["to_move"]
            check(status == 200 and played["position"] == after["position"]
                  and played["moves"] == after["moves"] and played["to_move"] == after["to_move"]
                  and len(played["path"]) == before[(mover - 1) * 4 + int(move) - 1]
                  and all(step["pit"] == "store" and step["player"] == mover or step["pit"] != "store"
                          for step in played["path"]),
                  "kalah play %r then %s: %s %s" % (moves, move, status, played))
    status, answer, _ = server.get("/api/kalah/solve?position=0,0,0,10/1,2,5,0+2")
    check(status == 200 and answer["score"] == -2 and answer["winner"] == 1, "kalah ended game: %s" % answer)
    for path, words in [("/api/kalah/solve?moves=4", "bad move"),
                        ("/api/kalah/solve?houses=6", "kalah(3,3)"),
                        ("/api/kalah/play?moves=1", "move="),
                        ("/api/kalah/play?moves=3+3&move=3", "empty"),
                        ("/api/kalah/moves?position=1,2/3+1", "bad position"),
                        ("/api/kalah/solve?colour=blue", "unknown parameter")]:
        status, answer, _ = server.get(path)
        check(status == 400 and isinstance(answer, dict) and words in answer.get("error", ""),
              "%s: 400 naming %r, got %s %s" % (path, words, status, answer))
    check(server.get("/api/kalah/nothing")[0] == 404, "kalah unknown endpoint: 404")
    status, page, _ = server.get("/")
    check(status == 200 and '<svg id="board"' in page and "mancala.js" in page, "the Kalah page is served at /")
    for name in ("mancala.js", "mancala.css", "style.css"):
        check(server.get("/" + name)[0] == 200, name + " is served")
finally:
    status = server.stop()
check(status == 0, "kalah server: SIGTERM exit status %s" % status)

# Kalah(6,5) from the start without an endgame database: far over a 1 s budget.
server = Server("--game", "kalah", "--houses", "6", "--seeds", "5", "--endgame-seeds", "-1",
                "--max-seconds", "1", "--quiet")
try:
    status, answer, seconds = server.get("/api/kalah/solve")
    check(status == 503 and "time budget" in answer.get("error", "") and seconds < 3,
          "kalah over the budget: 503 after %.2f s: %s" % (seconds, answer))
    check(server.get("/api/kalah/play?move=1")[0] == 200, "kalah still answering afterwards")
finally:
    status = server.stop()
check(status == 0, "kalah server: SIGTERM after a cancelled search, exit status %s" % status)

# Congkak and Oware over sockets: their solves are their commands' JSON (plus what the page
# needs), a Congkak request picks its variant, an Oware search past --max-positions is unknown.
for arguments, want, what in [
        (["--game", "congkak", "--rules", "standard"], 2, "--rules with congkak"),
        (["--game", "congkak", "--endgame-seeds", "3"], 2, "--endgame-seeds with congkak"),
        (["--game", "kalah", "--max-positions", "9"], 2, "--max-positions with kalah"),
        (["--game", "oware", "--db", DB5], 2, "--db with oware")]:
    result = subprocess.run([RASTROS, "serve", "--port", "0", "--quiet", *arguments], capture_output=True,
                            text=True, timeout=30)
    check(result.returncode == want and result.stderr.count("\n") == 1,
          "%s: exit %d, one line: %r" % (what, result.returncode, result.stderr))
server = Server("--game", "congkak", "--houses", "3", "--seeds", "3", "--quiet")
try:
    for variant in (["3", "3"], ["2", "4"]):
        query = "houses=%s&seeds=%s" % tuple(variant)
        status, answer, _ = server.get("/api/congkak/solve?%s&moves=1" % query)
        # The server searches without an endgame database: so does this solve.
        expected = cli_json("solve", "--game", "congkak", "--houses", variant[0], "--seeds", variant[1],
                            "--moves", "1", "--endgame-seeds", "-1")
        check(status == 200 and without_volatile(answer) == without_volatile(expected),
              "congkak(%s) solve equals rastros solve --game congkak --json: %s %s" % (query, status, answer))
    status, played, _ = server.get("/api/congkak/play?move=2")
    check(status == 200 and len(played["laps"]) == 2 and played["capture"]["seeds"] == 5,
          "congkak play: two laps and a capture: %s %s" % (status, played))
    status, answer, _ = server.get("/api/congkak/solve?houses=9")
    check(status == 400 and "houses" in answer.get("error", ""), "congkak bad variant: %s %s" % (status, answer))
finally:
    status = server.stop()
check(status == 0, "congkak server: SIGTERM exit status %s" % status)
OWARE = ["--game", "oware", "--houses", "3", "--seeds", "2"]
server = Server(*OWARE, "--endgame-seeds", "4", "--quiet")
try:
    status, answer, _ = server.get("/api/oware/solve?moves=1")
    expected = cli_json("solve", *OWARE, "--endgame-seeds", "4", "--moves", "1")
    check(status == 200 and all(answer[key] == expected[key] for key in expected),
          "oware solve equals rastros solve --game oware --json: %s %s" % (status, answer))
finally:
    status = server.stop()
check(status == 0, "oware server: SIGTERM exit status %s" % status)
server = Server(*OWARE, "--endgame-seeds", "2", "--max-positions", "5", "--quiet")
try:
    status, answer, _ = server.get("/api/oware/solve")
    check(status == 200 and answer["value"] == "unknown" and "score" not in answer,
          "oware past --max-positions: unknown: %s %s" % (status, answer))
finally:
    status = server.stop()
check(status == 0, "oware server: SIGTERM exit status %s" % status)

print("serve_test: %d passed, %d failed" % (passed, len(failures)))
sys.exit(1 if failures else 0)
