#!/usr/bin/env bash
# Checkpoints of maps, strong solves and proof-number searches: a `rastros map` killed (SIGKILL)
# at random moments and resumed, or stopped by Ctrl-C and resumed, gives the same squares as an
# uninterrupted run; a `rastros solve --db` (strong, or a proof: the walk shared with strategy
# databases) likewise gives a byte-identical database, and a
# `rastros solve --algorithm proof-number` the same answer; bad resumes are refused.
# (Batch checkpoints: batch_test.sh.)
# Usage: checkpoint_test.sh path/to/rastros
set -u

RASTROS=${1:?usage: checkpoint_test.sh path/to/rastros}
# shellcheck source=shell_checks.sh
source "$(dirname "$0")/shell_checks.sh"

MAP=(map --board 7x5 --json --quiet)
start_ns=$(date +%s%N)
"$RASTROS" "${MAP[@]}" >"$WORK/reference.json"
run_ms=$((($(date +%s%N) - start_ns) / 1000000))
squares "$WORK/reference.json" >"$WORK/reference.squares"

for round in 1 2 3; do
  rm -rf "$WORK/ck"
  kills=0
  for attempt in 1 2 3 4; do
    "$RASTROS" "${MAP[@]}" --checkpoint "$WORK/ck" --resume >"$WORK/partial.json" &
    pid=$!
    sleep "$(printf '0.%03d' $((RANDOM % (run_ms / 2 + 1) % 1000 + 1)))"
    kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
    wait "$pid" 2>/dev/null
  done
  "$RASTROS" "${MAP[@]}" --checkpoint "$WORK/ck" --resume >"$WORK/resumed.json"
  check "map killed $kills times and resumed: same squares (round $round)" \
    cmp -s <(squares "$WORK/resumed.json") "$WORK/reference.squares"
  check "checkpoint removed when the map is done" test ! -e "$WORK/ck"
done

rm -rf "$WORK/ck"
"$RASTROS" "${MAP[@]}" --checkpoint "$WORK/ck" >"$WORK/stopped.json" 2>"$WORK/stopped.err" &
pid=$!
# The map writes its checkpoint before the first square; waiting for it (rather than a fixed
# delay) keeps a slow start, as under the sanitizers, from racing the signal handler.
for _ in $(seq 100); do
  [[ -e $WORK/ck/map.checkpoint ]] && break
  sleep 0.05
done
kill -INT "$pid"
wait "$pid"
status=$?
if [[ $status -ne 0 ]]; then
  check "Ctrl-C: exit 130 (got $status)" test "$status" -eq 130
  check "Ctrl-C: nothing on stdout" test ! -s "$WORK/stopped.json"
  check "Ctrl-C: says how to resume" grep -q -- "--resume" "$WORK/stopped.err"
  "$RASTROS" "${MAP[@]}" --checkpoint "$WORK/ck" >/dev/null 2>&1
  check "unfinished checkpoint not overwritten without --resume (exit 2)" test $? -eq 2
  "$RASTROS" "${MAP[@]}" --value-only --checkpoint "$WORK/ck" --resume >/dev/null 2>"$WORK/other.err"
  check "resume of another map refused (exit 2)" test $? -eq 2
  check "resume of another map: says why" grep -q "another map" "$WORK/other.err"
  "$RASTROS" "${MAP[@]}" --checkpoint "$WORK/ck" --resume >"$WORK/resumed.json"
  check "Ctrl-C then --resume: same squares" \
    cmp -s <(squares "$WORK/resumed.json") "$WORK/reference.squares"
else
  echo "note: the map finished before Ctrl-C arrived; skipping"
fi

# A damaged checkpoint is a file error (exit 3).
mkdir -p "$WORK/ck"
printf 'rastros-checkpoint 1\nkind map\nmap 7x5 king standard remoteness\ncrc32 00000000\n' \
  >"$WORK/ck/map.checkpoint"
"$RASTROS" "${MAP[@]}" --checkpoint "$WORK/ck" --resume >/dev/null 2>"$WORK/damaged.err"
check "damaged checkpoint: exit 3" test $? -eq 3
check "damaged checkpoint: says so" grep -q "checksum mismatch" "$WORK/damaged.err"
"$RASTROS" map --board 5x5 --resume >/dev/null 2>&1
check "--resume without --checkpoint: exit 2" test $? -eq 2

