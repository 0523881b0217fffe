#!/usr/bin/env bash
# One entry point for people and CI: installs missing Debian packages, builds, runs.
#   bash setup.sh solve   build the program only (Release, build/) and solve standard 7x7
#                         Rastros from the start
#   bash setup.sh test    build everything (Release, build/) and run the whole test suite
#   bash setup.sh asan    build with AddressSanitizer + UBSan (build-asan/) and run the tests
#   bash setup.sh tsan    build with ThreadSanitizer (build-tsan/, without MPI) and run the
#                         parallel tests
#   bash setup.sh fuzz    build the libFuzzer targets with clang (build-fuzz/), fuzz each one
#                         for FUZZ_SECONDS (default 30), as many at once as there are cores;
#                         fails on any crash, leak or report
#   bash setup.sh bench   build (Release, build/) and run the benchmarks
# Each step prints one line; apt-get's and the build's output goes to DIR/setup.log, and a failed
# step shows that log's last lines and one line naming what failed (exit status 1).
set -euo pipefail
cd "$(dirname "$0")"

packages=(cmake make g++ pkg-config python3
          libboost-program-options-dev libboost-serialization-dev
          libtbb-dev libgtest-dev libgmock-dev libbenchmark-dev zlib1g-dev
          openmpi-bin libopenmpi-dev libboost-mpi-dev       # clusters: mpirun, Boost.MPI
          libboost-dev nodejs chromium wrk)  # rastros serve: Beast; its e2e and load tests

say() { echo "setup.sh: $*" >&2; }

log=/dev/null  # where apt-get and cmake write: DIR/setup.log once a mode has named its DIR
log_step=0     # the log's line count when the current step began
use_log() {  # use_log DIR: start this run's log in DIR
  mkdir -p "$1"
  log=$1/setup.log
  : >"$log"
}
step() {  # step WHAT: says what is being done; the log's lines from here on are its output
  say "$1..."
  log_step=$(wc -l <"$log")
}

# fail WHAT: the end of the log, then one line naming what failed (with the most telling error
# line of the step's output, when it has one) and where the whole log is; exit status 1.
fail() {
  local cause='' pattern
  if [[ -s $log ]]; then
    echo "--- the last 20 lines of $log:" >&2
    tail -n 20 "$log" >&2
    echo "---" >&2
    for pattern in 'Could (NOT|not) find' '^E: ' 'error:' 'CMake Error' '\*\*\* '; do
      cause=$(tail -n +$((log_step + 1)) "$log" | grep -m1 -E -- "$pattern" |
              sed 's/^ *//' | cut -c1-160) || true
      if [[ -n $cause ]]; then break; fi
    done
  fi
  say "FAILED: $1${cause:+: $cause} (full log: $log)"
  exit 1
}

