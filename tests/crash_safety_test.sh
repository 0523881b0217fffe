#!/usr/bin/env bash
# Crash safety of database writes (core/atomic_file.hpp): `rastros solve --db F` is killed with
# SIGKILL at random moments, many times, and after every kill F must be either absent (when there
# was no file before), the previous complete file, or the complete new one (the same bytes as a
# reference build, which `rastros verify` accepts) - never anything else.
#
# Half the kills land at a random moment of the whole run (mostly while solving, before anything
# is written); the other half at a random moment after the temporary file F.tmp.* appears, that
# is, while the database is being written, fsynced and renamed. A kill there leaves the temporary
# file behind (allowed: it never has the final name); the test counts those and removes them.
#
# Usage: crash_safety_test.sh path/to/rastros [BOARD [ITERATIONS]]   (defaults 5x5, 30)
set -u

RASTROS=${1:?usage: crash_safety_test.sh path/to/rastros [BOARD [ITERATIONS]]}
BOARD=${2:-5x5}
ITERATIONS=${3:-30}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1

die() {
  echo "FAIL: $*"
  exit 1
}

# The writer runs on one thread at a low priority (exec: $! is its pid), so that this script's
# polling loop keeps a core and sees the temporary file within microseconds of its creation.
writer() { exec nice -n 10 "$RASTROS" solve --db "$1" --board "$BOARD" --quiet --threads 1; }
# The kills aimed inside the write run the writer with a pause between 4 KiB pieces of the
# file (core/atomic_file.cpp), so that they land there however fast or loaded the machine is.
slow_writer() { RASTROS_TEST_WRITE_PAUSE_US=$piece_pause_us writer "$@"; }
# Waits about a millisecond without forking: a read with a timeout on a FIFO nobody writes to.
mkfifo never || exit 1
exec {never_fd}<>never
nap() { read -rt 0.001 -u "$never_fd" _ || :; }
# Microseconds since the epoch, in $now (no subshell: this runs in tight loops).
tick() { now=${EPOCHREALTIME/./}; }
# Spins for $1 microseconds: finer than forking `sleep`.
spin_us() {
  tick
  local until=$((now + $1))
  while ((${EPOCHREALTIME/./} < until)); do :; done
}

# The reference: the complete new file (built twice: the test needs identical bytes, and the
# quicker build's time is a run's length), and a different complete file as "the previous".
run_us=0
for name in reference again; do
  tick
  started=$now
  (writer $name.rdb >/dev/null) || die "building $BOARD failed"
  tick
  took=$((now - started))
  ((run_us == 0 || took < run_us)) && run_us=$took
done
cmp -s reference.rdb again.rdb || die "two builds of $BOARD differ"
"$RASTROS" verify --db reference.rdb --quiet >/dev/null || die "verify refuses the reference"
"$RASTROS" solve --db old.rdb --board 4x4 --quiet >/dev/null || die "old build failed"
# The slow writer's pause makes its temporary file live about 200 ms whatever the file's size.
pieces=$((($(stat -c %s reference.rdb) + 4095) / 4096))
piece_pause_us=$((200000 / (pieces > 1 ? pieces - 1 : 1)))
((piece_pause_us < 100)) && piece_pause_us=100
slow_window_us=$(((pieces > 1 ? pieces - 1 : 1) * piece_pause_us))

# How long the temporary file lives (polled without forking): mostly the fsync.
writer timing.rdb >/dev/null &
pid=$!
appeared=0 vanished=0
while kill -0 "$pid" 2>/dev/null; do
  if ((!appeared)); then
    compgen -G "timing.rdb.tmp.*" >/dev/null && appeared=${EPOCHREALTIME/./}
  elif ((!vanished)); then
    compgen -G "timing.rdb.tmp.*" >/dev/null || vanished=${EPOCHREALTIME/./}
  fi
done
wait "$pid"
write_us=$((appeared && vanished ? vanished - appeared : 2000))
echo "a run takes $((run_us / 1000)) ms; its temporary file lives about $write_us us (slow writer: $pieces pieces, ${piece_pause_us} us apart)"

nothing=0 previous=0 complete=0 inside_write=0
for ((i = 0; i < ITERATIONS; i++)); do
  rm -f target.rdb target.rdb.tmp.*
  had_previous=$((i % 2))
  ((had_previous)) && cp old.rdb target.rdb
  if ((i % 4 < 2)); then
    writer target.rdb >/dev/null 2>&1 &
  else
    slow_writer target.rdb >/dev/null 2>&1 &
  fi
  pid=$!
  if ((i % 4 < 2)); then
    # Anywhere in the run, up to 10% past its measured length.
    spin_us $(((RANDOM * 32768 + RANDOM) % (run_us * 11 / 10)))
  else
    # While writing: once the temporary file exists, a random moment in the first 3/4 of the
    # slow write. The directory is scanned about once a millisecond (a scan per turn of a busy
    # loop would slow the writer down), from the start: no guess of when the solve ends, which
    # on a loaded machine can be far from the measured run.
    while kill -0 "$pid" 2>/dev/null && ! compgen -G "target.rdb.tmp.*" >/dev/null; do nap; done
    spin_us $(((RANDOM * 32768 + RANDOM) % (slow_window_us * 3 / 4)))
  fi
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null

  if compgen -G "target.rdb.tmp.*" >/dev/null; then
    inside_write=$((inside_write + 1))
  fi
  if [[ ! -e target.rdb ]]; then
    ((had_previous)) && die "iteration $i: the previous file is gone and no new one is there"
    nothing=$((nothing + 1))
  elif cmp -s target.rdb reference.rdb; then
    complete=$((complete + 1))
  elif ((had_previous)) && cmp -s target.rdb old.rdb; then
    previous=$((previous + 1))
  else
    die "iteration $i: target.rdb ($(stat -c %s target.rdb) bytes) is neither the previous" \
      "file nor the complete new one; $("$RASTROS" verify --db target.rdb --quiet 2>&1 | head -1)"
  fi
done
echo "$ITERATIONS kills: $nothing left no file, $previous the previous file, $complete the complete" \
  "new file; $inside_write landed while writing (temporary file left behind)"
# The point of the test is kills during the write; a run where none landed there proves little.
((inside_write > 0)) || die "no kill landed while the file was being written"
echo "crash safety: passed"
