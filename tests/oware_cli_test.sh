#!/usr/bin/env bash
# `rastros --game oware`: exit statuses, one-line error messages, the JSON keys, endgame
# database files (written, resumed, verified, refused when damaged), refusals beyond them.
# Usage: oware_cli_test.sh path/to/rastros
set -u

RASTROS=${1:?usage: oware_cli_test.sh path/to/rastros}
# shellcheck source=shell_checks.sh
source "$(dirname "$0")/shell_checks.sh"

expect_text() {
  local what=$1 pattern=$2
  shift 2
  run "$@"
  if [[ $status -ne 0 ]]; then
    fail "$what: exit $status; stderr: $(head -c 300 "$WORK/err")"
  elif ! grep -qE -- "$pattern" "$WORK/out"; then
    fail "$what: stdout does not match '$pattern': $(head -c 500 "$WORK/out")"
  else
    pass
  fi
}

O=(--game oware)

# show
expect_text "start diagram" "Legal moves: 1 2 3 4 5 6" "${O[@]}" show
expect_text "start position string" "Position: 4,4,4,4,4,4,0/4,4,4,4,4,4,0 1" "${O[@]}" show
# 3: houses 4-6 and player 2's house 1 get a seed; then player 2's 6: its 4 seeds to player 1's
# houses 1-4.
expect_json "show --json after moves" \
  'j["game"]=="oware" and j["houses"]==6 and j["moves"]==["3","6"] and j["to_move"]==1 and j["position"]=="5,5,1,6,5,5,0/5,4,4,4,4,0,0 1" and j["ended"]==False' \
  "${O[@]}" show --moves "3 6" --json
# Feeding: the opponent's row is empty, only house 6 reaches it.
expect_json "feeding moves only" 'j["legal_moves"]==["6"]' \
  "${O[@]}" show --position "1,0,0,0,0,1,20/0,0,0,0,0,0,26 1" --json
# A mover with no seeds: the opponent takes the board.
expect_json "an ended game" 'j["ended"] and j["captures"]==[20,28] and j["legal_moves"]==[]' \
  "${O[@]}" show --position "0,0,0,0,0,0,20/0,2,1,0,0,0,25 1" --json

# perft: from the start every house is legal on both sides for two plies.
expect_text "perft 2" "^perft 2: 36$" "${O[@]}" perft --depth 2
expect_json "perft --json" 'j["depth"]==1 and j["nodes"]==6' "${O[@]}" perft --depth 1 --json

# solve: no feeding possible, the mover takes the 2 seeds on the board (23+2 against 23).
expect_json "solve an ended position" \
  'j["score"]==2 and j["value"]=="win" and j["children"]==[] and j["source"]=="database"' \
  "${O[@]}" solve --position "1,1,0,0,0,0,23/0,0,0,0,0,0,23 1" --json
# The same position from a whole database and from a search over a small one.
"$RASTROS" "${O[@]}" solve --houses 3 --seeds 2 --moves "1 3" --endgame-seeds 12 --json --quiet >"$WORK/whole" 2>/dev/null
"$RASTROS" "${O[@]}" solve --houses 3 --seeds 2 --moves "1 3" --endgame-seeds 4 --json --quiet >"$WORK/searched" 2>/dev/null
check "search over a small database agrees with the whole database" python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["source"] == "database" and b["source"] == "search" and b["positions_searched"] > 0
assert (a["score"], a["value"], a["children"]) == (b["score"], b["value"], b["children"])' "$WORK/whole" "$WORK/searched"
expect_error 4 "no exact answer" "the 48-seed start beyond a small database is refused" \
  "${O[@]}" solve --endgame-seeds 6 --max-positions 1000 --quiet

# databases: build, resume to the same bytes, query, verify, stats
db=$WORK/o3.odb
expect_ok "build a database" "${O[@]}" solve --houses 3 --db "$db" --endgame-seeds 10 --quiet
expect_ok "a first build killed after level 6" \
  "${O[@]}" solve --houses 3 --db "$WORK/partial.odb" --endgame-seeds 6 --checkpoint "$WORK/ck" --quiet
expect_ok "the build resumed" \
  "${O[@]}" solve --houses 3 --db "$WORK/resumed.odb" --endgame-seeds 10 --checkpoint "$WORK/ck" --resume --quiet
check "a resumed build writes the same bytes" cmp -s "$db" "$WORK/resumed.odb"
"$RASTROS" "${O[@]}" solve --houses 3 --db "$WORK/generated.odb" --endgame-seeds 10 --level-memory 0 \
  2>"$WORK/generated.err" >/dev/null
check "a build with its moves generated (--level-memory 0): exit 0" test $? -eq 0
check "a build with its moves generated writes the same bytes" cmp -s "$db" "$WORK/generated.odb"
check "its progress says the moves were generated" grep -q "level 10, .*moves generated" "$WORK/generated.err"
mkdir -p "$WORK/scratch"
# The test's levels are small: blocks of 1 KiB and more go to files (1 MiB outside the tests).
RASTROS_TEST_SCRATCH_MIN_BYTES=1024 expect_ok "a build with its working arrays in scratch files" \
  "${O[@]}" solve --houses 3 --db "$WORK/scratch.odb" --endgame-seeds 10 --scratch "$WORK/scratch" --quiet
