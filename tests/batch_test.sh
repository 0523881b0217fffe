#!/usr/bin/env bash
# `rastros batch` end to end: output order and exit status with bad lines, identical output on
# 1 and 2 threads, a batch killed (SIGKILL) at random moments and resumed gives byte-identical
# output, Ctrl-C/SIGTERM stop after saving, refused resumes, and a 1 GB input that streams.
# Usage: batch_test.sh path/to/rastros [bytes of the streaming test, default 1000000000]
set -u

RASTROS=${1:?usage: batch_test.sh path/to/rastros [stream-bytes]}
STREAM_BYTES=${2:-1000000000}
# shellcheck source=shell_checks.sh
source "$(dirname "$0")/shell_checks.sh"

# -- Mixed good and bad lines ------------------------------------------------------------------
cat >"$WORK/mixed.txt" <<'LINES'
# games and positions on several variants, and bad lines
c3 b2

--board 5x5 c2
zz9
--board=4x4 --rules stuck-draw
--board 5x5 5/5/2o2/5/5 1
--bogus 3
c3 c3
LINES
"$RASTROS" batch --input "$WORK/mixed.txt" --quiet >"$WORK/mixed.out" 2>"$WORK/mixed.err"
status=$?
check "bad lines: exit 2 at the end (got $status)" test "$status" -eq 2
check "one output line per non-blank, non-comment line" test "$(wc -l <"$WORK/mixed.out")" -eq 7
check "lines in input order" test "$(grep -o '^{"line": [0-9]*' "$WORK/mixed.out" | tr -dc '0-9\n' | tr '\n' ' ')" = "2 4 5 6 7 8 9 "
check "error objects" test "$(grep -c '"error"' "$WORK/mixed.out")" -eq 3
check "error names the square" grep -q '{"line": 5, "error": "malformed square .zz9.' "$WORK/mixed.out"
check "per-line board" grep -q '{"line": 4, "board": "5x5"' "$WORK/mixed.out"
check "per-line rules" grep -q '{"line": 6, "board": "4x4", "start": "c3", "rules": "stuck-draw"' "$WORK/mixed.out"
check "remoteness by default" grep -q '"remoteness"' "$WORK/mixed.out"
check "no timing keys by default" test "$(grep -c '"seconds"' "$WORK/mixed.out")" -eq 0
check "nothing on stderr with --quiet" test ! -s "$WORK/mixed.err"
"$RASTROS" batch --input "$WORK/mixed.txt" --quiet --value-only --timing >"$WORK/vo.out"
check "--value-only drops remoteness" test "$(grep -c '"remoteness"' "$WORK/vo.out")" -eq 0
check "--timing adds nodes and seconds" test "$(grep -c '"seconds"' "$WORK/vo.out")" -eq 4
grep -v '^[#]' "$WORK/mixed.txt" | "$RASTROS" batch --input - --quiet >"$WORK/stdin.out"
check "reads standard input" test "$(wc -l <"$WORK/stdin.out")" -eq 7

# Lines of any bytes: every output line is still valid UTF-8 JSON; a line longer than 4096 bytes
# is an error even when all that was kept of it is blanks.
{
  printf 'c3 \xff\xfe\n--board 5x5 caf\xc3\xa9\n'
  printf '%5000s c3\n' ''
} >"$WORK/bytes.txt"
"$RASTROS" batch --input "$WORK/bytes.txt" --quiet >"$WORK/bytes.out"
check "odd bytes: exit 2" test $? -eq 2
check "odd bytes: every line valid UTF-8 JSON with an error" python3 -c '
import json, sys
lines = open(sys.argv[1], "rb").read().decode("utf-8").splitlines()
assert len(lines) == 3 and all("error" in json.loads(line) for line in lines), lines
' "$WORK/bytes.out"
# A checkpointed batch with nothing to solve still completes (to stdout, to a file).
printf '# only a comment\n\n' >"$WORK/comments.txt"
"$RASTROS" batch --input "$WORK/comments.txt" --checkpoint "$WORK/ck-empty" --quiet >"$WORK/empty.out"
check "empty checkpointed batch: exit 0, no output, checkpoint gone" \
  test $? -eq 0 -a ! -s "$WORK/empty.out" -a ! -e "$WORK/ck-empty"

