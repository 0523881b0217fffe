#!/usr/bin/env bash
# `rastros --game congkak`: exit statuses, one-line error messages and JSON keys of show
# (with --trace), perft and solve. The values themselves are checked against the reference in
# test_congkak_rules.cpp and test_congkak_solver.cpp; the positions here are worked by hand.
# Usage: congkak_cli_test.sh path/to/rastros
set -u

RASTROS=${1:?usage: congkak_cli_test.sh path/to/rastros}
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

C=(--game congkak)

# show: the traditional Congkak(7, 7) by default
expect_text "start diagram" "Legal moves: 1 2 3 4 5 6 7" "${C[@]}" show
expect_text "start title" "^Congkak\(7,7\)$" "${C[@]}" show
expect_text "start position string" "Position: 7,7,7,7,7,7,7,0/7,7,7,7,7,7,7,0 1" "${C[@]}" show
# Congkak(3, 2), house 1 from the start, worked by hand (test_congkak_rules.cpp, HandWorkedRelay):
# four laps, the last into the opponent's house 2 that a relay had lifted.
expect_json "show --json keys" \
  'j["game"]=="congkak" and j["houses"]==3 and j["seeds"]==2 and "rules" not in j and j["moves"]==["1"] and j["to_move"]==2 and j["position"]=="1,0,1,2/4,1,3,0 2" and j["ended"]==False and j["legal_moves"]==["1","2","3"]' \
  "${C[@]}" show --houses 3 --seeds 2 --moves 1 --json
expect_json "show --trace --json" \
  'len(j["trace"])==1 and [l["end"] for l in j["trace"][0]["laps"]]==["player 1'"'"'s house 3","player 2'"'"'s house 2","player 1'"'"'s house 2","player 2'"'"'s house 2"] and j["trace"][0]["laps"][0]["seeds"]==2 and j["trace"][0]["again"]==False and j["trace"][0]["capture"] is None' \
  "${C[@]}" show --houses 3 --seeds 2 --moves 1 --trace --json
expect_text "show --trace text" "lap 4: player 2's house 2, 4 seeds|lap 4: player 1's house 2, 4 seeds, to player 2's house 2 \(empty\): the turn ends" \
  "${C[@]}" show --houses 3 --seeds 2 --moves 1 --trace
expect_json "an ended game" 'j["ended"] and j["score"]==-2 and j["winner"]==2 and j["legal_moves"]==[]' \
  "${C[@]}" show --houses 3 --seeds 2 --position "0,0,0,5/3,2,1,1 1" --json

# perft: from the start every house is a move
expect_text "perft 1" "^perft 1: 7$" "${C[@]}" perft --depth 1
expect_json "perft --json" 'j["game"]=="congkak" and j["depth"]==1 and j["nodes"]==3' \
  "${C[@]}" perft --houses 3 --seeds 2 --depth 1 --json

# solve
expect_json "solve --json keys" \
  'j["game"]=="congkak" and j["houses"]==3 and j["value"] in ("win","draw","loss") and isinstance(j["score"],int) and len(j["children"])==3 and all("score" in c and "move" in c and "value" in c for c in j["children"]) and j["best_moves"] and max(c["score"] for c in j["children"])==j["score"] and "nodes" in j and "seconds" in j' \
  "${C[@]}" solve --houses 3 --seeds 2 --json --quiet
score=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["score"])' <"$WORK/out")
# The endgame database by seeds: the default K, a K given, none; one answer (the moves' too).
for k in default 7 -1; do
  args=(solve --houses 4 --seeds 3 --json --quiet)
  [[ $k == default ]] || args+=(--endgame-seeds "$k")
  "$RASTROS" "${C[@]}" "${args[@]}" >"$WORK/endgame-$k.json"
done
check "the endgame database's K in the JSON (18 by default, 7 given, -1 for none)" python3 -c '
import json, sys
ks = [json.load(open(f))["endgame_seeds"] for f in sys.argv[1:]]
sys.exit(ks != [18, 7, -1])' "$WORK/endgame-default.json" "$WORK/endgame-7.json" "$WORK/endgame--1.json"
check "the same answer with and without the endgame database" python3 -c '
import json, sys
answers = [json.load(open(f)) for f in sys.argv[1:]]
keep = lambda j: (j["score"], j["best_moves"], j["children"])
sys.exit(len({json.dumps(keep(j)) for j in answers}) != 1)' "$WORK/endgame-default.json" "$WORK/endgame-7.json" "$WORK/endgame--1.json"
expect_error 2 "endgame-seeds must be between -1 and 24, not 99" "--endgame-seeds out of range" \
  "${C[@]}" solve --houses 4 --seeds 3 --endgame-seeds 99
