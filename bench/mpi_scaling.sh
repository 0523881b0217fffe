#!/usr/bin/env bash
# MPI scaling on one machine: wall time of the same job on 1 and 2 ranks (one thread each, so
# the ranks, not threads, carry the parallelism), and the ratio. The job's output is compared
# too: both runs must agree. (Google Benchmark cannot time across mpirun's processes, so this
# is a script; it runs each job `REPEAT` times and keeps the best.) Every run includes
# mpirun's start-up, about 0.45 s on this machine with 1 or 2 ranks, so each job is made long
# enough for that to stay a small share.
# Usage: bench/mpi_scaling.sh [path/to/rastros] [repeat] [only jobs whose name contains this]
set -euo pipefail
RASTROS=${1:-build/tools/rastros}
REPEAT=${2:-3}
ONLY=${3:-}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

best_seconds() {  # best_seconds OUTPUT RANKS ARGS...: best wall time of REPEAT runs
  local output=$1 ranks=$2
  shift 2
  local best=
  for _ in $(seq "$REPEAT"); do
    local start end
    start=$(date +%s.%N)
    mpirun --allow-run-as-root --oversubscribe -np "$ranks" "$RASTROS" "$@" --threads 1 >"$output"
    end=$(date +%s.%N)
    best=$(python3 -c "t = $end - $start; b = '$best'; print(t if b == '' else min(t, float(b)))")
  done
  echo "$best"
}

python3 "$(dirname "$0")/../tests/random_games.py" "$WORK/games.txt" 1200 11 7 7 9 16

report() {  # report NAME ARGS...
  local name=$1
  shift
  [[ -z $ONLY || $name == *"$ONLY"* ]] || return 0
  local one two
  one=$(best_seconds "$WORK/one.out" 1 "$@")
  two=$(best_seconds "$WORK/two.out" 2 "$@")
  python3 - "$name" "$one" "$two" "$WORK/one.out" "$WORK/two.out" <<'PY'
import json, sys
name, one, two, a, b = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
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
print(f"{name:32s} 1 rank {one:7.2f} s   2 ranks {two:7.2f} s   speed-up {one / two:4.2f}x   "
      f"{'same output' if same else 'OUTPUT DIFFERS'}")
PY
}

report "map 7x6 (remoteness)" map --board 7x6 --json --quiet
report "map 7x7 --value-only" map --board 7x7 --value-only --json --quiet
report "batch 1200 7x7 games" batch --input "$WORK/games.txt" --quiet
# The strong solve writes its database to a file; the summary on stdout is what is compared
# (positions and layers; the time line differs).
report "strong solve 6x5 (solve --db)" solve --db "$WORK/strong.rdb" --board 6x5 --quiet --json
