#!/usr/bin/env bash
# Side by side: the benchmarks of this checkout against those of an earlier revision, in one
# run. Builds REVISION's rastros_bench (Release) in a scratch worktree, then runs both programs
# in turns (old, new, old, new, ...) on the benchmarks FILTER names, REPEAT times each, and
# prints, per benchmark, the median time of each build, their ratio (new / old: below 1 is
# faster), and whether the node counts agree. Alternating keeps the machine's drift out of the
# ratio. Usage:
#   bench/compare_builds.sh REVISION [FILTER] [REPEAT] [path/to/new/rastros_bench]
# e.g. bench/compare_builds.sh 7a15ee4 'BM_Analyse7x7Start/1/(0|1)/0/|BM_StrongSolve5x5/1/' 5
set -euo pipefail
REVISION=${1:?usage: compare_builds.sh REVISION [FILTER] [REPEAT] [new rastros_bench]}
FILTER=${2:-'BM_Analyse7x7Start/1/(0|1)/0/|BM_StrongSolve5x5/1/'}
REPEAT=${3:-5}
cd "$(dirname "$0")/.."
NEW=${4:-build/bench/rastros_bench}
OLD_TREE=${COMPARE_TREE:-/tmp/rastros-compare-$(git rev-parse --short "$REVISION")}

say() { echo "compare_builds.sh: $*" >&2; }

[[ -x $NEW ]] || { say "no $NEW: build it first (bash setup.sh bench)"; exit 2; }
if [[ ! -d $OLD_TREE ]]; then
  git worktree add --detach "$OLD_TREE" "$REVISION" >/dev/null
fi
say "building $REVISION's benchmarks in $OLD_TREE/build (output in $OLD_TREE/build.log)..."
{
  cmake -S "$OLD_TREE" -B "$OLD_TREE/build" -DCMAKE_BUILD_TYPE=Release -DRASTROS_BUILD_TESTS=OFF &&
    cmake --build "$OLD_TREE/build" --target rastros_bench -j"$(nproc)"
} >"$OLD_TREE/build.log" 2>&1 || { tail -20 "$OLD_TREE/build.log"; say "the build failed"; exit 1; }
OLD=$OLD_TREE/build/bench/rastros_bench

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for i in $(seq "$REPEAT"); do
  for side in old new; do
    program=$OLD
    [[ $side == new ]] && program=$NEW
    say "run $i of $REPEAT, $side build..."
    "$program" --benchmark_filter="$FILTER" --benchmark_format=json >"$WORK/$side-$i.json" \
      2>"$WORK/err" || { cat "$WORK/err" >&2; say "the $side build's benchmarks failed"; exit 1; }
  done
done

python3 - "$WORK" "$REPEAT" <<'PY'
import json, statistics, sys
work, repeat = sys.argv[1], int(sys.argv[2])
runs = {"old": {}, "new": {}}
for side in runs:
    for i in range(1, repeat + 1):
        for b in json.load(open(f"{work}/{side}-{i}.json"))["benchmarks"]:
            runs[side].setdefault(b["name"], []).append((b["real_time"], b.get("nodes")))
print(f"{'benchmark':48} {'old':>10} {'new':>10} {'new/old':>8}  nodes")
for name, old in runs["old"].items():
    new = runs["new"].get(name)
    if not new:
        print(f"{name:48} only in the old build")
        continue
    t_old = statistics.median(t for t, _ in old)
    t_new = statistics.median(t for t, _ in new)
    same = "same" if {n for _, n in old} == {n for _, n in new} else "differ"
    print(f"{name:48} {t_old:10.1f} {t_new:10.1f} {t_new / t_old:8.3f}  {same}")
PY