expect_json "value-only leaves scores out" \
  '"score" not in j and all("score" not in c for c in j["children"]) and j["value"] in ("win","draw","loss")' \
  "${C[@]}" solve --houses 3 --seeds 2 --json --value-only --quiet
expect_json "root-only" '"children" not in j and j["score"]=='"$score" \
  "${C[@]}" solve --houses 3 --seeds 2 --json --root-only --quiet
expect_json "one thread, same score" 'j["score"]=='"$score" \
  "${C[@]}" solve --houses 3 --seeds 2 --json --threads 1 --quiet
expect_json "an ended position" 'j["score"]==-2 and j["value"]=="loss" and j["children"]==[]' \
  "${C[@]}" solve --houses 3 --seeds 2 --position "0,0,0,5/3,2,1,1 1" --json --quiet
expect_text "text output" "^Score: +[+-]?[0-9]+" "${C[@]}" solve --houses 3 --seeds 2 --quiet

# refused input: one line, exit 2
expect_error 2 "houses" "too many houses" "${C[@]}" show --houses 9
expect_error 2 "congkak\(8,16\) has 256 seeds" "too many seeds" "${C[@]}" solve --houses 8 --seeds 16
expect_error 2 "seeds" "no seeds" "${C[@]}" perft --depth 1 --seeds 0
expect_error 2 "bad position" "a malformed position" "${C[@]}" show --position "7,7/7 1"
expect_error 2 "holds" "seeds that do not add up" "${C[@]}" solve --houses 3 --seeds 2 --position "2,2,2,0/2,2,2,1 1"
expect_error 2 "bad move" "a move off the board" "${C[@]}" show --moves "8"
expect_error 2 "empty" "an empty house" "${C[@]}" show --houses 3 --seeds 2 --moves "1 1 3"
expect_error 2 "either" "moves and position" "${C[@]}" show --moves 1 --position "7,7,7,7,7,7,7,0/7,7,7,7,7,7,7,0 1"
expect_error 2 "--trace" "trace without moves" "${C[@]}" show --trace
expect_error 2 "depth" "perft depth out of range" "${C[@]}" perft --depth 41
expect_error 2 "no map command" "a command Congkak lacks" "${C[@]}" map
expect_error 2 "at most 250" "seeds whose total overflows an int" "${C[@]}" show --houses 2 --seeds 597499987
expect_error 2 "side" "play --side 3" "${C[@]}" play --side 3

# batch: one JSON object a line answered as solve answers it, a bad line an error object and
# exit 2 at the end (exit 0 when every line is good); the files' errors are one line, exit 2
printf '1\n# a comment\n\n--houses 2 --seeds 2\nzz\n--houses=3 --seeds=2 1,0,1,2/4,1,3,0 2\n--rules standard 1\n' >"$WORK/batch.txt"
run "${C[@]}" batch --houses 3 --seeds 2 --input "$WORK/batch.txt" --quiet
check "batch exits 2 with bad lines" test "$status" -eq 2
check "batch lines agree with solve" python3 "$(dirname "$0")/score_batch_check.py" "$WORK/out" \
  "$RASTROS" congkak "$WORK/batch.txt" 5,7 --houses 3 --seeds 2
grep -v 'zz\|rules' "$WORK/batch.txt" >"$WORK/good.txt"
run "${C[@]}" batch --houses 3 --seeds 2 --input "$WORK/good.txt" --output "$WORK/good.jsonl" --quiet
check "batch exits 0 when every line is good" test "$status" -eq 0
check "batch --output holds the lines" test "$(wc -l <"$WORK/good.jsonl")" -eq 3
expect_error 2 "cannot open --input" "batch: a missing input" "${C[@]}" batch --input "$WORK/none.txt"
expect_error 2 "--resume needs --checkpoint" "batch: --resume alone" "${C[@]}" batch --input "$WORK/batch.txt" --resume
expect_error 2 "standard input cannot be read again" "batch: checkpoint of stdin" \
  "${C[@]}" batch --input - --checkpoint "$WORK/bck"