# -- Strong solves -----------------------------------------------------------------------------
SOLVE=(solve --board 7x4 --quiet)
start_ns=$(date +%s%N)
"$RASTROS" "${SOLVE[@]}" --db "$WORK/reference.rdb" >/dev/null
run_ms=$((($(date +%s%N) - start_ns) / 1000000))
rm -rf "$WORK/sk"
kills=0
for attempt in 1 2 3 4; do
  "$RASTROS" "${SOLVE[@]}" --db "$WORK/resumed.rdb" --checkpoint "$WORK/sk" --resume >/dev/null &
  pid=$!
  sleep "$(python3 -c "import random; print(random.uniform(0.3, 0.9) * $run_ms / 1000)")"
  kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
  wait "$pid" 2>/dev/null
  # Under the final name: nothing, or the complete database (the kill came after the end).
  if [[ -e $WORK/resumed.rdb ]] && ! cmp -s "$WORK/reference.rdb" "$WORK/resumed.rdb"; then
    fail "a partial database under the final name (attempt $attempt)"
  else
    pass
  fi
done
if [[ -e $WORK/sk/strong.checkpoint ]]; then
  "$RASTROS" "${SOLVE[@]}" --db "$WORK/resumed.rdb" --checkpoint "$WORK/sk" >/dev/null 2>&1
  check "unfinished strong checkpoint not overwritten without --resume (exit 2)" test $? -eq 2
  "$RASTROS" "${SOLVE[@]}" --start c2 --db "$WORK/resumed.rdb" --checkpoint "$WORK/sk" --resume \
    >/dev/null 2>&1
  check "resume of another game refused (exit 2)" test $? -eq 2
fi
"$RASTROS" "${SOLVE[@]}" --db "$WORK/resumed.rdb" --checkpoint "$WORK/sk" --resume >/dev/null
check "strong solve killed $kills times and resumed: byte-identical database" \
  cmp -s "$WORK/reference.rdb" "$WORK/resumed.rdb"
check "strong checkpoint removed once the database is written" test ! -e "$WORK/sk"

# stop_and_resume NAME SIGNAL STATUS FRACTION REFERENCE ARGS...: runs `rastros ARGS --db
# WORK/stopped.rdb --checkpoint WORK/stopped-ck`, sends SIGNAL after FRACTION of run_ms, expects
# exit STATUS, a hint to resume and no database yet; then --resume must write REFERENCE's bytes.
stop_and_resume() {
  local name=$1 signal=$2 want=$3 fraction=$4 reference=$5
  shift 5
  rm -rf "$WORK/stopped-ck" "$WORK/stopped.rdb"
  "$RASTROS" "$@" --db "$WORK/stopped.rdb" --checkpoint "$WORK/stopped-ck" 2>"$WORK/stopped.err" &
  local pid=$!
  sleep "$(python3 -c "print($fraction * $run_ms / 1000)")"
  kill "-$signal" "$pid"
  wait "$pid"
  local status=$?
  if [[ $status -eq 0 ]]; then
    echo "note: the $name finished before $signal arrived; skipping"
    return
  fi
  check "$name, $signal: exit $want (got $status)" test "$status" -eq "$want"
  check "$name, $signal: says how to resume" grep -q -- "--resume" "$WORK/stopped.err"
  check "$name, $signal: no database written" test ! -e "$WORK/stopped.rdb"
  "$RASTROS" "$@" --db "$WORK/stopped.rdb" --checkpoint "$WORK/stopped-ck" --resume >/dev/null
  check "$name, $signal then --resume: byte-identical database" \
    cmp -s "$reference" "$WORK/stopped.rdb"
}
stop_and_resume "strong solve" TERM 143 0.4 "$WORK/reference.rdb" "${SOLVE[@]}"

