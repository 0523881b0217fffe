#!/usr/bin/env bash
# The Kalah table: the start's exact score of Kalah(M,N) for M, N = 1..6 under both capture
# rules, one `rastros solve --game kalah --root-only --json` line a variant, in
# data/kalah/table.jsonl. A variant not settled within the time limit gets a line with
# "settled": false and the seconds it was given.
#   bash data/kalah/solve_table.sh [SECONDS_PER_VARIANT] [ENDGAME_DIR]
# ENDGAME_DIR may hold endgame databases named k<M>-<rules>-<K>.kdb (solve --db); the largest K
# of a variant's houses and rules is used, else the command builds a small one itself.
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=${1:-300}
endgames=${2:-}
rastros=${RASTROS:-build/tools/rastros}
out=data/kalah/table.jsonl
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for rules in standard empty-capture; do
  for houses in 1 2 3 4 5 6; do
    for seeds in 1 2 3 4 5 6; do
      endgame=()
      if [[ -n $endgames ]]; then
        best=$(ls "$endgames"/k"$houses"-"$rules"-*.kdb 2>/dev/null | sort -t- -k3 -n | tail -1 || true)
        [[ -n $best ]] && endgame=(--endgame "$best")
      fi
      echo "kalah($houses,$seeds) $rules ..." >&2
      if timeout "$limit" "$rastros" solve --game kalah --houses "$houses" --seeds "$seeds" \
          --rules "$rules" --root-only --json --quiet "${endgame[@]}" >"$tmp.line"; then
        cat "$tmp.line" >>"$tmp"
      else
        printf '{"game": "kalah", "houses": %d, "seeds": %d, "rules": "%s", "settled": false, "seconds": %d}\n' \
          "$houses" "$seeds" "$rules" "$limit" >>"$tmp"
      fi
    done
  done
done
rm -f "$tmp.line"
mv "$tmp" "$out"
echo "wrote $out" >&2
