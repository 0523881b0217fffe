#!/usr/bin/env bash
# Load check of `rastros serve`: 200 concurrent API requests on loopback, for positions stored in
# the 5x5 database (every position along random 5x5 games). With wrk (Debian package): 200
# keep-alive connections for DURATION seconds, each sending its next request as soon as the last
# is answered; fails on any failed request (connect/read/write error, timeout, non-2xx) or a
# median latency of MAX_MEDIAN_MS (default 5; "none": report only) or more. Without wrk: bursts
# of 200 simultaneous requests from tests/serve_load.py (a Python client: its latencies are
# mostly Python's own, so they are reported, not checked).
# A request unanswered after WRK_TIMEOUT (default 2s, wrk's own) counts as failed; the
# sanitizer builds, whose server is several times slower, allow 10s.
# Usage: [MAX_MEDIAN_MS=5] [WRK_TIMEOUT=2s] serve_load.sh path/to/rastros [DURATION_SECONDS]
set -euo pipefail
rastros=${1:?usage: serve_load.sh path/to/rastros [seconds]}
duration=${2:-10}
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../data
work=$(mktemp -d)

server=
trap 'if [[ -n $server ]]; then kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true; fi; rm -rf "$work"' EXIT
# shellcheck source=serve_start.sh
source "$here/serve_start.sh"
start_serve "$rastros" "$data/5x5-standard.rdb" "$work"

# 2000 request paths: the positions along random 5x5 games (king steps, from c3), every one
# of them in the database.
python3 - "$work/paths.txt" <<'PY'
import random, sys
random.seed(8)
W = H = 5
goals = {0, W * H - 1}
def name(s): return "abcde"[s % W] + str(s // W + 1)
paths = []
while len(paths) < 2000:
    snail, seen, moves = 12, {12}, []
    while True:
        paths.append("/api/solve?board=5x5&moves=" + "+".join(name(m) for m in moves))
        if snail in goals and moves:
            break
        f, r = snail % W, snail // W
        legal = [(r + dr) * W + f + df for df in (-1, 0, 1) for dr in (-1, 0, 1)
                 if (df or dr) and 0 <= f + df < W and 0 <= r + dr < H
                 and (r + dr) * W + f + df not in seen]
        if not legal:
            break
        snail = random.choice(legal)
        seen.add(snail)
        moves.append(snail)
with open(sys.argv[1], "w") as out:
    out.write("\n".join(paths[:2000]) + "\n")
PY

status=0
max_median=${MAX_MEDIAN_MS:-5}
if command -v wrk >/dev/null; then
  {
    echo 'paths = {}'
    sed 's/.*/paths[#paths + 1] = "&"/' "$work/paths.txt"
    cat <<'LUA'
counter = 0
request = function()
  counter = counter % #paths + 1
  return wrk.format("GET", paths[counter])
end
done = function(summary, latency, requests)
  local e = summary.errors
  local failed = e.connect + e.read + e.write + e.timeout + e.status
  io.write(string.format("load: %d requests in %.1f s (%.0f/s), %d failed (connect %d, read %d, " ..
    "write %d, timeout %d, non-2xx %d); latency median %.2f ms, p90 %.2f ms, p99 %.2f ms, " ..
    "max %.2f ms\n", summary.requests, summary.duration / 1e6,
    summary.requests / (summary.duration / 1e6), failed, e.connect, e.read, e.write, e.timeout,
    e.status, latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000))
  io.write(string.format("median_ms %.3f\nfailed %d\n", latency:percentile(50) / 1000, failed))
end
LUA
  } >"$work/paths.lua"
  echo "== wrk -t2 -c200 -d${duration}s --latency (200 keep-alive connections, 5x5 database positions)"
  wrk -t2 -c200 -d"${duration}s" --timeout "${WRK_TIMEOUT:-2s}" --latency -s "$work/paths.lua" \
    "$url" | tee "$work/wrk.out"
  failed=$(awk '$1 == "failed" {print $2}' "$work/wrk.out")
  median=$(awk '$1 == "median_ms" {print $2}' "$work/wrk.out")
  if [[ $failed != 0 ]]; then
    echo "FAIL: $failed failed requests"
    status=1
  fi
  if [[ $max_median != none ]] && ! awk -v m="$median" -v x="$max_median" 'BEGIN {exit !(m < x)}'; then
    echo "FAIL: median latency $median ms, not under $max_median ms"
    status=1
  fi
else
  echo "== wrk not installed (apt-get install wrk): bursts of 200 simultaneous requests instead"
  python3 "$here/serve_load.py" "$url" "$work/paths.txt" --concurrency 200 --rounds 10 || status=1
fi
exit $status
