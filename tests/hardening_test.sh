#!/usr/bin/env bash
# Hostile inputs (issue 37): every numeric option bounded and refused up front (exit 2, one
# line, nothing on stdout), files that are not regular files and files whose header claims more
# than they hold refused (exit 3) without hanging or allocating, stale temporary files cleaned,
# signals honoured while reading, and a checkpointed output checked on resume.
# Usage: hardening_test.sh path/to/rastros
set -u

RASTROS=${1:?usage: hardening_test.sh path/to/rastros}
# shellcheck source=shell_checks.sh
source "$(dirname "$0")/shell_checks.sh"
# How soon a stop must take effect (ms): a second, more under the sanitizers (CMakeLists.txt).
STOP_MS=${STOP_MS:-1000}
# Every run here must end quickly: a hang is the failure looked for.
run() {
  timeout 20 "$RASTROS" "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
  status=$?
}

# -- 1. --threads bounded by 4x the cores ------------------------------------------------------
for command in "solve --board 4x4" "map --board 3x3" "verify --board 3x3" \
               "batch --input $WORK/none.txt" "query --db $WORK/none.rdb"; do
  # shellcheck disable=SC2086
  expect_error 2 "--threads must be between 0 .* and [0-9]+" "$command --threads 2147483647" \
    $command --threads 2147483647
done
expect_error 2 "--threads must be between" "negative --threads" solve --board 3x3 --threads -1
expect_error 2 "--threads" "empty --threads" solve --board 3x3 --threads ""
RASTROS_MAX_THREADS=64 expect_ok "RASTROS_MAX_THREADS allows more" solve --board 3x3 --threads 64
RASTROS_MAX_THREADS=12x expect_error 2 "RASTROS_MAX_THREADS must be" "malformed override" \
  solve --board 3x3
check "--help states the range" grep -q "RASTROS_MAX_THREADS" <("$RASTROS" solve --help)

# -- 2. a FIFO as a database, endgame file, checkpoint or checkpointed input -------------------
mkfifo "$WORK/f.rdb"
for command in stats query verify play; do
  expect_error 3 "not a regular file" "$command --db FIFO" "$command" --db "$WORK/f.rdb"
done
expect_error 3 "not a regular file" "serve --db FIFO" serve --port 0 --db "$WORK/f.rdb" --quiet
for command in solve query stats verify; do
  expect_error 3 "not a regular file" "kalah $command on a FIFO" --game kalah "$command" \
    --houses 2 --seeds 1 "$([[ $command == solve ]] && echo --endgame || echo --db)" "$WORK/f.rdb"
done
printf 'c3\n' >"$WORK/in.txt"
expect_error 2 "regular file" "batch --checkpoint with a FIFO input" \
  batch --input "$WORK/f.rdb" --checkpoint "$WORK/ck-fifo"
mkdir -p "$WORK/ck-state" && mkfifo "$WORK/ck-state/batch.checkpoint"
expect_error 3 "checkpoint" "a FIFO as the batch checkpoint" \
  batch --input "$WORK/in.txt" --checkpoint "$WORK/ck-state" --resume
mkdir -p "$WORK/ck-map" && mkfifo "$WORK/ck-map/map.checkpoint"
expect_error 3 "checkpoint" "a FIFO as the map checkpoint" \
  map --board 3x3 --checkpoint "$WORK/ck-map" --resume --quiet

# -- 3. headers claiming huge sizes behind valid checksums -------------------------------------
"$RASTROS" solve --db "$WORK/small.rdb" --board 3x3 --quiet >/dev/null
python3 "$(dirname "$0")/fuzz/database_bombs.py" "$WORK/small.rdb" "$WORK/bomb"
for bomb in "$WORK"/bomb-*.rdb; do
  for command in stats query verify; do
    expect_error 3 "corrupt|truncated" "$command of $(basename "$bomb")" "$command" --db "$bomb"
  done
done
# A Kalah endgame file whose header claims the largest levels, with a valid checksum.
python3 - "$WORK/bomb.kdb" <<'EOF'
import binascii, struct, sys
body = b"rastros-kalah-endgame 1 houses=8 rules=standard max_seeds=127\n" + b"\0" * 64
open(sys.argv[1], "wb").write(body + struct.pack("<I", binascii.crc32(body) & 0xFFFFFFFF))
EOF
expect_error 3 "truncated|size" "a Kalah endgame bomb" --game kalah solve --houses 8 --seeds 1 \
  --root-only --endgame "$WORK/bomb.kdb"

