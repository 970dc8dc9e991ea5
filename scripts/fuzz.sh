#!/usr/bin/env bash
# Builds the libFuzzer targets in build-fuzz/ (clang, AddressSanitizer and
# UndefinedBehaviorSanitizer, -O1) and runs each one on its seed corpus
# (fuzz/corpus/TARGET) for a while. docs/robustness.md says what counts as a finding.
#
#   scripts/fuzz.sh                       every target, 600 s each
#   scripts/fuzz.sh --short               every target, 3 s each (CI), built
#                                         at -O0 in build-fuzz-short/, which
#                                         compiles faster
#   scripts/fuzz.sh --seconds 60 fuzz_swf_trace fuzz_cluster
#   scripts/fuzz.sh [--short] --configure-only
#                                         configures the build and stops
#                                         (GCSIM_FUZZ_TESTS=ON: with the tests)
#
# Runs as many targets at once as GCSIM_BUILD_JOBS (default: the cores), one
# core each. Prints, per target, the executions, executions per second and
# findings; exits non-zero on any finding, naming the input that caused it
# (kept in BUILD/findings/TARGET/). The corpus grown by a run is kept in
# BUILD/corpus/TARGET and used again by the next run.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=600
short=false
configure_only=false
targets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --short) seconds=3; short=true; shift ;;
    --configure-only) configure_only=true; shift ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option '$1'" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done

scripts/ensure-deps.sh
if $short; then
  build=${GCSIM_FUZZ_BUILD_DIR:-build-fuzz-short} optimization=-O0
else
  build=${GCSIM_FUZZ_BUILD_DIR:-build-fuzz} optimization=-O1
fi
jobs=${GCSIM_BUILD_JOBS:-$(nproc)}
cxx=${CXX_FUZZ:-clang++}
if ! command -v "$cxx" >/dev/null; then
  echo "fuzz.sh: needs clang ('$cxx' not found; Debian package clang)" >&2
  exit 2
fi

cmake -S . -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Fuzz \
  -DCMAKE_CXX_FLAGS="$optimization -g0" -DGCSIM_SANITIZE=fuzz -DGCSIM_BUILD_FUZZERS=ON \
  -DGCSIM_BUILD_TESTS="${GCSIM_FUZZ_TESTS:-OFF}" -DGCSIM_BUILD_BENCHMARKS=OFF -DGCSIM_CUDA=OFF >/dev/null
$configure_only && exit 0
cmake --build "$build" --target fuzzers -j"$jobs"

if [[ ${#targets[@]} -eq 0 ]]; then
  for source in fuzz/fuzz_*.cpp; do
    name=$(basename "$source" .cpp)
    [[ $name == fuzz_input ]] || targets+=("$name")
  done
fi

# Runs one target; leaves its row of the table in $build/logs/TARGET.row and,
# when it failed, what to say about it in $build/logs/TARGET.failure.
run_target() {
  local target=$1
  local corpus="$build/corpus/$target" findings="$build/findings/$target" log="$build/logs/$target.log"
  local row="$build/logs/$target.row" failure="$build/logs/$target.failure"
  mkdir -p "$corpus" "$findings" "$(dirname "$log")"
  rm -f "$failure"
  local options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
                 -artifact_prefix="$findings/")
  local dict="fuzz/dict/${target#fuzz_}.dict"
  [[ -f $dict ]] && options+=(-dict="$dict")
  local before start rc=0
  before=$(find "$findings" -type f | wc -l)
  start=$(date +%s)
  "$build/fuzz/$target" "${options[@]}" "$corpus" "fuzz/corpus/$target" >"$log" 2>&1 || rc=$?
  local elapsed=$(($(date +%s) - start)) executions rate new
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  new=$(($(find "$findings" -type f | wc -l) - before))
  printf '%-24s %8s %12s %10s %s\n' "$target" "$elapsed" "${executions:-?}" "${rate:-?}" "$new" >"$row"
  if [[ $rc -ne 0 || $new -gt 0 ]]; then
    {
      echo "  $target failed (exit $rc); log: $log"
      grep -m1 -E '^(==[0-9]+==ERROR|.*runtime error|finding:|terminate called)' "$log" | sed 's/^/  /' || true
      sed -n 's/^.*Test unit written to /  input: /p' "$log"
    } >"$failure"
  fi
}

# A fuzzer runs on one core: as many run at once as there are build jobs,
# each for its own seconds; the table lists them in the order given.
running=0
for target in "${targets[@]}"; do
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
  run_target "$target" &
  running=$((running + 1))
done
wait

status=0
printf '%-24s %8s %12s %10s %s\n' target seconds executions exec/s findings
for target in "${targets[@]}"; do
  cat "$build/logs/$target.row"
  if [[ -f $build/logs/$target.failure ]]; then
    status=1
    cat "$build/logs/$target.failure" >&2
  fi
done
exit $status
