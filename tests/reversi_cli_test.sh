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

finish reversi_cli
