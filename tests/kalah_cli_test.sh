#!/usr/bin/env bash
# `rastros --game kalah`: exit statuses, one-line error messages, the JSON keys, endgame
# database files (written, used, refused when damaged), and --game on Rastros commands.
# Usage: kalah_cli_test.sh path/to/rastros
set -u

RASTROS=${1:?usage: kalah_cli_test.sh path/to/rastros}
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

K=(--game kalah)

# show
expect_text "start diagram" "Legal moves: 1 2 3 4 5 6" "${K[@]}" show
expect_text "start position string" "Position: 4,4,4,4,4,4,0/4,4,4,4,4,4,0 1" "${K[@]}" show
expect_json "show --json keys" \
  'j["game"]=="kalah" and j["houses"]==6 and j["seeds"]==4 and j["rules"]=="standard" and j["moves"]==["3","6"] and j["to_move"]==2 and j["position"]=="4,4,0,5,5,0,2/5,5,5,5,4,4,0 2" and j["ended"]==False and "score" not in j' \
  "${K[@]}" show --moves "3 6" --json
expect_json "an ended game" 'j["ended"] and j["score"]==-2 and j["winner"]==1 and j["legal_moves"]==[]' \
  "${K[@]}" show --houses 2 --seeds 2 --position "0,0,5/1,2,0 2" --json
expect_text "--game=kalah form" "Kalah\(3,2\)" --game=kalah show --houses 3 --seeds 2

# perft (the counts themselves are checked against the reference in test_kalah_rules.cpp)
# From the start: move 3 ends in the store (another turn, house 3 now empty: 5 replies), the
# five others pass the turn (6 replies each): 5 * 6 + 5.
expect_text "perft" "^perft 2: 35$" "${K[@]}" perft --depth 2
expect_json "perft --json" 'j["nodes"]==942 and j["depth"]==4' "${K[@]}" perft --depth 4 --json

# solve: value, score, best moves, every move's score
expect_json "solve --json keys" \
  'j["game"]=="kalah" and j["value"] in ("win","draw","loss") and isinstance(j["score"],int) and len(j["children"])==3 and all("score" in c and "move" in c and "value" in c for c in j["children"]) and j["best_moves"] and max(c["score"] for c in j["children"])==j["score"] and "remoteness" not in j' \
  "${K[@]}" solve --houses 3 --seeds 2 --json --quiet
score32=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["score"])' <"$WORK/out")
expect_json "value-only leaves scores out" \
  '"score" not in j and all("score" not in c for c in j["children"]) and j["value"] in ("win","draw","loss")' \
  "${K[@]}" solve --houses 3 --seeds 2 --json --value-only --quiet
expect_json "root-only" '"children" not in j and "best_moves" not in j and j["score"]=='"$score32" \
  "${K[@]}" solve --houses 3 --seeds 2 --json --root-only --quiet
expect_json "no endgame database, same score" 'j["score"]=='"$score32"' and j["endgame_seeds"]==-1' \
  "${K[@]}" solve --houses 3 --seeds 2 --json --endgame-seeds -1 --quiet
expect_json "one thread, same score" 'j["score"]=='"$score32" \
  "${K[@]}" solve --houses 3 --seeds 2 --json --threads 1 --quiet
expect_json "an ended position" 'j["score"]==-8 and j["value"]=="loss" and j["children"]==[]' \
  "${K[@]}" solve --houses 2 --seeds 2 --position "0,0,0/1,2,5 1" --json --quiet
expect_text "text output" "^Score: +[+-]?[0-9]+" "${K[@]}" solve --houses 3 --seeds 2 --quiet

# endgame database files
db=$WORK/k32.kdb
expect_json "solve --db" 'j["states"]>0 and j["endgame_seeds"]==12' \
  "${K[@]}" solve --houses 3 --seeds 2 --db "$db" --json --quiet
expect_json "the file answers" 'j["score"]=='"$score32"' and j["endgame_seeds"]==12' \
  "${K[@]}" solve --houses 3 --seeds 2 --endgame "$db" --json --quiet