# A 2 GB (sparse) file with a small level's header: refused by its size, never read whole.
{ printf 'rastros-kalah-endgame 1 houses=2 rules=standard max_seeds=1\n'; } >"$WORK/big.kdb"
truncate -s 2G "$WORK/big.kdb"
peak_kb=$(python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
  "$RASTROS" --game kalah solve --houses 2 --seeds 1 --endgame "$WORK/big.kdb")
expect_error 3 "wrong size" "a 2 GB Kalah endgame file of another size" --game kalah solve \
  --houses 2 --seeds 1 --endgame "$WORK/big.kdb"
check "the 2 GB file is not read (peak ${peak_kb} KB)" test "$peak_kb" -lt 500000

# -- 4. serve's own bounds ---------------------------------------------------------------------
expect_error 2 "--io-threads must be between 1 and" "serve --io-threads 33000" \
  serve --port 0 --io-threads 33000
expect_error 2 "--max-searches must be between 1 and" "serve --max-searches 100000000" \
  serve --port 0 --max-searches 100000000
for seconds in 1e10 inf nan 0 -1; do
  expect_error 2 "--max-seconds must be" "serve --max-seconds $seconds" \
    serve --port 0 --max-seconds "$seconds"
done

# -- 5. temporary files of killed writers ------------------------------------------------------
# PID 999999999 is above any pid_max: that writer is gone. This shell is alive: its file stays.
touch "$WORK/x.rdb.tmp.999999999.7" "$WORK/x.rdb.tmp.$$.3" "$WORK/out.jsonl.tmp.999999998.1"
expect_ok "solve --db next to stale temporary files" solve --db "$WORK/x.rdb" --board 3x3 --quiet
check "a dead writer's database temporary file is removed" test ! -e "$WORK/x.rdb.tmp.999999999.7"
check "a live writer's temporary file stays" test -e "$WORK/x.rdb.tmp.$$.3"
"$RASTROS" batch --input "$WORK/in.txt" --output "$WORK/out.jsonl" --quiet
check "a dead writer's batch output temporary file is removed" \
  test ! -e "$WORK/out.jsonl.tmp.999999998.1"

# -- 6. options checked before any output ------------------------------------------------------
expect_error 2 "too small" "play --memory 1 prints nothing first" play --memory 1
expect_error 2 "--side" "play --side 3 prints nothing first" play --side 3

# -- 7. SIGTERM while batch reads an endless line ----------------------------------------------
"$RASTROS" batch --input /dev/zero --quiet >/dev/null 2>"$WORK/zero.err" &
pid=$!
sleep 0.5
sent=${EPOCHREALTIME/./}
kill -TERM "$pid"
wait "$pid"
status=$?
took=$(((${EPOCHREALTIME/./} - sent) / 1000))
check "SIGTERM during an endless line: exit 143 (got $status)" test "$status" -eq 143
check "SIGTERM during an endless line: stopped in ${took} ms (< $STOP_MS)" \
  test "$took" -lt "$STOP_MS"
# ... and while it waits on an idle pipe for a line that never comes.
# (A FIFO held open for writing here, so that no writer process outlives the test.)
mkfifo "$WORK/idle"
exec 9<>"$WORK/idle"
"$RASTROS" batch --input - --quiet <"$WORK/idle" >/dev/null 2>&1 &
pid=$!
sleep 0.5
sent=${EPOCHREALTIME/./}
kill -TERM "$pid"
while kill -0 "$pid" 2>/dev/null && (((${EPOCHREALTIME/./} - sent) / 1000 < 10000)); do
  sleep 0.01
