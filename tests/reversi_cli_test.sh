#!/usr/bin/env bash
# `rastros --game reversi`: exit statuses, one-line error messages, the JSON keys of show,
# perft and solve, and a stopped solve.
# Usage: reversi_cli_test.sh path/to/rastros
set -u

RASTROS=${1:?usage: reversi_cli_test.sh path/to/rastros}
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

R=(--game reversi)
START8="---------------------------OX------XO--------------------------- X"

# show
expect_text "start legal moves" "Legal moves: d3 c4 f5 e6" "${R[@]}" show
expect_text "start position string" "Position: $START8" "${R[@]}" show
expect_json "show --json keys" \
  'j["game"]=="reversi" and j["board"]=="8x8" and j["moves"]==["f5","d6"] and j["to_move"]==1 and j["legal_moves"]==["c3","c4","c5","c6","c7"] and j["ended"]==False' \
  "${R[@]}" show --moves "f5 d6" --json
expect_json "an ended game" 'j["ended"] and j["score"]==-16 and j["legal_moves"]==[]' \
  "${R[@]}" show --board 4x4 --position "XX-------------- O" --json
expect_json "a forced pass" 'j["legal_moves"]==["pass"]' \
  "${R[@]}" show --board 4x4 --position "XXO------------- O" --json

# perft (the counts themselves are checked against the published ones in test_reversi_rules.cpp)
expect_text "perft says passes count" "^perft 3: 56 \(passes count as moves\)$" "${R[@]}" perft --depth 3
expect_json "perft --json" 'j["nodes"]==244 and j["depth"]==4 and j["passes_count"]' "${R[@]}" perft --depth 4 --json

# solve: 4x4 from the start (white wins 11-3, the 2 empty squares to the winner: -10 for black)
expect_json "solve 4x4 --json" \
  'j["game"]=="reversi" and j["board"]=="4x4" and j["score"]==-10 and j["value"]=="loss" and j["winner"]==2 and len(j["children"])==4 and all(c["score"]==-10 for c in j["children"]) and "nodes" in j and "seconds" in j' \
  "${R[@]}" solve --board 4x4 --json --quiet
expect_json "solve --value-only" 'j["value"]=="loss" and "score" not in j and all("score" not in c for c in j["children"])' \
  "${R[@]}" solve --board 4x4 --value-only --json --quiet
expect_json "solve --root-only" 'j["score"]==-10 and "children" not in j' \
  "${R[@]}" solve --board 4x4 --root-only --json --quiet

# bad input: exit 2, one line
expect_error 2 "board" "a 5x5 board" "${R[@]}" show --board 5x5
expect_error 2 "position" "a short position" "${R[@]}" show --position "XO X"
expect_error 2 "unexpected" "a bad square character" "${R[@]}" show --board 4x4 --position "XQ-------------- X"
expect_error 2 "X or O" "a bad side to move" "${R[@]}" show --board 4x4 --position "XO-------------- Z"
expect_error 2 "illegal move" "an illegal move" "${R[@]}" show --moves "f5 f5"
expect_error 2 "illegal move" "a pass that is not forced" "${R[@]}" solve --moves "pass"
expect_error 2 "bad move" "a square off the board" "${R[@]}" show --board 6x6 --moves "g1"
expect_error 2 "not both" "moves and a position" "${R[@]}" show --moves "f5" --position "$START8"
expect_error 2 "depth" "a depth out of range" "${R[@]}" perft --depth 99

# batch: one JSON object a line answered as solve answers it, a bad line an error object and
# exit 2 at the end (exit 0 when every line is good); the files' errors are one line, exit 2
printf -- '--board 4x4\n# a comment\n\nb1\nzz\n-----OX--XO----- O\n--board=4x4 d3\n--board 5x5 a1\n' >"$WORK/batch.txt"
run "${R[@]}" batch --board 4x4 --input "$WORK/batch.txt" --quiet
check "batch exits 2 with bad lines" test "$status" -eq 2
check "batch lines agree with solve" python3 "$(dirname "$0")/score_batch_check.py" "$WORK/out" \
  "$RASTROS" reversi "$WORK/batch.txt" 5,8 --board 4x4
grep -v 'zz\|5x5' "$WORK/batch.txt" >"$WORK/good.txt"
run "${R[@]}" batch --board 4x4 --input "$WORK/good.txt" --output "$WORK/good.jsonl" --quiet
check "batch exits 0 when every line is good" test "$status" -eq 0
check "batch --output holds the lines" test "$(wc -l <"$WORK/good.jsonl")" -eq 4
expect_error 2 "cannot open --input" "batch: a missing input" "${R[@]}" batch --input "$WORK/none.txt"
expect_error 2 "--resume needs --checkpoint" "batch: --resume alone" "${R[@]}" batch --input "$WORK/batch.txt" --resume
expect_error 2 "standard input cannot be read again" "batch: checkpoint of stdin" \
  "${R[@]}" batch --input - --checkpoint "$WORK/bck"