expect_error 3 "houses|rules" "a file of other houses" "${K[@]}" solve --houses 4 --seeds 2 --endgame "$db"
expect_error 3 "houses|rules" "a file of another rule" "${K[@]}" solve --houses 3 --seeds 2 --rules empty-capture --endgame "$db"
cp "$db" "$WORK/damaged.kdb"
printf '\x05' | dd of="$WORK/damaged.kdb" bs=1 seek=100 conv=notrunc 2>/dev/null
expect_error 3 "checksum|damaged" "a damaged file" "${K[@]}" solve --houses 3 --seeds 2 --endgame "$WORK/damaged.kdb"
# A query answered from the file alone reads and checks only the chunks it probes: the one
# chunk of this small file, refused.
expect_error 3 "chunk 0 checksum mismatch" "a query on a damaged chunk" \
  "${K[@]}" query --houses 3 --seeds 2 --db "$WORK/damaged.kdb"
head -c 50 "$db" >"$WORK/cut.kdb"
expect_error 3 "truncated|size|damaged|not a" "a cut file" "${K[@]}" solve --houses 3 --seeds 2 --endgame "$WORK/cut.kdb"
expect_error 3 "missing" "a missing file" "${K[@]}" solve --endgame "$WORK/none.kdb"
mkfifo "$WORK/pipe.kdb"
expect_error 3 "regular" "a pipe" "${K[@]}" solve --endgame "$WORK/pipe.kdb"
expect_error 3 "not a Kalah" "a Rastros database" "${K[@]}" solve --endgame "$(dirname "$0")/../data/5x5-standard.rdb"
expect_error 3 "a kalah file, not a rastros database \(use --game kalah\)" "a Kalah file given to Rastros" \
  query --db "$db" --position "7/7/7/3o3/7/7/7 1"
expect_error 3 "a kalah file" "a Kalah file given to Rastros stats" stats --db "$db"

# query, verify, stats on the file
expect_json "query from the file = solve" 'j["source"]=="database" and j["score"]=='"$score32"' and len(j["children"])==3' \
  "${K[@]}" query --houses 3 --seeds 2 --db "$db" --json
"$RASTROS" "${K[@]}" solve --houses 3 --seeds 2 --moves "1" --json --quiet >"$WORK/solved" 2>/dev/null
"$RASTROS" "${K[@]}" query --houses 3 --seeds 2 --moves "1" --db "$db" --json >"$WORK/queried" 2>/dev/null
check "query and solve agree on every move" \
  python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); sys.exit(0 if a["children"]==b["children"] and a["score"]==b["score"] and a["best_moves"]==b["best_moves"] else 1)' \
  "$WORK/solved" "$WORK/queried"
small=$WORK/k32-6.kdb
"$RASTROS" "${K[@]}" solve --houses 3 --seeds 2 --db "$small" --endgame-seeds 6 --quiet >/dev/null 2>&1
expect_json "query beyond the file searches" 'j["source"]=="search" and j["score"]=='"$score32" \
  "${K[@]}" query --houses 3 --seeds 2 --db "$small" --json --quiet
