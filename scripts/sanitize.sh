#!/usr/bin/env bash
# Builds gcsim's tests with AddressSanitizer and UndefinedBehaviorSanitizer
# and runs them with ctest: any sanitizer report fails the test it occurs in.
#
#   scripts/sanitize.sh           the whole suite (but the measured tests), in
#                                 build-asan/ (gcc, GCSIM_SANITIZE=address)
#   scripts/sanitize.sh --thread  ThreadSanitizer where gcsim runs threads, in
#                                 build-tsan/ (gcc): the render farm's
#                                 executor (its tests and a real run), and
#                                 `gcsim sweep --jobs 2`, whose workers start
#                                 runs whose SimGrid actors are threads
#   scripts/sanitize.sh --short   the unit-test programs that link no
#                                 SimGrid, in the fuzzers' short build
#                                 (build-fuzz-short/: clang, the same
#                                 sanitizers, -O0), whose libraries
#                                 `scripts/fuzz.sh --short` built (CI)
#
# SimGrid switches between its actors' stacks, which AddressSanitizer's
# detection of stack use after return does not follow: it is turned off
# (docs/robustness.md).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=whole
case "${1:-}" in
  --short) mode=short ;;
  --thread) mode=thread ;;
  "") ;;
  *) echo "usage: scripts/sanitize.sh [--short|--thread]" >&2; exit 2 ;;
esac

jobs=${GCSIM_BUILD_JOBS:-$(nproc)}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=0:detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
scripts/ensure-deps.sh
if [[ $mode == short ]]; then
  # The fuzzers' configuration with the tests on: the same flags, so the
  # libraries fuzz.sh compiled are reused and only the tests are compiled.
  unit=(core_tests topology_tests model_tests policy_tests workload_tests trace_tests report_tests capacity_tests
        app_input_tests arrivals_tests)
  build=${GCSIM_FUZZ_BUILD_DIR:-build-fuzz-short}
  GCSIM_FUZZ_TESTS=ON scripts/fuzz.sh --short --configure-only
  cmake --build "$build" -j"$jobs" --target "${unit[@]}"
  labels=$(IFS='|'; echo "${unit[*]}")
  ctest --test-dir "$build" --output-on-failure -j"$jobs" -L "^($labels)\$"
elif [[ $mode == thread ]]; then
  build=${GCSIM_TSAN_BUILD_DIR:-build-tsan}
  export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DGCSIM_SANITIZE=thread -DGCSIM_BUILD_BENCHMARKS=OFF -DGCSIM_CUDA=OFF >/dev/null
  cmake --build "$build" -j"$jobs" --target gcsim renderfarm real_tests
  ctest --test-dir "$build" --output-on-failure -j"$jobs" -L '^real_tests$'
  "$build/real/renderfarm" --frames 4 --elements 3 --unit 0.01 --repeat 1 --overhead-tasks 5 >/dev/null
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  cat >"$scratch/sweep.json" <<SPEC
{"cluster": "$PWD/scenarios/clusters/rack-32gpu.json", "workload": "$PWD/scenarios/workloads/default.json",
 "axes": [{"name": "policy", "values": ["fifo", "srtf"]}, {"name": "--seed", "values": [1, 2]}],
 "metrics": ["jct_s.mean", "makespan_s"]}
SPEC
  "$build/app/gcsim" sweep "$scratch/sweep.json" --out "$scratch/out" --jobs 2 --quiet
  echo "sanitize.sh: no report from ThreadSanitizer"
else
  build=${GCSIM_ASAN_BUILD_DIR:-build-asan}
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DGCSIM_SANITIZE=address -DGCSIM_BUILD_BENCHMARKS=OFF -DGCSIM_CUDA=OFF >/dev/null
  cmake --build "$build" -j"$jobs"
  ctest --test-dir "$build" --output-on-failure -j"$jobs" -LE measured
fi
