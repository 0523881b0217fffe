#!/usr/bin/env bash
# The MPI paths: `mpirun -np K rastros map|batch|solve --db` for K = 1, 2, 3 give the
# single-process results (the map's squares; the batch's bytes for Rastros and every score game,
# also across a checkpoint and resume and with the root's buffer of early results bounded; the strong database's bytes, also
# across a kill and resume; the Oware endgame database's bytes, also resumed on other ranks).
# Usage: mpi_test.sh path/to/mpirun path/to/rastros
set -u

MPIRUN=${1:?usage: mpi_test.sh path/to/mpirun path/to/rastros}
RASTROS=${2:?usage: mpi_test.sh path/to/mpirun path/to/rastros}
# shellcheck source=shell_checks.sh
source "$(dirname "$0")/shell_checks.sh"
# Root is allowed in CI containers; oversubscribe lets 3 ranks run on 2 cores.
mpi() {
  local ranks=$1
  shift
  "$MPIRUN" --allow-run-as-root --oversubscribe -np "$ranks" "$RASTROS" "$@"
}

# -- Map ---------------------------------------------------------------------------------------
"$RASTROS" map --board 6x5 --json --quiet >"$WORK/map.json"
squares "$WORK/map.json" >"$WORK/map.squares"
for ranks in 1 2 3; do
  mpi "$ranks" map --board 6x5 --json --quiet >"$WORK/map-$ranks.json" 2>"$WORK/map-$ranks.err"
  check "map on $ranks ranks: exit 0" test $? -eq 0
  check "map on $ranks ranks: the single-process squares" \
    cmp -s <(squares "$WORK/map-$ranks.json") "$WORK/map.squares"
done
mpi 2 map --board 6x5 --value-only --json --quiet >"$WORK/map-vo.json"
"$RASTROS" map --board 6x5 --value-only --json --quiet >"$WORK/map-vo-1.json"
check "value-only map on 2 ranks" cmp -s <(squares "$WORK/map-vo.json") <(squares "$WORK/map-vo-1.json")
# The ranks of one machine share one table (cluster/node_shared_memory.hpp); without it each
# has its own, and the answers are the same.
RASTROS_SHARED_TABLE=0 mpi 3 map --board 6x5 --json --quiet >"$WORK/map-own.json"
check "map on 3 ranks with a table each (RASTROS_SHARED_TABLE=0)" \
  cmp -s <(squares "$WORK/map-own.json") "$WORK/map.squares"
mpi 2 map --board 6x5 --quiet >"$WORK/map.txt"
check "map grid printed once" test "$(grep -c 'Start-square map' "$WORK/map.txt")" -eq 1

# -- Batch -------------------------------------------------------------------------------------
python3 "$(dirname "$0")/random_games.py" "$WORK/games.txt" 150 3 6 6 2 10 mixed
"$RASTROS" batch --board 6x6 --input "$WORK/games.txt" --quiet >"$WORK/batch.out"
single_status=$?
check "single-process batch reports the bad lines (exit 2)" test "$single_status" -eq 2
for ranks in 1 2 3; do
  mpi "$ranks" batch --board 6x6 --input "$WORK/games.txt" --quiet --chunk 9 \
    >"$WORK/batch-$ranks.out" 2>/dev/null
  check "batch on $ranks ranks: exit 2 like one process (got $?)" test $? -eq 2
  check "batch on $ranks ranks: byte-identical output" cmp -s "$WORK/batch.out" "$WORK/batch-$ranks.out"
done
# Results waiting for an earlier chunk are bounded on the root: with the bound at 1 byte (a
# test-only setting) every result out of order holds the dealing until the earlier chunk is in.
# The job must still end, with the same bytes, and must have been held at least once.
"$MPIRUN" --allow-run-as-root --oversubscribe -np 3 -x RASTROS_TEST_BATCH_WAITING_BYTES=1 \
  "$RASTROS" batch --board 6x6 --input "$WORK/games.txt" --quiet --chunk 3 \
  >"$WORK/batch-held.out" 2>"$WORK/batch-held.err"
check "batch with dealing held for slow chunks: byte-identical output" \
  cmp -s "$WORK/batch.out" "$WORK/batch-held.out"
held=$(sed -n 's/^batch: dealing held \([0-9]*\) times.*/\1/p' "$WORK/batch-held.err")
check "batch with a 1-byte bound was held at least once" test "${held:-0}" -gt 0
mpi 2 batch --board 6x6 --input "$WORK/games.txt" --quiet --output "$WORK/batch-file.out" 2>/dev/null
check "batch on 2 ranks with --output" cmp -s "$WORK/batch.out" "$WORK/batch-file.out"

