#!/usr/bin/env bash
# MPI scaling on one machine: wall time of the same job on 1 and 2 ranks (one thread each, so
# the ranks, not threads, carry the parallelism), and the ratio. The job's output is compared
# too: both runs must agree. (Google Benchmark cannot time across mpirun's processes, so this
# is a script.) Each job runs `REPEAT` times on 1 rank and on 2, interleaved (1, 2, 1, 2, ...):
# this machine's speed drifts by 10-20% over minutes, and runs of one kind in a block would
# carry the drift into the ratio. It reports the best time of each and the median of the
# ratios of consecutive pairs. Every run includes mpirun's start-up, about 0.45 s on this
# machine with 1 or 2 ranks, so each job is made long enough for that to stay a small share.
# Usage: bench/mpi_scaling.sh [path/to/rastros] [repeat] [only jobs whose name contains this]
set -euo pipefail
RASTROS=${1:-build/tools/rastros}
REPEAT=${2:-3}
ONLY=${3:-}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

seconds() {  # seconds OUTPUT RANKS ARGS...: wall time of one run
  local output=$1 ranks=$2
  shift 2
  local start end
  start=$(date +%s.%N)
  mpirun --allow-run-as-root --oversubscribe -np "$ranks" "$RASTROS" "$@" --threads 1 >"$output"
  end=$(date +%s.%N)
  python3 -c "print($end - $start)"
}

python3 "$(dirname "$0")/../tests/random_games.py" "$WORK/games.txt" 1200 11 7 7 9 16

report() {  # report NAME ARGS...
  local name=$1
  shift
  [[ -z $ONLY || $name == *"$ONLY"* ]] || return 0
  local ones=() twos=()
  for _ in $(seq "$REPEAT"); do
    ones+=("$(seconds "$WORK/one.out" 1 "$@")")
    twos+=("$(seconds "$WORK/two.out" 2 "$@")")
  done
  python3 - "$name" "${ones[*]}" "${twos[*]}" "$WORK/one.out" "$WORK/two.out" <<'PY'
import json, statistics, sys
name, a, b = sys.argv[1], sys.argv[4], sys.argv[5]
ones, twos = [list(map(float, arg.split())) for arg in sys.argv[2:4]]
one, two = min(ones), min(twos)
pairs = statistics.median(x / y for x, y in zip(ones, twos))
def content(path):
    text = open(path).read()
    try:
        data = json.loads(text)
    except ValueError:
        return text
    if "squares" in data:
        return data["squares"]
    return {k: v for k, v in data.items() if k not in ("seconds", "nodes", "bytes_per_position")}
same = content(a) == content(b)
print(f"{name:32s} 1 rank {one:7.2f} s   2 ranks {two:7.2f} s   speed-up {one / two:4.2f}x "
      f"(best of each), {pairs:4.2f}x (median of pairs)   "
      f"{'same output' if same else 'OUTPUT DIFFERS'}")
PY
}

report "map 7x6 (remoteness)" map --board 7x6 --json --quiet
report "map 7x7 --value-only" map --board 7x7 --value-only --json --quiet
report "batch 1200 7x7 games" batch --input "$WORK/games.txt" --quiet
# The strong solve writes its database to a file; the summary on stdout is what is compared
# (positions and layers; the time line differs).
report "strong solve 6x5 (solve --db)" solve --db "$WORK/strong.rdb" --board 6x5 --quiet --json