install_missing() {
  local missing=()
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$package")
  done
  ((${#missing[@]})) || return 0
  step "installing ${#missing[@]} package$( ((${#missing[@]} == 1)) || echo s) (${missing[*]})"
  command -v apt-get >/dev/null ||
    fail "no apt-get on this machine: install ${missing[*]} or their equivalents by hand"
  local sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null || fail "installing packages needs root: run as root or install sudo"
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update -qq >>"$log" 2>&1 || fail "apt-get update"
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" \
    >>"$log" 2>&1 || fail "apt-get install of ${missing[*]}"
}

jobs=$(nproc 2>/dev/null || echo 2)

# progress: reads the build's output (which is in the log) and passes none of it on; on a
# terminal it shows the percentage done, on one line that it clears at the end.
progress() {
  local line
  while IFS= read -r line; do
    if [[ -t 2 && $line =~ ^\[\ *([0-9]+)%\] ]]; then
      printf '\r  %3d%%' "${BASH_REMATCH[1]}" >&2
    fi
  done
  if [[ -t 2 ]]; then printf '\r      \r' >&2; fi
}

targets=()  # what build() builds: everything unless a configuration names what it runs
# The sanitizer builds: optimised, with line tables only (-g1: file and line in every report,
# at a fraction of full debug information's compile and link time).
sanitized=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
           -DRASTROS_BUILD_BENCH=OFF)
build() {  # build DIR [cmake options...]
  local dir=$1 type=Release option
  shift
  for option; do
    if [[ $option == -DCMAKE_BUILD_TYPE=* ]]; then type=${option#*=}; fi
  done
  step "configuring $dir/ ($type)"
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >>"$log" 2>&1 ||
    fail "configuring $dir/ (cmake)"
  local what=everything started=$SECONDS
  if ((${#targets[@]})); then what=${targets[*]}; fi
  step "building $what (-j$jobs, output in $log)"
  cmake --build "$dir" -j "$jobs" ${targets[@]+--target "${targets[@]}"} 2>&1 |
    tee -a "$log" | progress || fail "building $what in $dir/"
  say "built $what in $((SECONDS - started)) s"
}

# run_tests WHAT COMMAND...: runs tests with their output shown; one line when they fail.
run_tests() {
  local what=$1
  shift
  step "running $what"
  "$@" || { say "FAILED: $what (see the output above)"; exit 1; }
}

# run_shards BINARY: runs a GoogleTest binary as $jobs shards at once, each one's output in
# BINARY.shardN.log; shows the failing shards' failures, and fails when any shard does (or runs
# past 30 minutes: a hung case).
run_shards() {
  local binary=$1 shard pids=() status=0
  for ((shard = 0; shard < jobs; shard++)); do
    GTEST_TOTAL_SHARDS=$jobs GTEST_SHARD_INDEX=$shard timeout 1800 "$binary" --gtest_brief=1 \
      >"$binary.shard$shard.log" 2>&1 &
    pids+=($!)
  done
  for ((shard = 0; shard < jobs; shard++)); do
    if ! wait "${pids[shard]}"; then
      status=1
      tail -n 60 "$binary.shard$shard.log"
    fi
    grep -h -E '^\[ +(PASSED|FAILED) +\]' "$binary.shard$shard.log" | sed "s/^/  shard $shard: /"
  done
  return $status
}

# start_fuzzer TARGET: fuzzes build-fuzz/tests/fuzz/TARGET for FUZZ_SECONDS in the background,
# its output in build-fuzz/TARGET.log; wait_fuzzer TARGET: waits for it, and on a crash, a
# leak or a report shows the end of that log and fails.
declare -A fuzzer_pid
start_fuzzer() {
  local target=$1
  mkdir -p "build-fuzz/corpus/$target"
  ./build-fuzz/tests/fuzz/"$target" -max_total_time="${FUZZ_SECONDS:-30}" -timeout=10 \
    -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
    -artifact_prefix="build-fuzz/artifacts/$target-" \
    "build-fuzz/corpus/$target" "tests/fuzz/corpus/$target" >"build-fuzz/$target.log" 2>&1 &
  fuzzer_pid[$target]=$!
}
wait_fuzzer() {
  local target=$1
  if wait "${fuzzer_pid[$target]}"; then
    say "$target: $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "build-fuzz/$target.log" |
                    grep -o '[0-9]*$') runs, no crash"
  else
    tail -n 40 "build-fuzz/$target.log" >&2
    say "FAILED: fuzzing $target (whole output: build-fuzz/$target.log; crash inputs: build-fuzz/artifacts/)"
    exit 1
  fi
}

case "${1:-}" in
  solve)
    use_log build
    install_missing
    # Only the program it runs: the tests and benchmarks stay configured (a later `setup.sh
    # test` in build/ builds them) but are not compiled.
    targets=(rastros)
    build build
    step "solving 7x7 from the start"
    ./build/tools/rastros solve
    ;;
  test)
    use_log build
    install_missing
    # Tests and benchmarks on, whatever an earlier configuration of build/ chose.
    # The test binary as a unity build (eight test files a compilation, GoogleTest's headers
    # parsed once for them); the program and the benchmarks are compiled as `solve` compiles them.
    build build -DRASTROS_BUILD_TESTS=ON -DRASTROS_BUILD_BENCH=ON -DRASTROS_UNITY_TESTS=ON
    run_tests "the tests (ctest in build/)" ctest --test-dir build --output-on-failure -j "$jobs"
    ;;
  asan)
    use_log build-asan
    install_missing
    # A unity build: the heavy headers (Boost, TBB, GoogleTest) parsed once for eight sources.
    build build-asan "${sanitized[@]}" -DRASTROS_SANITIZE=address,undefined \
      -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8
    export ASAN_OPTIONS=detect_leaks=1
    # The GoogleTest cases in one process a core (ctest's process a case costs ASan's start-up,
    # a third of a second, 700 times), then everything else through ctest.
    run_tests "the GoogleTest cases under AddressSanitizer ($jobs shards)" \
      run_shards ./build-asan/tests/rastros_tests
    run_tests "the other tests under AddressSanitizer (ctest -LE gtest in build-asan/)" \
      ctest --test-dir build-asan --output-on-failure -j "$jobs" --timeout 1500 -LE gtest
    ;;
  tsan)
    use_log build-tsan
    install_missing
    targets=(rastros_tests)  # only the test binary runs under ThreadSanitizer
    # Without MPI: the parallel tests need none, and this keeps the build for machines without
    # Open MPI (RASTROS_MPI off) compiling, libraries and tools alike.
    build build-tsan "${sanitized[@]}" -DRASTROS_SANITIZE=thread -DRASTROS_MPI=OFF \
      -DRASTROS_PARALLEL_TESTS_ONLY=ON -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/thread_sanitizer.supp" \
      run_tests "the parallel tests under ThreadSanitizer" \
      ./build-tsan/tests/rastros_tests --gtest_filter='ParallelSolver*:*Parallel*:*StrongSolver*:*StrongCheckpoint*:*Batch*:ProofDatabase.FileRoundTripKeepsKindAndLeaves:ProofDatabase.QueryListsImmediateWins:SolverCancel.*:KalahSolver.SameAnswersWithOneAndTwoThreads:KalahEndgame.SolverWithTheDatabaseAgreesWithoutIt:KalahEndgame.VerifyAcceptsBuiltDatabasesAndCatchesAChangedRecord:ServeKalahApi.*:ServeCongkakApi.OverTheTimeBudgetGets503:ServeOwareApi.OverTheTimeBudgetGets503:ServeReversiApi.OverTheTimeBudgetGets503:ReversiSolver.OneAndTwoThreadsAgree:ReversiSolver.StopThrowsSearchStopped:CongkakSolver.SameAnswersWithOneAndTwoThreads:OwareDatabase.ParallelBuildGivesTheSameRecordsOnOneAndTwoThreads:OwareDatabase.AKilledBuildResumesToTheSameBytes:ScoreDatabaseFile.TwoThreadsShareOneReader:OwareDistances.TwoThreadsShareOneChooser:OwareLevel.ADatabaseBuiltWithNoMemoryForGraphsIsTheSameAndPassesVerify:ScratchMemory.*:ReversiPatterns.GeneratedSamplesAreExactAndRoundTripAsText'
    ;;
  fuzz)
    use_log build-fuzz
    packages+=(clang libclang-rt-14-dev)
    install_missing
    # Every tests/fuzz/fuzz_NAME.cpp, seeded from tests/fuzz/corpus/fuzz_NAME/; what the fuzzer
    # learns goes to build-fuzz/corpus/, crash inputs to build-fuzz/artifacts/.
    for source in tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$source" .cpp)"); done
    CC=clang CXX=clang++ build build-fuzz "${sanitized[@]}" -DRASTROS_FUZZ=ON
    mkdir -p build-fuzz/artifacts
    step "fuzzing ${#targets[@]} targets for ${FUZZ_SECONDS:-30} s each, $jobs at a time (crash inputs: build-fuzz/artifacts/)"
    running=()
    for target in "${targets[@]}"; do
      if ((${#running[@]} >= jobs)); then wait_fuzzer "${running[0]}"; running=("${running[@]:1}"); fi
      start_fuzzer "$target"
      running+=("$target")
    done
    for target in "${running[@]}"; do wait_fuzzer "$target"; done
    ;;
  bench)
    use_log build
    install_missing
    build build -DRASTROS_BUILD_BENCH=ON
    run_tests "the benchmarks" ./build/bench/rastros_bench
    ;;
  *)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
