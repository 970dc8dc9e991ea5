#!/usr/bin/env bash
# Builds gcsim's tests with AddressSanitizer and UndefinedBehaviorSanitizer
# and runs them with ctest: any sanitizer report fails the test it occurs in.
#
#   scripts/sanitize.sh           the whole suite (but the measured tests), in
#                                 build-asan/ (gcc, GCSIM_SANITIZE=address)
#   scripts/sanitize.sh --short   the unit-test programs that link no
#                                 SimGrid, in the fuzzers' build (build-fuzz/:
#                                 clang, the same sanitizers), whose libraries
#                                 scripts/fuzz.sh built (CI)
#
# SimGrid switches between its actors' stacks, which AddressSanitizer's
# detection of stack use after return does not follow: it is turned off
# (docs/robustness.md).
set -euo pipefail
cd "$(dirname "$0")/.."

short=false
case "${1:-}" in
  --short) short=true ;;
  "") ;;
  *) echo "usage: scripts/sanitize.sh [--short]" >&2; exit 2 ;;
esac

jobs=${GCSIM_BUILD_JOBS:-$(nproc)}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=0:detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
scripts/ensure-deps.sh
if $short; then
  # The fuzzers' configuration with the tests on: the same flags, so the
  # libraries fuzz.sh compiled are reused and only the tests are compiled.
  unit=(core_tests topology_tests model_tests policy_tests workload_tests trace_tests report_tests capacity_tests
        app_input_tests)
  build=${GCSIM_FUZZ_BUILD_DIR:-build-fuzz}
  GCSIM_FUZZ_TESTS=ON scripts/fuzz.sh --configure-only
  cmake --build "$build" -j"$jobs" --target "${unit[@]}"
  labels=$(IFS='|'; echo "${unit[*]}")
  ctest --test-dir "$build" --output-on-failure -j"$jobs" -L "^($labels)\$"
else
  build=${GCSIM_ASAN_BUILD_DIR:-build-asan}
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DGCSIM_SANITIZE=address -DGCSIM_BUILD_BENCHMARKS=OFF -DGCSIM_CUDA=OFF >/dev/null
  cmake --build "$build" -j"$jobs"
  ctest --test-dir "$build" --output-on-failure -j"$jobs" -LE measured
fi