# -- Proof and strategy builds (the breadth-first walk saves each ply) --------------------------
PROOF=(solve --board 7x7 --kind proof --leaf-squares 16 --quiet)
start_ns=$(date +%s%N)
"$RASTROS" "${PROOF[@]}" --db "$WORK/proof.rdb" >/dev/null
run_ms=$((($(date +%s%N) - start_ns) / 1000000))
rm -rf "$WORK/wk"
kills=0
for attempt in 1 2 3; do
  "$RASTROS" "${PROOF[@]}" --db "$WORK/proof-resumed.rdb" --checkpoint "$WORK/wk" --resume \
    >/dev/null &
  pid=$!
  sleep "$(python3 -c "import random; print(random.uniform(0.3, 0.8) * $run_ms / 1000)")"
  kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
  wait "$pid" 2>/dev/null
done
if [[ -e $WORK/wk/walk.checkpoint ]]; then
  "$RASTROS" "${PROOF[@]}" --db "$WORK/proof-resumed.rdb" --checkpoint "$WORK/wk" >/dev/null 2>&1
  check "unfinished proof checkpoint not overwritten without --resume (exit 2)" test $? -eq 2
  "$RASTROS" "${PROOF[@]}" --leaf-squares 12 --db "$WORK/proof-resumed.rdb" --checkpoint "$WORK/wk" \
    --resume >/dev/null 2>&1
  check "resume of a proof with other leaves refused (exit 2)" test $? -eq 2
fi
"$RASTROS" "${PROOF[@]}" --db "$WORK/proof-resumed.rdb" --checkpoint "$WORK/wk" --resume >/dev/null
check "proof build killed $kills times and resumed: byte-identical database" \
  cmp -s "$WORK/proof.rdb" "$WORK/proof-resumed.rdb"
check "proof checkpoint removed once the database is written" test ! -e "$WORK/wk"

stop_and_resume "proof build" INT 130 0.6 "$WORK/proof.rdb" "${PROOF[@]}"
rm -rf "$WORK/wk"
mkdir -p "$WORK/wk"
printf 'rastros-checkpoint 1\nkind walk\nbuild x\nplies 1\ncrc32 00000000\n' >"$WORK/wk/walk.checkpoint"
"$RASTROS" "${PROOF[@]}" --db "$WORK/proof-damaged.rdb" --checkpoint "$WORK/wk" --resume \
  >/dev/null 2>"$WORK/walk-damaged.err"
check "proof build, damaged checkpoint: exit 3" test $? -eq 3
check "proof build, damaged checkpoint: says so" grep -q "checksum mismatch" "$WORK/walk-damaged.err"

# -- Proof-number searches ---------------------------------------------------------------------
# answer FILE: the JSON answer without the run's nodes and seconds.
answer() {
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); [j.pop(k) for k in ("nodes", "seconds")]; print(json.dumps(j))' "$1"
}
SEARCH=(solve --board 8x6 --value-only --root-only --algorithm proof-number --memory 64M --json --quiet)
start_ns=$(date +%s%N)
"$RASTROS" "${SEARCH[@]}" >"$WORK/search.json"
run_ms=$((($(date +%s%N) - start_ns) / 1000000))
rm -rf "$WORK/pk"
kills=0
saved=0
for attempt in 1 2 3; do
  "$RASTROS" "${SEARCH[@]}" --checkpoint "$WORK/pk" --resume --checkpoint-every 0.2 \
    >"$WORK/partial.json" &
  pid=$!
  sleep "$(python3 -c "import random; print(random.uniform(0.3, 0.6) * $run_ms / 1000)")"
  kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
  wait "$pid" 2>/dev/null
  [[ -e $WORK/pk/search.checkpoint ]] && saved=$((saved + 1))
done
check "proof-number search: a checkpoint saved before the kills ($saved of 3)" test "$saved" -gt 0
"$RASTROS" "${SEARCH[@]}" --checkpoint "$WORK/pk" --resume >"$WORK/resumed.json"
check "proof-number search killed $kills times and resumed: same answer" \
  cmp -s <(answer "$WORK/resumed.json") <(answer "$WORK/search.json")
check "proof-number checkpoint removed once the search is done" test ! -e "$WORK/pk"

rm -rf "$WORK/pk"
"$RASTROS" "${SEARCH[@]}" --checkpoint "$WORK/pk" --checkpoint-every 0.2 \
  >"$WORK/stopped.json" 2>"$WORK/stopped.err" &