# Killed on 2 ranks, resumed on 3: still the same bytes.
mpi 2 batch --board 6x6 --input "$WORK/games.txt" --quiet --chunk 5 --checkpoint "$WORK/ck" \
  --output "$WORK/resumed.out" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pkill -KILL -f "$WORK/ck" 2>/dev/null
sleep 0.2
mpi 3 batch --board 6x6 --input "$WORK/games.txt" --quiet --chunk 5 --checkpoint "$WORK/ck" \
  --resume --output "$WORK/resumed.out" >/dev/null 2>&1
check "batch killed on 2 ranks, resumed on 3: byte-identical output" \
  cmp -s "$WORK/batch.out" "$WORK/resumed.out"

# -- Kalah batch -------------------------------------------------------------------------------
# Random games of Kalah(4,3) (some moves illegal: error lines), comments, and lines of other
# variants: the same bytes on 1, 2 and 3 ranks as in one process, exit 2 for the bad lines.
python3 - "$WORK/kalah.txt" <<'PY'
import random, sys
rng = random.Random(7)
with open(sys.argv[1], "w") as out:
    for i in range(120):
        if i % 17 == 0:
            out.write("# comment %d\n\n" % i)
        prefix = "--houses 3 --seeds 3 " if i % 5 == 0 else ""
        houses = 3 if prefix else 4
        out.write(prefix + " ".join(str(rng.randint(1, houses)) for _ in range(rng.randint(0, 7))) + "\n")
PY
"$RASTROS" batch --game kalah --houses 4 --seeds 3 --input "$WORK/kalah.txt" --quiet >"$WORK/kalah.out"
check "Kalah batch in one process: exit 2 for its illegal moves (got $?)" test $? -eq 2
for ranks in 1 2 3; do
  mpi "$ranks" batch --game kalah --houses 4 --seeds 3 --input "$WORK/kalah.txt" --quiet \
    >"$WORK/kalah-$ranks.out" 2>/dev/null
  check "Kalah batch on $ranks ranks: exit 2 like one process (got $?)" test $? -eq 2
  check "Kalah batch on $ranks ranks: byte-identical output" cmp -s "$WORK/kalah.out" "$WORK/kalah-$ranks.out"
done
mpi 2 batch --game kalah --houses 4 --seeds 3 --input "$WORK/kalah.txt" --quiet \
  --output "$WORK/kalah-file.out" 2>/dev/null
check "Kalah batch on 2 ranks with --output" cmp -s "$WORK/kalah.out" "$WORK/kalah-file.out"

# -- Congkak, Oware and Reversi batch ----------------------------------------------------------
# The same dealing for every score game: a few lines of each (one bad), the bytes of one process.
printf '1\n2\n3\n1 2\n2 1\n--houses 2 --seeds 2\nzz\n3 3\n' >"$WORK/congkak.txt"
printf '1\n2\n3\n--houses 2 --seeds 1\nzz\n1,0,0,5/0,1,0,5 1\n' >"$WORK/oware.txt"
printf 'b1\nb1 a1\nc4\nd3 d4\nzz\n-----OX--XO----- O\na3 a4 b4\n' >"$WORK/reversi.txt"
score_batch_game() {
  local game=$1
  shift
  "$RASTROS" batch --game "$game" "$@" --input "$WORK/$game.txt" --quiet >"$WORK/$game.out"
  check "$game batch in one process: exit 2 for its bad line (got $?)" test $? -eq 2
  for ranks in 2 3; do
    mpi "$ranks" batch --game "$game" "$@" --input "$WORK/$game.txt" --quiet --chunk 2 \
      >"$WORK/$game-$ranks.out" 2>/dev/null
    check "$game batch on $ranks ranks: exit 2 like one process (got $?)" test $? -eq 2
    check "$game batch on $ranks ranks: byte-identical output" cmp -s "$WORK/$game.out" "$WORK/$game-$ranks.out"
  done
}
score_batch_game congkak --houses 3 --seeds 2
score_batch_game oware --houses 3 --seeds 2
score_batch_game reversi --board 4x4

# -- Strong solve ------------------------------------------------------------------------------
"$RASTROS" solve --db "$WORK/strong.rdb" --board 5x5 --quiet >/dev/null
for ranks in 1 2 3; do
  mpi "$ranks" solve --db "$WORK/strong-$ranks.rdb" --board 5x5 --quiet >"$WORK/strong-$ranks.txt"
  check "strong solve on $ranks ranks: exit 0" test $? -eq 0
  check "strong solve on $ranks ranks: byte-identical database" \
    cmp -s "$WORK/strong.rdb" "$WORK/strong-$ranks.rdb"
  check "strong solve on $ranks ranks: summary printed once" \
    test "$(grep -c '^Positions:' "$WORK/strong-$ranks.txt")" -eq 1
