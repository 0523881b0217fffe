#!/usr/bin/env bash
# --memory is honoured: the peak resident memory of `rastros solve` (a transposition table of
# that size) and of a strong database build accepted under `solve --db --memory` stays within
# the limit, and a build estimated to need more is refused before it starts.
# Peak RSS is the child's ru_maxrss (getrusage RUSAGE_CHILDREN), through Python.
# Not run in sanitizer builds, whose shadow memory and quarantine inflate every figure.
# Usage: memory_limit_test.sh path/to/rastros
set -u

RASTROS=${1:?usage: memory_limit_test.sh path/to/rastros}
# shellcheck source=shell_checks.sh
source "$(dirname "$0")/shell_checks.sh"

# peak_kib ARGS...: runs rastros; sets $status and $peak (KiB), leaves stderr in $WORK/err.
peak_kib() {
  local result
  result=$(python3 - "$RASTROS" "$@" 2>"$WORK/err" <<'EOF'
import resource, subprocess, sys
status = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
EOF
  )
  status=${result% *}
  peak=${result#* }
}

mib() { echo "$(($1 / 1024)) MiB"; }

# The process at rest (binary, libraries, TBB threads) on top of the table: about 6 MB measured.
OVERHEAD_KIB=$((12 * 1024))

# solve: the table is the memory; 7x7 after three moves, about a second of search.
for limit in 16 64; do
  peak_kib solve --moves "c3 c2 d3" --memory "${limit}M" --quiet --threads 2
  allowed=$((limit * 1024 + OVERHEAD_KIB))
  if [[ $status -ne 0 ]]; then
    fail "solve --memory ${limit}M: exit $status: $(head -c 300 "$WORK/err")"
  elif ((peak > allowed)); then
    fail "solve --memory ${limit}M: peak $(mib "$peak"), more than $(mib "$allowed")"
  else
    echo "solve --memory ${limit}M (7x7 after c3 c2 d3): peak $(mib "$peak")"
    pass
  fi
done

# solve --db: refused up front when the estimate exceeds the limit (exit 2, one line)...
peak_kib solve --db "$WORK/refused.rdb" --board 5x5 --memory 32M --quiet
if [[ $status -eq 2 ]] && grep -q "needs about .* more than --memory 32M" "$WORK/err" &&
    [[ ! -e $WORK/refused.rdb ]] && ((peak < 32 * 1024)); then
  pass
else
  fail "solve --db --board 5x5 --memory 32M: exit $status, peak $(mib "$peak"): $(cat "$WORK/err")"
fi
# ...and within it when accepted: limits just above the estimate of each board.
for build in "5x5 80M" "6x4 80M" "7x4 700M"; do
  board=${build% *}
  limit=${build#* }
  peak_kib solve --db "$WORK/$board.rdb" --board "$board" --memory "$limit" --quiet --threads 2
  allowed=$((${limit%M} * 1024))
  if [[ $status -ne 0 ]]; then
    fail "solve --db --board $board --memory $limit: exit $status: $(head -c 300 "$WORK/err")"
  elif ((peak > allowed)); then
    fail "solve --db --board $board --memory $limit: peak $(mib "$peak"), more than the limit"
  else
    echo "solve --db --board $board --memory $limit: peak $(mib "$peak")"
    pass
  fi
done

finish memory_limit_test
