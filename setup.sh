#!/usr/bin/env bash
# One entry point for people and CI: installs missing Debian packages, builds, runs.
#   bash setup.sh solve   build (Release) and solve standard 7x7 Rastros from the start
#   bash setup.sh test    build (Release) and run the whole test suite
#   bash setup.sh asan    build with AddressSanitizer + UBSan (build-asan/) and run the tests
#   bash setup.sh tsan    build with ThreadSanitizer (build-tsan/) and run the parallel tests
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

build() {  # build DIR [cmake options...]
  local dir=$1
  shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
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
    build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRASTROS_SANITIZE=address,undefined \
      -DRASTROS_BUILD_BENCH=OFF
    ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan --output-on-failure -j "$jobs" \
      --timeout 1500
    ;;
  tsan)
    install_missing
    build build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRASTROS_SANITIZE=thread \
      -DRASTROS_BUILD_BENCH=OFF
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/thread_sanitizer.supp" \
      ./build-tsan/tests/rastros_tests --gtest_filter='ParallelSolver*:*Parallel*:Batch*'
    ;;
  bench)
    install_missing
    build build
    ./build/bench/rastros_bench
    ;;
  *)
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