done
# Several threads in each rank: the children are listed and expanded by blocks in parallel.
mpi 2 solve --db "$WORK/strong-threads.rdb" --board 5x5 --threads 2 --quiet >/dev/null
check "strong solve on 2 ranks of 2 threads: byte-identical database" \
  cmp -s "$WORK/strong.rdb" "$WORK/strong-threads.rdb"
mpi 2 solve --db "$WORK/strong-sd.rdb" --board 4x4 --rules stuck-draw --steps orthogonal --quiet >/dev/null
"$RASTROS" solve --db "$WORK/strong-sd-1.rdb" --board 4x4 --rules stuck-draw --steps orthogonal --quiet >/dev/null
check "strong solve of a stuck-draw orthogonal game on 2 ranks" \
  cmp -s "$WORK/strong-sd.rdb" "$WORK/strong-sd-1.rdb"
"$RASTROS" verify --db "$WORK/strong-2.rdb" >/dev/null
check "the 2-rank database passes verify" test $? -eq 0

# Strong solve with --checkpoint on 2 ranks: SIGKILLed once 8 layers are valued (each rank's
# share saved in DIR/rank-R, then the root's state file), resumed on 2 ranks: the same bytes.
# Resuming on 3 ranks, or without --resume, is refused; a damaged layer file is reported.
"$RASTROS" solve --db "$WORK/strong74.rdb" --board 7x4 --quiet >/dev/null
strong_ck() { mpi "$1" solve --db "$WORK/strong74-mpi.rdb" --board 7x4 --checkpoint "$WORK/sck" "${@:2}"; }
strong_ck 2 --quiet >/dev/null 2>&1 &
pid=$!
valued=0
for ((i = 0; i < 3000 && valued < 8; i++)); do
  valued=$(sed -n 's/^valued_layers //p' "$WORK/sck/strong.checkpoint" 2>/dev/null)
  valued=${valued:-0}
  sleep 0.01
done
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pkill -KILL -f "$WORK/sck" 2>/dev/null
sleep 0.2
check "strong solve killed on 2 ranks after $valued layers, before the end" \
  test ! -e "$WORK/strong74-mpi.rdb" -a "$valued" -ge 8
strong_ck 3 --resume --quiet >/dev/null 2>"$WORK/sck-3.err"
check "strong checkpoint of 2 ranks resumed on 3: exit 2" test $? -eq 2
check "strong checkpoint of 2 ranks resumed on 3: says how many ranks" \
  grep -q 'resume it with -np 2' "$WORK/sck-3.err"
strong_ck 2 --quiet >/dev/null 2>&1
check "strong checkpoint without --resume: exit 2" test $? -eq 2
cp "$WORK/sck/rank-1/layer-03.records" "$WORK/layer-03.saved"
printf 'x' | dd of="$WORK/sck/rank-1/layer-03.records" bs=1 seek=40 conv=notrunc 2>/dev/null
strong_ck 2 --resume --quiet >/dev/null 2>"$WORK/sck-damaged.err"
check "strong checkpoint with a damaged layer of rank 1: exit 3" test $? -eq 3
cp "$WORK/layer-03.saved" "$WORK/sck/rank-1/layer-03.records"
strong_ck 2 --resume --quiet >/dev/null 2>&1
check "strong solve resumed on 2 ranks: exit 0" test $? -eq 0
check "strong solve killed and resumed on 2 ranks: byte-identical database" \
  cmp -s "$WORK/strong74.rdb" "$WORK/strong74-mpi.rdb"
check "the checkpoint is removed after the database is written" test ! -e "$WORK/sck"
# 7x4's payload is 15 deflate pieces: on 3 ranks each deflates five, dealt out in interleaved
# groups (cluster/distributed_database_writer.hpp); the joined file is still the same bytes.
mpi 3 solve --db "$WORK/strong74-3.rdb" --board 7x4 --quiet >/dev/null
check "strong solve of 7x4 on 3 ranks: byte-identical database" \
  cmp -s "$WORK/strong74.rdb" "$WORK/strong74-3.rdb"