check "a build in scratch files writes the same bytes" cmp -s "$db" "$WORK/scratch.odb"
check "a build in scratch files leaves no file behind" test -z "$(ls -A "$WORK/scratch")"
expect_json "query" 'j["source"]=="database" and j["score"]==2' \
  "${O[@]}" query --houses 3 --seeds 2 --db "$db" --position "1,1,0,5/0,0,0,5 1" --json
expect_text "verify" "verify: ok" "${O[@]}" verify --houses 3 --db "$db"
expect_json "stats" 'len(j["levels"])==11 and j["levels"][1]["positions"]==6' \
  "${O[@]}" stats --houses 3 --db "$db" --json
cp "$db" "$WORK/damaged.odb"
printf '\x05' | dd of="$WORK/damaged.odb" bs=1 seek=100 conv=notrunc 2>/dev/null
expect_error 3 "checksum|damaged|crc" "a damaged file" "${O[@]}" verify --houses 3 --db "$WORK/damaged.odb"
# A query answered from the file alone reads and checks only the chunks it probes: the one
# chunk of this small file, refused.
expect_error 3 "chunk 0 checksum mismatch" "a query on a damaged chunk" \
  "${O[@]}" query --houses 3 --seeds 2 --db "$WORK/damaged.odb" --position "1,1,0,5/0,0,0,5 1"
expect_error 3 "houses" "a file of other houses" "${O[@]}" query --houses 4 --db "$db"

# bad input: one line, exit 2
expect_error 2 "position" "a malformed position" "${O[@]}" show --position "1,2,3/4 1"
expect_error 2 "not both" "moves and a position" "${O[@]}" show --position "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1" --moves "1"
expect_error 2 "empty" "an empty house" "${O[@]}" show --moves "1 1 1"
expect_error 2 "houses" "a variant out of range" "${O[@]}" show --houses 9
expect_error 2 "at most 250" "too many seeds" "${O[@]}" show --seeds 30
expect_error 2 "at most 250" "seeds whose total overflows an int" "${O[@]}" show --houses 2 --seeds 597499987
expect_error 2 "endgame-seeds" "a database without K" "${O[@]}" solve --db "$WORK/x.odb"
expect_error 2 "memory|size" "a bad --level-memory" \
  "${O[@]}" solve --houses 3 --db "$WORK/x.odb" --endgame-seeds 4 --level-memory lots
expect_error 2 "needs --db" "--scratch without a database to build" "${O[@]}" solve --scratch "$WORK"
expect_error 2 "not a directory" "--scratch that is not a directory" \
  "${O[@]}" solve --houses 3 --db "$WORK/x.odb" --endgame-seeds 4 --scratch "$WORK/missing"
expect_error 2 "no map command" "a command Oware lacks" "${O[@]}" map
expect_error 2 "side" "a bad side" "${O[@]}" play --side 3

# batch: one JSON object a line answered as solve answers it, a bad line an error object and
# exit 2 at the end (exit 0 when every line is good); the files' errors are one line, exit 2
printf '1\n# a comment\n\n--houses 2 --seeds 1\nzz\n--houses=3 --seeds=2 1,0,0,5/0,1,0,5 1\n--houses 9 1\n' >"$WORK/batch.txt"
run "${O[@]}" batch --houses 3 --seeds 2 --input "$WORK/batch.txt" --quiet
check "batch exits 2 with bad lines" test "$status" -eq 2
check "batch lines agree with solve" python3 "$(dirname "$0")/score_batch_check.py" "$WORK/out" \
  "$RASTROS" oware "$WORK/batch.txt" 5,7 --houses 3 --seeds 2
grep -v 'zz\|houses 9' "$WORK/batch.txt" >"$WORK/good.txt"
run "${O[@]}" batch --houses 3 --seeds 2 --input "$WORK/good.txt" --output "$WORK/good.jsonl" --quiet
check "batch exits 0 when every line is good" test "$status" -eq 0
check "batch --output holds the lines" test "$(wc -l <"$WORK/good.jsonl")" -eq 3
expect_error 2 "cannot open --input" "batch: a missing input" "${O[@]}" batch --input "$WORK/none.txt"
expect_error 2 "--resume needs --checkpoint" "batch: --resume alone" "${O[@]}" batch --input "$WORK/batch.txt" --resume
expect_error 2 "standard input cannot be read again" "batch: checkpoint of stdin" \
  "${O[@]}" batch --input - --checkpoint "$WORK/bck"
run "${O[@]}" batch --houses 3 --seeds 2 --endgame-seeds 2 --max-positions 0 --input "$WORK/good.txt" --quiet
check "batch: a line beyond the database is an error object, exit 2" test "$status" -eq 2
check "batch: the refused line says why" grep -q '"line": 1, "error": ".*no exact answer' "$WORK/out"

# play: a game from stdin against perfect play; the computer stops rather than guess.
printf '1\nhint\nundo\n3\n1\n2\n1\n2\n3\n1\n2\nquit\n' >"$WORK/moves"
"$RASTROS" "${O[@]}" play --houses 3 --seeds 2 --quiet <"$WORK/moves" >"$WORK/out" 2>"$WORK/err"
check "play runs a game" grep -qE "The computer plays" "$WORK/out"
check "play gives hints" grep -qE "With perfect play you net" "$WORK/out"
printf '1\n' | "$RASTROS" "${O[@]}" play --max-positions 10 --endgame-seeds 4 --quiet >"$WORK/out" 2>"$WORK/err"
check "play stops beyond the database (exit 4)" test $? -eq 4

finish oware_cli
