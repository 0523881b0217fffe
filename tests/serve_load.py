#!/usr/bin/env python3
"""A small load client for `rastros serve` (used when wrk is missing, and for the burst check):
rounds of N requests sent at the same moment on N fresh connections, each waiting for its
answer. Prints the request count, failures and latency percentiles; exits 1 on any failure.

Usage: serve_load.py URL PATHS_FILE [--concurrency 200] [--rounds 10] [--max-median-ms X]
"""
import argparse
import http.client
import statistics
import sys
import threading
import time
import urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument("url")
parser.add_argument("paths")
parser.add_argument("--concurrency", type=int, default=200)
parser.add_argument("--rounds", type=int, default=10)
parser.add_argument("--max-median-ms", type=float, default=None)
options = parser.parse_args()

address = urllib.parse.urlparse(options.url)
with open(options.paths) as listing:
    paths = [line.strip() for line in listing if line.strip()]

latencies = []
failures = []
lock = threading.Lock()


def one(path, barrier):
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    try:
        connection.connect()
        barrier.wait()
        started = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        seconds = time.perf_counter() - started
        with lock:
            if response.status == 200 and body.startswith(b"{"):
                latencies.append(seconds)
            else:
                failures.append("%s: %s" % (path, response.status))
    except Exception as error:  # a refused or dropped connection is a failed request
        with lock:
            failures.append("%s: %s" % (path, error))
    finally:
        connection.close()


for round_number in range(options.rounds):
    barrier = threading.Barrier(options.concurrency)
    threads = [threading.Thread(target=one, args=(paths[(round_number * options.concurrency + i)
                                                        % len(paths)], barrier))
               for i in range(options.concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

latencies.sort()
count = len(latencies)
median = statistics.median(latencies) * 1000 if latencies else float("nan")
p99 = latencies[min(count - 1, int(count * 0.99))] * 1000 if latencies else float("nan")
print("burst client: %d rounds of %d simultaneous requests: %d answered, %d failed; "
      "latency median %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms"
      % (options.rounds, options.concurrency, count, len(failures), median,
         latencies[int(count * 0.9)] * 1000 if latencies else float("nan"), p99,
         latencies[-1] * 1000 if latencies else float("nan")))
for failure in failures[:5]:
    print("  failed:", failure)
ok = not failures and (options.max_median_ms is None or median < options.max_median_ms)
sys.exit(0 if ok else 1)