# -- Oware endgame databases ------------------------------------------------------------------
# Each level split among the ranks (cluster/distributed_oware_level.hpp): the same bytes as one
# process on 1, 2 and 3 ranks, with one thread and with two a rank; a build stopped after 6
# seeds on 2 ranks and resumed from its checkpoint on 3 gives them too.
"$RASTROS" solve --game oware --houses 3 --db "$WORK/oware.odb" --endgame-seeds 11 --quiet >/dev/null
"$RASTROS" solve --game oware --houses 4 --db "$WORK/oware4.odb" --endgame-seeds 7 --quiet >/dev/null
for ranks in 1 2 3; do
  mpi "$ranks" solve --game oware --houses 3 --db "$WORK/oware-$ranks.odb" --endgame-seeds 11 \
    --threads 1 >"$WORK/oware-$ranks.txt" 2>"$WORK/oware-$ranks.err"
  check "oware database on $ranks ranks: exit 0" test $? -eq 0
  check "oware database on $ranks ranks: byte-identical file" cmp -s "$WORK/oware.odb" "$WORK/oware-$ranks.odb"
  check "oware database on $ranks ranks: summary printed once" \
    test "$(grep -c '^Oware endgame database' "$WORK/oware-$ranks.txt")" -eq 1
  check "oware database on $ranks ranks: each level's progress once" \
    test "$(grep -c 'level 11,' "$WORK/oware-$ranks.err")" -eq 1
done
# Frontiers of more than 10 boards in several exchanges a round, as a large level's are.
"$MPIRUN" --allow-run-as-root --oversubscribe -np 3 -x RASTROS_TEST_FRONTIER_CHUNK=10 "$RASTROS" \
  solve --game oware --houses 3 --db "$WORK/oware-chunked.odb" --endgame-seeds 11 --threads 2 --quiet >/dev/null
check "oware database on 3 ranks, 10 frontier boards an exchange: byte-identical file" \
  cmp -s "$WORK/oware.odb" "$WORK/oware-chunked.odb"
mpi 2 solve --game oware --houses 4 --db "$WORK/oware4-2.odb" --endgame-seeds 7 --threads 2 --quiet >/dev/null
check "oware database of 4 houses on 2 ranks of 2 threads: byte-identical file" \
  cmp -s "$WORK/oware4.odb" "$WORK/oware4-2.odb"
mpi 2 solve --game oware --houses 3 --db "$WORK/oware-part.odb" --endgame-seeds 6 \
  --checkpoint "$WORK/ock" --quiet >/dev/null
mpi 3 solve --game oware --houses 3 --db "$WORK/oware-resumed.odb" --endgame-seeds 11 \
  --checkpoint "$WORK/ock" --resume --quiet >/dev/null 2>&1
check "oware database of 6 seeds on 2 ranks resumed to 11 on 3: byte-identical file" \
  cmp -s "$WORK/oware.odb" "$WORK/oware-resumed.odb"
"$RASTROS" verify --game oware --houses 3 --db "$WORK/oware-3.odb" >/dev/null
check "the 3-rank oware database passes verify" test $? -eq 0
# A checkpoint that the ranks do not all see (a relative DIR from two working directories, one
# holding levels 0..5): refused on every rank, exit 2, no file.
mkdir -p "$WORK/wa" "$WORK/wb"
rastros_path=$(realpath "$RASTROS")
(cd "$WORK/wa" && "$rastros_path" solve --game oware --houses 3 --db p.odb --endgame-seeds 5 \
  --checkpoint ck --quiet >/dev/null)
"$MPIRUN" --allow-run-as-root --oversubscribe \
  -np 1 -wdir "$WORK/wa" "$rastros_path" solve --game oware --houses 3 --db "$WORK/split.odb" \
  --endgame-seeds 8 --checkpoint ck --resume --quiet : \
  -np 1 -wdir "$WORK/wb" "$rastros_path" solve --game oware --houses 3 --db "$WORK/split.odb" \
  --endgame-seeds 8 --checkpoint ck --resume --quiet >/dev/null 2>"$WORK/split.err"
check "oware checkpoint seen by one rank only: exit 2 (got $?)" test $? -eq 2
check "oware checkpoint seen by one rank only: says so" grep -q "do not all find level 0" "$WORK/split.err"
check "oware checkpoint seen by one rank only: no file" test ! -e "$WORK/split.odb"

# -- Errors ------------------------------------------------------------------------------------
mpi 2 map --board 9x9 >/dev/null 2>"$WORK/error.err"
check "a bad option on 2 ranks: exit 2" test $? -eq 2
check "a bad option on 2 ranks: the message once" test "$(grep -c 'at most 64' "$WORK/error.err")" -eq 1

finish mpi_test