# -- Usage errors ------------------------------------------------------------------------------
usage() {  # usage STATUS PATTERN ARGS...
  local expected=$1 pattern=$2
  shift 2
  "$RASTROS" batch "$@" >"$WORK/u.out" 2>"$WORK/u.err"
  local got=$?
  if [[ $got -ne $expected ]] || ! grep -qiE -- "$pattern" "$WORK/u.err" || [[ -s $WORK/u.out ]] ||
    [[ $(wc -l <"$WORK/u.err") -ne 1 ]]; then
    fail "batch $*: exit $got (expected $expected), stderr: $(cat "$WORK/u.err")"
  else
    pass
  fi
}
usage 2 "input.*required" --output x
usage 2 "cannot read input" --input "$WORK/none.txt"
usage 2 "input .* is a directory" --input "$WORK"
usage 2 "output .* is a directory" --input "$WORK/mixed.txt" --output "$WORK"
usage 2 "malformed board" --input "$WORK/mixed.txt" --board 7y7
usage 2 "needs --checkpoint" --input "$WORK/mixed.txt" --resume
usage 2 "standard input cannot be read again" --input - --checkpoint "$WORK/ck"
usage 2 "--chunk" --input "$WORK/mixed.txt" --chunk 0
usage 2 "memory" --input "$WORK/mixed.txt" --memory 1K

# -- Threads -----------------------------------------------------------------------------------
python3 "$(dirname "$0")/random_games.py" "$WORK/games.txt" 240 7 7 7 9 16
"$RASTROS" batch --input "$WORK/games.txt" --output "$WORK/reference.out" --threads 1 --quiet
check "--output written" test "$(wc -l <"$WORK/reference.out")" -eq 240
"$RASTROS" batch --input "$WORK/games.txt" --output "$WORK/two.out" --threads 2 --quiet --chunk 7
check "2 threads and other chunks: identical output" cmp -s "$WORK/reference.out" "$WORK/two.out"
check "no temporary files left next to the output" test "$(ls "$WORK" | grep -c tmp)" -eq 0

# -- Killed and resumed ------------------------------------------------------------------------
# Kills the batch with SIGKILL after a random delay, then again, ... then lets it finish.
# Value-only keeps the rounds short; the options must be the same on every run of one batch.
start_ns=$(date +%s%N)
"$RASTROS" batch --input "$WORK/games.txt" --output "$WORK/reference-vo.out" --checkpoint "$WORK/probe" \
  --chunk 8 --quiet --value-only
run_ms=$((($(date +%s%N) - start_ns) / 1000000))
for round in 1 2 3; do
  rm -rf "$WORK/ck" "$WORK/resumed.out"
  kills=0
  for attempt in 1 2 3 4 5 6; do
    "$RASTROS" batch --input "$WORK/games.txt" --output "$WORK/resumed.out" --checkpoint "$WORK/ck" \
      --chunk 8 --quiet --value-only --resume &
    pid=$!
    delay_ms=$((RANDOM % (run_ms / 3 + 1) + 1))
    sleep "$(printf '0.%03d' "$delay_ms")"
    kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
    wait "$pid" 2>/dev/null
    # Under the final name: nothing, or the complete output (the kill came after the end).
    if [[ -e $WORK/resumed.out ]] && ! cmp -s "$WORK/reference-vo.out" "$WORK/resumed.out"; then
      fail "a partial output under the final name (round $round, attempt $attempt)"
    else
      pass
    fi
  done
  "$RASTROS" batch --input "$WORK/games.txt" --output "$WORK/resumed.out" --checkpoint "$WORK/ck" \
    --chunk 8 --quiet --value-only --resume
  check "killed $kills times and resumed: byte-identical output (round $round)" \
    cmp -s "$WORK/reference-vo.out" "$WORK/resumed.out"
  check "checkpoint removed when done" test ! -e "$WORK/ck"
done

