#!/usr/bin/env bash
# Solves the start of Oware(M, N) for every M <= 6 and each N whose 2*M*N seeds fit in the
# endgame database built here for M houses, and writes data/oware/starts.jsonl: one line a
# variant, the `rastros solve --game oware --json` answer (score = net seeds player 1 captures
# with perfect play from the start; value for player 1; every first move's score).
# Also rebuilds the shipped database data/oware/oware-6-12.odb (6 houses, 0..12 seeds).
# Usage (from the repository root, after building): data/oware/solve_starts.sh [path/to/rastros]
set -euo pipefail

RASTROS=${1:-build/tools/rastros}
out=data/oware/starts.jsonl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# houses:largest N solved (2*M*N seeds in the database of M houses).
variants=(1:20 2:12 3:8 4:4 5:2 6:1)
: >"$out"
for entry in "${variants[@]}"; do
  m=${entry%%:*} n_max=${entry##*:}
  k=$((2 * m * n_max))
  db=$work/oware-$m.odb
  "$RASTROS" solve --game oware --houses "$m" --db "$db" --endgame-seeds "$k" --quiet >/dev/null
  for ((n = 1; n <= n_max; ++n)); do
    "$RASTROS" query --game oware --houses "$m" --seeds "$n" --db "$db" --json >>"$out"
  done
done
"$RASTROS" solve --game oware --houses 6 --db data/oware/oware-6-12.odb --endgame-seeds 12 --quiet >/dev/null
echo "wrote $out and data/oware/oware-6-12.odb"
