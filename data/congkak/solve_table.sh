#!/usr/bin/env bash
# The Congkak table: the start's exact score of Congkak(M, N) for M, N = 1..7, smallest first,
# each solve limited to LIMIT seconds (a variant that runs past it is reported as stopped and
# left out), one JSON object a line in OUT (game, houses, seeds, score, value, nodes, seconds).
# ENDGAME is --endgame-seeds: -1 (no endgame database, as table.jsonl was made) or auto (the
# solver's default K).
# Usage: data/congkak/solve_table.sh path/to/rastros OUT [LIMIT] [THREADS] [MEMORY] [ENDGAME]
set -u
RASTROS=${1:?usage: solve_table.sh path/to/rastros OUT [LIMIT] [THREADS] [MEMORY] [ENDGAME]}
OUT=${2:?usage: solve_table.sh path/to/rastros OUT [LIMIT] [THREADS] [MEMORY] [ENDGAME]}
LIMIT=${3:-600}
THREADS=${4:-2}
MEMORY=${5:-1G}
ENDGAME=${6:--1}
endgame=()
[[ $ENDGAME == auto ]] || endgame=(--endgame-seeds "$ENDGAME")
tmp=$OUT.tmp
: >"$tmp"
# Smallest first: by the seeds in all, then the houses.
for variant in $(for m in 1 2 3 4 5 6 7; do for n in 1 2 3 4 5 6 7; do echo "$((m * n)) $m $n"; done; done |
                 sort -n -k1,1 -k2,2 | awk '{print $2 "," $3}'); do
  m=${variant%,*} n=${variant#*,}
  line=$(timeout "$LIMIT" "$RASTROS" --game congkak solve --houses "$m" --seeds "$n" --root-only \
         --json --quiet --threads "$THREADS" --memory "$MEMORY" "${endgame[@]}")
  status=$?
  if [[ $status -ne 0 ]]; then
    echo "congkak($m,$n): stopped (exit $status, limit $LIMIT s)" >&2
    continue
  fi
  python3 -c '
import json, sys
j = json.loads(sys.argv[1])
print(json.dumps({k: j[k] for k in ("game", "houses", "seeds", "score", "value", "nodes", "seconds")}))
' "$line" >>"$tmp"
  echo "congkak($m,$n): $(tail -1 "$tmp")" >&2
done
mv "$tmp" "$OUT"