# SIGINT stops a batch in the middle of a long line (8x8 after one move), its progress saved
printf 'f5\n' >"$WORK/long.txt"
"$RASTROS" "${R[@]}" batch --input "$WORK/long.txt" --checkpoint "$WORK/lck" --quiet >"$WORK/out" 2>"$WORK/err" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
status=$?
check "SIGINT stops a batch mid-line with 130" test "$status" -eq 130
check "a stopped batch says where to resume" grep -q "run again with --resume" "$WORK/err"

# Ctrl-C stops a long solve cleanly (exit 130)
"$RASTROS" "${R[@]}" solve --quiet --root-only >"$WORK/out" 2>"$WORK/err" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
status=$?
check "SIGINT stops a solve with 130" test "$status" -eq 130
check "a stopped solve says so" grep -q "stopped" "$WORK/err"

# A split job (--checkpoint): 4x4 stopped after 3 pieces (exit 5), resumed to the plain
# solve's answer; a 6x6 position killed with SIGKILL mid-piece, resumed to the plain answer.
expect_json "split job 4x4 at depth 3" 'j["score"]==-10 and j["value"]=="loss" and j["winner"]==2 and "children" not in j' \
  "${R[@]}" solve --board 4x4 --root-only --checkpoint "$WORK/split1" --split-depth 3 --json --quiet
run "${R[@]}" solve --board 4x4 --root-only --checkpoint "$WORK/split2" --split-depth 4 --stop-after-pieces 3 --quiet
check "--stop-after-pieces exits 5" test "$status" -eq 5
check "a sliced job says how to go on" grep -q "run again with --resume" "$WORK/err"
check "3 pieces logged" test "$(stat -c %s "$WORK/split2/pieces.log")" -eq $((20 + 3 * 32))
expect_json "the resumed split job" 'j["score"]==-10' \
  "${R[@]}" solve --board 4x4 --root-only --checkpoint "$WORK/split2" --split-depth 4 --resume --json --quiet
expect_error 2 "already holds a split job" "a split job started again without --resume" \
  "${R[@]}" solve --board 4x4 --root-only --checkpoint "$WORK/split2"
expect_error 3 "written for a 4x4 board, not 6x6" "a split job of another board" \
  "${R[@]}" solve --board 6x6 --root-only --checkpoint "$WORK/split2" --resume
expect_error 2 "add --root-only" "--checkpoint without --root-only" "${R[@]}" solve --board 4x4 --checkpoint "$WORK/split3"
expect_error 2 "split-depth" "--split-depth out of range" "${R[@]}" solve --board 4x4 --root-only --checkpoint "$WORK/split3" --split-depth 21
expect_error 2 "need --checkpoint" "--resume without --checkpoint" "${R[@]}" solve --board 4x4 --root-only --resume
M6="e4 e5 d5 e3 f5 f6 d2 c5 b3 a2 a3 b2 d6 e2"  # 6x6 after 14 moves: 18 empty squares
run "${R[@]}" solve --board 6x6 --moves "$M6" --root-only --json --quiet
plain6=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["score"])' "$WORK/out")
"$RASTROS" "${R[@]}" solve --board 6x6 --moves "$M6" --root-only --checkpoint "$WORK/split6" \
  --split-depth 3 --threads 1 --quiet >/dev/null 2>&1 &
pid=$!
sleep 0.3
kill -KILL "$pid"
wait "$pid" 2>/dev/null
# A torn append, as a kill in the middle of a write leaves it.
printf 'torn' >>"$WORK/split6/pieces.log"
expect_json "a killed 6x6 split job resumes to the plain answer" "j['score']==$plain6" \
  "${R[@]}" solve --board 6x6 --moves "$M6" --root-only --checkpoint "$WORK/split6" --split-depth 3 --resume --json --quiet

# play: commands from stdin. play_with INPUT ARGS...: runs `play --game reversi --quiet` with the
# lines of INPUT on stdin; stdout in $WORK/out, the status in $status.
play_with() {
  local input=$1
  shift
  printf '%b' "$input" | "$RASTROS" "${R[@]}" play --quiet "$@" >"$WORK/out" 2>"$WORK/err"
  status=$?
}
has() { grep -qE -- "$1" "$WORK/out"; }
# 4x4: exact from the start (every first move loses by 10, docs/rules.md); a refused square, a
# move, the program's exact answer, undo back to the start.
play_with 'hint\na1\nb1\nundo\nshow\nquit\n' --board 4x4
check "play exits 0 on quit" test "$status" -eq 0
check "play hint: every move's exact score" has "(^|> )  b1  -10  \(best\)$"
check "play refuses an illegal square" has "(^|> )Sorry, a1 is not a legal move here\.$"
check "play: the program's move is exact" has "^The program plays [a-d][1-4] \(exact: \+10\)\.$"
check "play undo takes back both moves" has "(^|> )Took back b1 [a-d][1-4]\.$"
# 8x8: before the threshold the program says it estimated.
play_with 'f5\nhint\nquit\n' --depth 2
check "play 8x8: an estimate, labelled" has "^The program plays [a-h][1-8] \(estimate \(depth 2, evaluation\): [-+]?[0-9]+\)\.$"
check "play 8x8: hint names the best move" has "(^|> )Best move [a-h][1-8] \(estimate \(depth 2"
# The program against itself on 4x4 plays perfectly: white wins by 10 (docs/rules.md).
play_with '' --board 4x4 --human none
check "play --human none: a whole game" has "^The game is over: X [0-9]+, O [0-9]+\. O \(white\) wins\."
check "play --human none: exact throughout" test "$(grep -c 'estimate' "$WORK/out")" -eq 0
# A forced pass: white has no move.
play_with 'd1\npass\nquit\n' --board 4x4 --position "XXO------------- O" --human white
check "play: a move refused when only pass is legal" has "you have no move, pass\.$"
check "play: pass accepted" has "^X \(black\) to move\.$"
play_with 'pass\nquit\n' --board 4x4
check "play: pass refused when a move exists" has "(^|> )Sorry, you have a move: pass only when there is none\.$"
play_with 'quit\n' --moves "f5 d6" --human white --depth 1
check "play from given moves" has "^O \(white\) to move \(you\)\.$"
expect_error 2 "human" "play --human out of range" "${R[@]}" play --human red
expect_error 2 "exact-empties" "play --exact-empties out of range" "${R[@]}" play --exact-empties 65
expect_error 2 "depth" "play --depth out of range" "${R[@]}" play --depth 0
expect_error 2 "illegal move" "play from an illegal line" "${R[@]}" play --moves "a1"

