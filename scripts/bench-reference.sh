#!/usr/bin/env bash
# Runs the whole benchmark suite (build/benchmarks/gcsim_benchmarks, every
# size) and writes its figures to benchmarks/reference/MACHINE.json, with
# the CPU model, core count and load average in the JSON's context.
# Compare two such files with scripts/bench_compare.py.
#
# Usage: scripts/bench-reference.sh [--machine NAME] [-- BENCHMARK_OPTIONS...]
#   --machine NAME   file name (default: the host name); say what the machine
#                    is in docs/benchmarks.md when committing a reference
#   BENCHMARK_OPTIONS are passed on, e.g. --benchmark_filter=BM_Scheduling
#                    or --benchmark_repetitions=3
set -euo pipefail
cd "$(dirname "$0")/.."

machine=$(hostname -s)
while (($#)); do
  case "$1" in
    --machine) machine=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-reference.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
suite=build/benchmarks/gcsim_benchmarks
[ -x "$suite" ] || { echo "bench-reference.sh: no $suite (build it: scripts/build.sh)" >&2; exit 1; }

model=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)
mkdir -p benchmarks/reference
out=benchmarks/reference/$machine.json
"$suite" --benchmark_out="$out" --benchmark_out_format=json \
  "--benchmark_context=cpu_model=${model:-unknown},cores=$(nproc),load_average_at_start=$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' '/')" \
  "$@"
echo "bench-reference.sh: wrote $out" >&2