run "${K[@]}" query --houses 3 --seeds 2 --db "$small" --no-search
check "query --no-search beyond the file exits 4" test "$status" -eq 4
expect_json "verify accepts the file" 'j["ok"] and j["states"]>0' "${K[@]}" verify --houses 3 --db "$db" --json
python3 - "$db" "$WORK/changed.kdb" <<'PY'
import sys, zlib
data = bytearray(open(sys.argv[1], 'rb').read())
header = data.index(b'\n') + 1
data[header + 300] = (data[header + 300] + 2) % 256   # one record changed
# Its checksums repaired: the CRC-32 of each 64 KiB of the levels (a table after them, closed
# by its own CRC) and the whole file's.
chunks = next(n for n in range(1, 1 << 20)
              if -(-(len(data) - header - 8 - 4 * n) // 65536) == n)
levels = bytes(data[header:len(data) - 8 - 4 * chunks])
table = b''.join(zlib.crc32(levels[i:i + 65536]).to_bytes(4, 'little')
                 for i in range(0, len(levels), 65536))
data[len(data) - 8 - 4 * chunks:-4] = table + zlib.crc32(table).to_bytes(4, 'little')
data[-4:] = zlib.crc32(bytes(data[:-4])).to_bytes(4, 'little')
open(sys.argv[2], 'wb').write(data)
PY
run "${K[@]}" verify --houses 3 --db "$WORK/changed.kdb"
check "verify catches a changed record (exit 1)" test "$status" -eq 1
check "verify names it" grep -q "FAILED" "$WORK/out"
expect_json "stats by seeds" 'len(j["levels"])==13 and sum(l["states"] for l in j["levels"])==j["states"]' \
  "${K[@]}" stats --houses 3 --db "$db" --json

# checkpoints: a hand-made checkpoint's bounds are taken up; a killed solve resumes to the same
# score; a checkpoint of another position or mode is refused
ck=$WORK/ck
mkdir -p "$ck"
printf 'rastros-checkpoint 1\nkind kalah-solve\ngame kalah(3,2)\nlower -12\nmode root-only\nmoves -\nposition 2,2,2,0/2,2,2,0 1\nupper 12\n' >"$ck/solve.checkpoint"
printf 'crc32 %s\n' "$(python3 -c 'import zlib,sys; print("%08x" % zlib.crc32(open(sys.argv[1],"rb").read()))' "$ck/solve.checkpoint")" >>"$ck/solve.checkpoint"
expect_error 2 "resume" "a checkpoint without --resume" "${K[@]}" solve --houses 3 --seeds 2 --root-only --checkpoint "$ck"
expect_error 3 "position" "a checkpoint of another position" "${K[@]}" solve --houses 3 --seeds 2 --moves 1 --root-only --checkpoint "$ck" --resume
expect_error 3 "mode" "a checkpoint of another mode" "${K[@]}" solve --houses 3 --seeds 2 --checkpoint "$ck" --resume
expect_json "resumed from the checkpoint's bounds" 'j["score"]=='"$score32" \
  "${K[@]}" solve --houses 3 --seeds 2 --root-only --checkpoint "$ck" --resume --json --quiet
check "a finished solve leaves no checkpoint" test ! -e "$ck/solve.checkpoint"
expect_error 2 "no checkpoint" "--resume with nothing to resume" "${K[@]}" solve --houses 3 --seeds 2 --checkpoint "$ck" --resume
expect_error 2 "value-only" "--checkpoint with --value-only" "${K[@]}" solve --houses 3 --seeds 2 --value-only --checkpoint "$ck"
expect_error 2 "needs --checkpoint" "--resume alone" "${K[@]}" solve --houses 3 --seeds 2 --resume
"$RASTROS" "${K[@]}" solve --houses 6 --seeds 3 --root-only --json --quiet --checkpoint "$WORK/ck2" >"$WORK/killed" 2>/dev/null &
pid=$!
sleep 2
kill -TERM "$pid" 2>/dev/null
wait "$pid"
killed_status=$?
if [[ -e $WORK/ck2/solve.checkpoint ]]; then resume=(--resume); else resume=(); fi
"$RASTROS" "${K[@]}" solve --houses 6 --seeds 3 --root-only --json --quiet --endgame-seeds 8 >"$WORK/whole"
score63=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["score"])' <"$WORK/whole")
expect_json "a killed solve resumes to the score of a whole run" 'j["score"]=='"$score63" \
  "${K[@]}" solve --houses 6 --seeds 3 --root-only --json --quiet --checkpoint "$WORK/ck2" "${resume[@]}"
check "killed: exit 143 or finished" test "$killed_status" -eq 143 -o "$killed_status" -eq 0

# batch: one JSON line a game or position, in order, bad lines reported with exit 2 at the end
# Kalah(4,3) by default (small, so that the sanitizer builds run it quickly too).
printf '2 1\n# a comment\n\n--houses 3 --seeds 2 1\n--houses=2 --seeds=2 0,0,5/1,2,0 2\n7\n--board 5x5 c3\n' >"$WORK/batch.txt"
run "${K[@]}" batch --houses 4 --seeds 3 --input "$WORK/batch.txt" --quiet
check "batch exits 2 with bad lines" test "$status" -eq 2
check "batch: one output line a job or error" test "$(wc -l <"$WORK/out")" -eq 5
check "batch lines agree with solve" python3 - "$WORK/out" "$RASTROS" <<'PY'
import json, subprocess, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert [l["line"] for l in lines] == [1, 4, 5, 6, 7], lines
assert "error" in lines[3] and "error" in lines[4] and "nodes" not in lines[0]
solved = json.loads(subprocess.run([sys.argv[2], "solve", "--game", "kalah", "--houses", "3", "--seeds", "2",
                                    "--moves", "1", "--json", "--quiet"], capture_output=True, text=True).stdout)
assert lines[1]["score"] == solved["score"] and lines[1]["children"] == solved["children"], (lines[1], solved)
assert lines[2]["score"] == -2 and lines[2]["children"] == []
PY
"$RASTROS" "${K[@]}" batch --houses 4 --seeds 3 --input - --output "$WORK/batch.jsonl" --quiet <"$WORK/batch.txt"
check "batch --output from stdin holds the same lines" cmp -s "$WORK/out" "$WORK/batch.jsonl"

# bad input: one line, exit 2
expect_error 2 "houses" "--houses 0" "${K[@]}" show --houses 0
expect_error 2 "houses" "--houses 9" "${K[@]}" show --houses 9
expect_error 2 "seeds" "--seeds 0" "${K[@]}" show --seeds 0
expect_error 2 "seeds" "too many seeds" "${K[@]}" show --houses 8 --seeds 100
expect_error 2 "rules" "--rules" "${K[@]}" show --rules stuck-draw
expect_error 2 "house number" "move 7" "${K[@]}" show --moves "7"
expect_error 2 "house number" "move 0" "${K[@]}" show --moves "0"
expect_error 2 "house number" "move x" "${K[@]}" show --moves "x"
expect_error 2 "empty" "an empty house" "${K[@]}" show --moves "3 3"
expect_error 2 "ended" "a move after the end" "${K[@]}" show --houses 1 --seeds 1 --moves "1 1"
expect_error 2 "two rows" "one row" "${K[@]}" show --position "4,4,4,4,4,4,0 1"
expect_error 2 "row has" "a short row" "${K[@]}" show --position "4,4,4,4,4,0/4,4,4,4,4,4,0 1"
expect_error 2 "holds 47 seeds" "a wrong seed total" "${K[@]}" show --position "4,4,4,4,4,3,0/4,4,4,4,4,4,0 1"
expect_error 2 "side to move" "side 3" "${K[@]}" show --position "4,4,4,4,4,4,0/4,4,4,4,4,4,0 3"
expect_error 2 "not a number" "a letter" "${K[@]}" show --position "4,4,4,4,4,a,0/4,4,4,4,4,4,0 1"
expect_error 2 "ROW/ROW" "no side" "${K[@]}" show --position "4,4,4,4,4,4,0/4,4,4,4,4,4,0"
expect_error 2 "either" "moves and position" "${K[@]}" show --moves 3 --position "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1"
expect_error 2 "unknown game" "an unknown game" --game go show
expect_error 2 "no map command" "a command Kalah lacks" "${K[@]}" map
expect_error 2 "depth" "perft depth" "${K[@]}" perft --depth 41
expect_error 2 "endgame-seeds" "endgame seeds too many" "${K[@]}" solve --houses 2 --seeds 1 --endgame-seeds 5
expect_error 2 "unrecognised|unknown" "a Rastros option" "${K[@]}" show --board 5x5

# --game rastros is the default and changes nothing
"$RASTROS" solve --board 4x4 --json >"$WORK/plain" 2>/dev/null
"$RASTROS" solve --game rastros --board 4x4 --json >"$WORK/named" 2>/dev/null
check "--game rastros gives the same answer" \
  cmp -s <(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); j.pop("nodes"); j.pop("seconds"); print(j)' "$WORK/plain") \
         <(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); j.pop("nodes"); j.pop("seconds"); print(j)' "$WORK/named")

# play: a whole game from stdin against perfect play ends with the final stores
printf '1\n1\n1\n1\nhint\nundo\nquit\n' >"$WORK/moves"
"$RASTROS" "${K[@]}" play --houses 2 --seeds 1 --quiet <"$WORK/moves" >"$WORK/out" 2>"$WORK/err"
check "play runs a game" grep -qE "The computer plays|The game is over|Sorry" "$WORK/out"

finish kalah_cli