pid=$!
sleep "$(python3 -c "print(0.5 * $run_ms / 1000)")"
kill -INT "$pid"
wait "$pid"
status=$?
if [[ $status -ne 0 ]]; then
  check "proof-number search, Ctrl-C: exit 130 (got $status)" test "$status" -eq 130
  check "proof-number search, Ctrl-C: nothing on stdout" test ! -s "$WORK/stopped.json"
  check "proof-number search, Ctrl-C: says how to resume" grep -q -- "--resume" "$WORK/stopped.err"
  "$RASTROS" "${SEARCH[@]}" --checkpoint "$WORK/pk" >/dev/null 2>&1
  check "unfinished search checkpoint not overwritten without --resume (exit 2)" test $? -eq 2
  "$RASTROS" "${SEARCH[@]}" --moves e3 --checkpoint "$WORK/pk" --resume >/dev/null \
    2>"$WORK/other.err"
  check "resume of another search refused (exit 2)" test $? -eq 2
  check "resume of another search: says why" grep -q "another search" "$WORK/other.err"
  cp -r "$WORK/pk" "$WORK/pk-damaged"
  table=$(ls "$WORK"/pk-damaged/search.table.*)
  printf '\x5a' | dd of="$table" bs=1 seek=12345 conv=notrunc status=none
  "$RASTROS" "${SEARCH[@]}" --checkpoint "$WORK/pk-damaged" --resume >/dev/null \
    2>"$WORK/damaged.err"
  check "damaged search table: exit 3" test $? -eq 3
  check "damaged search table: says so" grep -q "checksum mismatch" "$WORK/damaged.err"
  rm -rf "$WORK/pk-damaged" && cp -r "$WORK/pk" "$WORK/pk-damaged"
  sed -i 's/^nodes \([0-9]*\)/nodes 1\1/' "$WORK/pk-damaged/search.checkpoint"
  "$RASTROS" "${SEARCH[@]}" --checkpoint "$WORK/pk-damaged" --resume >/dev/null \
    2>"$WORK/damaged.err"
  check "edited search checkpoint: exit 3" test $? -eq 3
  rm -rf "$WORK/pk-damaged" && cp -r "$WORK/pk" "$WORK/pk-damaged"
  rm "$WORK"/pk-damaged/search.table.*
  "$RASTROS" "${SEARCH[@]}" --checkpoint "$WORK/pk-damaged" --resume >/dev/null \
    2>"$WORK/damaged.err"
  check "search table missing: exit 3" test $? -eq 3
  check "search table missing: says so" grep -q "missing" "$WORK/damaged.err"
  saved_nodes=$(sed -n 's/^nodes //p' "$WORK/pk/search.checkpoint")
  "$RASTROS" "${SEARCH[@]}" --checkpoint "$WORK/pk" --resume >"$WORK/resumed.json"
  check "proof-number search, Ctrl-C then --resume: same answer" \
    cmp -s <(answer "$WORK/resumed.json") <(answer "$WORK/search.json")
  check "proof-number search after --resume: nodes count every run" python3 -c \
    "import json, sys; sys.exit(0 if json.load(open('$WORK/resumed.json'))['nodes'] > $saved_nodes else 1)"
else
  echo "note: the search finished before Ctrl-C arrived; skipping"
fi
# Every move's value too (analyse), saved and resumed within one run's reach.
"$RASTROS" solve --board 7x6 --value-only --algorithm proof-number --json --quiet >"$WORK/all.json"
rm -rf "$WORK/pk"
"$RASTROS" solve --board 7x6 --value-only --algorithm proof-number --json --quiet \
  --checkpoint "$WORK/pk" --checkpoint-every 0.05 >"$WORK/all-checkpointed.json"
check "proof-number analysis with checkpoints: same moves and values" \
  cmp -s <(answer "$WORK/all.json") <(answer "$WORK/all-checkpointed.json")
"$RASTROS" solve --board 5x5 --checkpoint "$WORK/pk" >/dev/null 2>&1
check "--checkpoint with alpha-beta search: exit 2" test $? -eq 2

finish checkpoint_test
