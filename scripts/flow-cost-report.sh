#!/usr/bin/env bash
# The cost of one simulated flow and one SimGrid solver call against the
# flows running at once: runs BM_ConcurrentFlows (benchmarks/bench_llm.cpp:
# 16 to 16,384 flows started together on the 16,384-GPU H100 rail cluster)
# and writes DIR/flow_cost.csv (flows, solver calls, engine seconds, seconds
# per flow and per solver call, peak RSS) and, with a Python that imports
# matplotlib, the log-log plot DIR/flow_cost.png (scripts/plot_flow_cost.py).
#
# Usage: scripts/flow-cost-report.sh [--out DIR] [--benchmarks PATH]
# (defaults: docs/scaling, build/benchmarks/gcsim_benchmarks)
set -euo pipefail
cd "$(dirname "$0")/.."

out=docs/scaling benchmarks=build/benchmarks/gcsim_benchmarks
while (($#)); do
  case "$1" in
    --out) out=$2 ;;
    --benchmarks) benchmarks=$2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "flow-cost-report.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift 2
done
[ -x "$benchmarks" ] || { echo "flow-cost-report.sh: no benchmarks at $benchmarks (build gcsim_benchmarks)" >&2; exit 1; }

python=${GCSIM_PYTHON:-}
for candidate in "$python" /usr/bin/python3 "$(command -v python3 || true)"; do
  if [ -n "$candidate" ] && "$candidate" -c "import matplotlib" 2>/dev/null; then python=$candidate; break; fi
  python=
done
plot=
if [ -z "$python" ]; then
  echo "flow-cost-report.sh: no plot: neither \$GCSIM_PYTHON, /usr/bin/python3 nor python3 on PATH imports" \
       "matplotlib (Debian: apt-get install python3-matplotlib)" >&2
  python=python3 plot=--no-plot
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
"$benchmarks" --benchmark_filter=BM_ConcurrentFlows --benchmark_min_time=0.01 \
  --benchmark_out="$work/flows.json" --benchmark_out_format=json >&2
"$python" scripts/plot_flow_cost.py "$work/flows.json" "$out" $plot