done
took=$(((${EPOCHREALTIME/./} - sent) / 1000))
wait "$pid"
status=$?
exec 9>&-
check "SIGTERM on an idle pipe: exit 143 (got $status)" test "$status" -eq 143
check "SIGTERM on an idle pipe: stopped in ${took} ms (< $STOP_MS)" test "$took" -lt "$STOP_MS"
# ... and while it waits for a writer of a named pipe given as --input (no writer ever comes).
mkfifo "$WORK/named"
"$RASTROS" batch --input "$WORK/named" --quiet >/dev/null 2>&1 &
pid=$!
sleep 0.5
sent=${EPOCHREALTIME/./}
kill -TERM "$pid"
while kill -0 "$pid" 2>/dev/null && (((${EPOCHREALTIME/./} - sent) / 1000 < 10000)); do sleep 0.01; done
took=$(((${EPOCHREALTIME/./} - sent) / 1000))
kill -KILL "$pid" 2>/dev/null
wait "$pid"
status=$?
check "SIGTERM waiting for a named pipe's writer: exit 143 (got $status)" test "$status" -eq 143
check "SIGTERM waiting for a named pipe's writer: stopped in ${took} ms (< $STOP_MS)" test "$took" -lt "$STOP_MS"
# A named pipe whose writer comes late is read to its end like a file.
mkfifo "$WORK/late"
{ sleep 0.3; printf 'c3\n--board 4x4 b2\n'; } >"$WORK/late" &
writer=$!
"$RASTROS" batch --input "$WORK/late" --quiet >"$WORK/late.out" 2>/dev/null
check "a named pipe with a late writer: both lines solved" test "$(grep -c '"board"' "$WORK/late.out")" -eq 2
wait "$writer"
{ head -c 5000 /dev/zero | tr '\0' 'c'; printf '\nc3\n'; } >"$WORK/long.txt"
"$RASTROS" batch --input "$WORK/long.txt" --quiet >"$WORK/long.out" 2>/dev/null
check "a line over 4096 bytes is that line's error" \
  grep -q '"line": 1, "error": "line longer than 4096 bytes"' "$WORK/long.out"
check "and the next line is solved" grep -q '"line": 2, "board"' "$WORK/long.out"

# -- 8. the saved output of a checkpoint is checksummed -----------------------------------------
# Three quick lines, then one that takes minutes: stopped there, edited, resumed.
printf 'c3\nc3 b2\n--board 4x4 b2\n--board 8x8 d5\n' >"$WORK/games.txt"
"$RASTROS" batch --input "$WORK/games.txt" --checkpoint "$WORK/ck" --chunk 1 --value-only \
  --quiet >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
  grep -qs '^results 3' "$WORK/ck/batch.checkpoint" && break
  sleep 0.1
done
sent=${EPOCHREALTIME/./}
kill -TERM "$pid"
wait "$pid"
status=$?
took=$(((${EPOCHREALTIME/./} - sent) / 1000))
check "SIGTERM while solving: exit 143 (got $status)" test "$status" -eq 143
check "SIGTERM while solving: stopped in ${took} ms (< $STOP_MS)" test "$took" -lt "$STOP_MS"
size=$(wc -c <"$WORK/ck/output.jsonl")
sed -i '1s/"win"/"wiN"/; 1s/"loss"/"losS"/' "$WORK/ck/output.jsonl"
check "the edit keeps the length" test "$(wc -c <"$WORK/ck/output.jsonl")" -eq "$size"
expect_error 3 "checksum mismatch" "resume over an edited output" \
  batch --input "$WORK/games.txt" --checkpoint "$WORK/ck" --chunk 1 --value-only --quiet --resume

# -- 9. sizes parsed strictly; long input not repeated -----------------------------------------
for memory in "" " 8M" "8M " "inf" "nan" "0x10" "-8M" "8 M"; do
  expect_error 2 "malformed memory size" "--memory '$memory'" solve --board 3x3 --memory "$memory"
done
expect_error 2 "more than this machine" "--memory beyond the machine" \
  solve --board 3x3 --memory 100T
expect_ok "--memory 8M" solve --board 3x3 --memory 8M
long=$(head -c 131000 /dev/zero | tr '\0' 'x')
for option in --board --threads --memory --moves --start; do
  run solve "$option" "$long"
  check "$option of 128 KiB: exit 2 (got $status)" test "$status" -eq 2
  check "$option of 128 KiB: a short message ($(wc -c <"$WORK/err") bytes)" \
    test "$(wc -c <"$WORK/err")" -lt 700
done

finish hardening_test