# The strong database of 4x4: rebuilt byte for byte as shipped, answered from, verified,
# counted; foreign, damaged and unheld input refused.
DB44="$(dirname "$0")/../data/reversi/reversi-4x4.rsdb"
run "${R[@]}" solve --board 4x4 --db "$WORK/r44.rsdb" --quiet
check "solve --db builds the 4x4 database" test "$status" -eq 0
check "the 4x4 database is rebuilt byte for byte as shipped" cmp -s "$DB44" "$WORK/r44.rsdb"
"$RASTROS" "${R[@]}" solve --board 4x4 --moves "b1 a1" --json --quiet >"$WORK/live.json"
run "${R[@]}" query --db "$DB44" --moves "b1 a1" --json
check "query answers as solve does (without nodes and seconds)" python3 -c '
import json, sys
live = json.load(open(sys.argv[1])); db = json.load(open(sys.argv[2]))
for key in ("nodes", "seconds"): live.pop(key)
sys.exit(live != db)' "$WORK/live.json" "$WORK/out"
expect_text "verify --game reversi" "^verify: ok, 58533 positions recomputed$" "${R[@]}" verify --db "$DB44"
expect_json "stats --game reversi --json" \
  'j["positions"]==58533 and sum(e["positions"] for e in j["by_empties"])==58533 and j["by_empties"][-1]=={"empties":12,"positions":1,"by_score":{"-10":1}}' \
  "${R[@]}" stats --db "$DB44" --json
expect_error 4 "does not hold" "query: a position no game reaches" \
  "${R[@]}" query --db "$DB44" --position "XXXX-----OX--XO- O"
expect_error 2 "out of reach" "solve --db on 6x6" "${R[@]}" solve --board 6x6 --db "$WORK/r66.rsdb"
expect_error 3 "not reversi 6x6" "query with another board" "${R[@]}" query --db "$DB44" --board 6x6
expect_error 3 "bad magic|magic" "query on another game's database" \
  "${R[@]}" query --db "$(dirname "$0")/../data/5x5-standard.rdb"
# A damaged block index is refused on opening; a damaged block when a query reads it, and by
# verify, which reads the whole file.
cp "$DB44" "$WORK/flipped.rsdb"
printf '\x55' | dd of="$WORK/flipped.rsdb" bs=1 seek=100 conv=notrunc status=none
expect_error 3 "header checksum mismatch" "query on a damaged block index" "${R[@]}" query --db "$WORK/flipped.rsdb"
cp "$DB44" "$WORK/flipped.rsdb"
printf '\x55' | dd of="$WORK/flipped.rsdb" bs=1 seek=5000 conv=notrunc status=none
expect_error 3 "checksum|corrupt" "verify on a damaged block" "${R[@]}" verify --db "$WORK/flipped.rsdb"
python3 -c '
import sys
data = bytearray(open(sys.argv[1], "rb").read())
for i in range(400, len(data) - 4): data[i] ^= 0x55  # every block after the index is damaged
open(sys.argv[1], "wb").write(data)' "$WORK/flipped.rsdb"
expect_error 3 "block [0-9]+: checksum mismatch" "query on a damaged block" \
  "${R[@]}" query --db "$WORK/flipped.rsdb" --moves "b1 a1"

# serve's Reversi options: refused out of range, or for another game (before listening)
expect_error 2 "bad board" "serve --board 5x5" "${R[@]}" serve --board 5x5 --port 0 --quiet
expect_error 2 "depth" "serve --depth 0" "${R[@]}" serve --depth 0 --port 0 --quiet
expect_error 2 "applies to rastros serve --game kalah" "serve --houses with reversi" "${R[@]}" serve --houses 3 --port 0 --quiet
expect_error 2 "applies to rastros serve --game reversi" "serve --board without reversi" serve --board 4x4 --port 0 --quiet

finish reversi_cli