# -- Ctrl-C and SIGTERM ------------------------------------------------------------------------
for signal in INT TERM; do
  rm -rf "$WORK/ck" "$WORK/signal.out"
  "$RASTROS" batch --input "$WORK/games.txt" --output "$WORK/signal.out" --checkpoint "$WORK/ck" \
    --chunk 4 2>"$WORK/signal.err" &
  pid=$!
  sleep 0.3
  kill -"$signal" "$pid"
  wait "$pid"
  status=$?
  expected=$([[ $signal == INT ]] && echo 130 || echo 143)
  if [[ $status -eq 0 ]]; then
    echo "note: the batch finished before SIG$signal arrived; skipping"
    continue
  fi
  check "SIG$signal: exit $expected (got $status)" test "$status" -eq "$expected"
  check "SIG$signal: says how to resume" grep -q -- "--resume" "$WORK/signal.err"
  check "SIG$signal: checkpoint saved" test -s "$WORK/ck/batch.checkpoint"
  check "SIG$signal: no final output yet" test ! -e "$WORK/signal.out"
  "$RASTROS" batch --input "$WORK/games.txt" --checkpoint "$WORK/ck" --chunk 4 --quiet >"$WORK/again.out" 2>"$WORK/again.err"
  check "an unfinished checkpoint is not overwritten without --resume" test $? -eq 2
  "$RASTROS" batch --input "$WORK/games.txt" --checkpoint "$WORK/ck" --chunk 4 --quiet --resume \
    --value-only >/dev/null 2>"$WORK/other.err"
  check "resume with other options refused (exit 2)" test $? -eq 2
  "$RASTROS" batch --input "$WORK/games.txt" --output "$WORK/signal.out" --checkpoint "$WORK/ck" \
    --chunk 4 --quiet --resume
  check "SIG$signal then --resume: byte-identical output" cmp -s "$WORK/reference.out" "$WORK/signal.out"
done

# A damaged checkpoint is a file error (exit 3), not silently ignored.
rm -rf "$WORK/ck"
"$RASTROS" batch --input "$WORK/games.txt" --checkpoint "$WORK/ck" --chunk 4 --quiet >/dev/null &
pid=$!
sleep 0.3
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
if [[ -e $WORK/ck/batch.checkpoint ]]; then
  sed -i 's/^results .*/results 999999/' "$WORK/ck/batch.checkpoint"
  "$RASTROS" batch --input "$WORK/games.txt" --checkpoint "$WORK/ck" --quiet --resume >/dev/null 2>"$WORK/damaged.err"
  status=$?
  check "damaged checkpoint: exit 3 (got $status)" test "$status" -eq 3
  check "damaged checkpoint: says so" grep -q "checksum mismatch" "$WORK/damaged.err"
fi

# -- A large input streams ---------------------------------------------------------------------
# STREAM_BYTES of comment lines between two games, through a pipe: the batch must answer both
# with correct line numbers and keep its memory small (it never holds the input).
padding_lines=$((STREAM_BYTES / 64))
{
  echo c3
  yes '# padding line of the streaming test of rastros batch, 64 bytes....' | head -n "$padding_lines"
  echo "c3 b2"
} | python3 -c '
import resource, subprocess, sys
result = subprocess.run(sys.argv[1:], stdin=sys.stdin, capture_output=True, text=True)
peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
numbers = [line.split(",")[0].split(":")[1].strip() for line in result.stdout.splitlines()]
print(result.returncode, peak_kib, ",".join(numbers))
' "$RASTROS" batch --input - --value-only --quiet >"$WORK/stream.txt"
read -r stream_status stream_peak_kib stream_lines <"$WORK/stream.txt"
check "streamed input: exit 0 (got $stream_status)" test "$stream_status" -eq 0
check "streamed input: both lines answered with their numbers ($stream_lines)" \
  test "$stream_lines" = "1,$((padding_lines + 2))"
echo "streamed $((padding_lines * 64)) bytes with a peak of $((stream_peak_kib / 1024)) MiB"
check "streamed input: peak memory under 200 MiB (got $((stream_peak_kib / 1024)) MiB)" \
  test "$stream_peak_kib" -lt 204800

finish batch_test
