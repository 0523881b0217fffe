#!/usr/bin/env bash
# One entry point for people and CI: installs missing Debian packages, builds, runs.
#   bash setup.sh solve   build (Release) and solve standard 7x7 Rastros from the start
#   bash setup.sh test    build (Release) and run the whole test suite
#   bash setup.sh asan    build with AddressSanitizer + UBSan (build-asan/) and run the tests
#   bash setup.sh tsan    build with ThreadSanitizer (build-tsan/, without MPI) and run the
#                         parallel tests
#   bash setup.sh fuzz    build the libFuzzer targets with clang (build-fuzz/), fuzz each one
#                         for FUZZ_SECONDS (default 45); fails on any crash, leak or report
#   bash setup.sh bench   build (Release) and run the benchmarks
set -euo pipefail
cd "$(dirname "$0")"

packages=(cmake make g++ pkg-config python3
          libboost-program-options-dev libboost-serialization-dev
          libtbb-dev libgtest-dev libgmock-dev libbenchmark-dev zlib1g-dev
          openmpi-bin libopenmpi-dev libboost-mpi-dev       # clusters: mpirun, Boost.MPI
          libboost-dev nodejs chromium wrk)  # rastros serve: Beast; its e2e and load tests

install_missing() {
  local missing=()
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$package")
  done
  if ((${#missing[@]})); then
    echo "setup.sh: installing ${missing[*]}" >&2
    local sudo=()
    ((EUID == 0)) || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

jobs=$(nproc 2>/dev/null || echo 2)

targets=()  # what build() builds: everything unless a configuration names what it runs
# The sanitizer builds: optimised, with line tables only (-g1: file and line in every report,
# at a fraction of full debug information's compile and link time).
sanitized=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
           -DRASTROS_BUILD_BENCH=OFF)
build() {  # build DIR [cmake options...]
  local dir=$1
  shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j "$jobs" ${targets[@]+--target "${targets[@]}"}
}

case "${1:-}" in
  solve)
    install_missing
    build build
    ./build/tools/rastros solve
    ;;
  test)
    install_missing
    build build
    ctest --test-dir build --output-on-failure -j "$jobs"
    ;;
  asan)
    install_missing
    build build-asan "${sanitized[@]}" -DRASTROS_SANITIZE=address,undefined
    ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan --output-on-failure -j "$jobs" \
      --timeout 1500
    ;;
  tsan)
    install_missing
    targets=(rastros_tests)  # only the test binary runs under ThreadSanitizer
    # Without MPI: the parallel tests need none, and this keeps the build for machines without
    # Open MPI (RASTROS_MPI off) compiling, libraries and tools alike.
    build build-tsan "${sanitized[@]}" -DRASTROS_SANITIZE=thread -DRASTROS_MPI=OFF
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/thread_sanitizer.supp" \
      ./build-tsan/tests/rastros_tests --gtest_filter='ParallelSolver*:*Parallel*:*StrongSolver*:*StrongCheckpoint*:*Batch*:ProofDatabase.FileRoundTripKeepsKindAndLeaves:ProofDatabase.QueryListsImmediateWins:SolverCancel.*'
    ;;
  fuzz)
    packages+=(clang libclang-rt-14-dev)
    install_missing
    # Every tests/fuzz/fuzz_NAME.cpp, seeded from tests/fuzz/corpus/fuzz_NAME/; what the fuzzer
    # learns goes to build-fuzz/corpus/, crash inputs to build-fuzz/artifacts/.
    for source in tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$source" .cpp)"); done
    CC=clang CXX=clang++ build build-fuzz "${sanitized[@]}" -DRASTROS_FUZZ=ON
    for target in "${targets[@]}"; do
      mkdir -p "build-fuzz/corpus/$target" build-fuzz/artifacts
      echo "== $target: fuzzing for ${FUZZ_SECONDS:-45} s" >&2
      ./build-fuzz/tests/fuzz/"$target" -max_total_time="${FUZZ_SECONDS:-45}" -timeout=10 \
        -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
        -artifact_prefix="build-fuzz/artifacts/$target-" \
        "build-fuzz/corpus/$target" "tests/fuzz/corpus/$target"
    done
    ;;
  bench)
    install_missing
    build build
    ./build/bench/rastros_bench
    ;;
  *)
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