# batch killed (kill -9) part-way with --checkpoint, then resumed: the bytes of one run. Every
# chunk (a line here) is made durable before the checkpoint moves past it, so the kill leaves
# a checkpoint behind however far the run got.
python3 - "$WORK/many.txt" <<'PY'
import random, sys
rng = random.Random(11)
with open(sys.argv[1], "w") as out:
    for i in range(300):
        out.write(" ".join(str(rng.randint(1, 5)) for _ in range(rng.randint(0, 4))) + "\n")
PY
"$RASTROS" "${C[@]}" batch --houses 5 --seeds 3 --input "$WORK/many.txt" --quiet >"$WORK/many.one"
"$RASTROS" "${C[@]}" batch --houses 5 --seeds 3 --input "$WORK/many.txt" --quiet \
  --checkpoint "$WORK/mck" --output "$WORK/many.resumed" &
pid=$!
for _ in $(seq 50); do [[ -s $WORK/mck/batch.checkpoint ]] && break; sleep 0.05; done
sleep 0.2
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
if [[ -e $WORK/mck/batch.checkpoint ]]; then
  check "batch: killed with part of the output saved" test "$(wc -l <"$WORK/mck/output.jsonl")" -lt 300
  "$RASTROS" "${C[@]}" batch --houses 5 --seeds 3 --input "$WORK/many.txt" --quiet \
    --checkpoint "$WORK/mck" --output "$WORK/many.resumed" --resume
  check "batch: resumed exits 2 as one run does (got $?)" test $? -eq 2
fi
check "batch killed and resumed: the bytes of one run" cmp -s "$WORK/many.one" "$WORK/many.resumed"

# Strong database of Congkak(3,3): built, answered from (the live solver's score), verified,
# counted; unreachable positions, another variant's file and a damaged file refused.
"$RASTROS" "${C[@]}" solve --houses 3 --seeds 3 --db "$WORK/c33.rsdb" --quiet >"$WORK/out" 2>"$WORK/err"
check "solve --db builds the (3,3) database" grep -q "strong database: 514 positions" "$WORK/out"
live=$("$RASTROS" "${C[@]}" solve --houses 3 --seeds 3 --moves 2 --json --quiet | grep -o '"score": *-\?[0-9]*')
stored=$("$RASTROS" "${C[@]}" query --db "$WORK/c33.rsdb" --houses 3 --seeds 3 --moves 2 --json | grep -o '"score": *-\?[0-9]*')
check "query: the live solver's score ($live / $stored)" test -n "$live" -a "$live" = "$stored"
expect_text "verify: every record agrees" '"ok": *true' "${C[@]}" verify --db "$WORK/c33.rsdb" --houses 3 --seeds 3 --json
expect_text "stats: counted by seeds" '"positions": *514' "${C[@]}" stats --db "$WORK/c33.rsdb" --houses 3 --seeds 3 --json
run "${C[@]}" query --db "$WORK/c33.rsdb" --houses 3 --seeds 3 --position "9,0,0,0/0,0,9,0 1" --quiet
check "query: a position not reachable exits 4 (got $status)" test "$status" -eq 4
expect_error 3 "not congkak" "query on another variant's database" \
  "${C[@]}" query --db "$WORK/c33.rsdb" --houses 3 --seeds 2
cp "$WORK/c33.rsdb" "$WORK/c33bad.rsdb"
printf '\x55' | dd of="$WORK/c33bad.rsdb" bs=1 seek=600 conv=notrunc status=none
expect_error 3 "checksum|corrupt" "query on a damaged database" \
  "${C[@]}" query --db "$WORK/c33bad.rsdb" --houses 3 --seeds 3
expect_error 2 "positions are reachable: walking them needs more than 30000 bytes of memory" \
  "solve --db beyond --db-memory" "${C[@]}" solve --houses 3 --seeds 3 --db "$WORK/x.rsdb" --db-memory 30000
check "a refused build writes no file" test ! -e "$WORK/x.rsdb"
expect_error 2 "drop --moves" "solve --db with --moves" \
  "${C[@]}" solve --houses 3 --seeds 3 --moves 1 --db "$WORK/x.rsdb"

# play: a move, a hint (every move's score, the best marked), undo, quit
printf '1\nhint\nundo\nquit\n' >"$WORK/moves"
"$RASTROS" "${C[@]}" play --houses 3 --seeds 2 --quiet <"$WORK/moves" >"$WORK/out" 2>"$WORK/err"
check "play: the computer answers" grep -q "The computer plays" "$WORK/out"
check "play: hint" grep -q "(best)" "$WORK/out"
check "play: undo" grep -q "Took back" "$WORK/out"

finish congkak_cli
