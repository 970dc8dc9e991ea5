#!/usr/bin/env bash
# A model deployment scaled by the Horizontal Pod Autoscaler against the same
# deployment at a fixed size: runs the bundled
# scenarios/workloads/serving-autoscaled.json and serving-fixed.json (a day
# of requests, 100 a second at night to 1,000 at midday, served by 1-GPU
# replicas of 100 requests a second each, 50 ms a request, an SLO of 0.5 s;
# between 2 and 16 replicas aiming at 70% busy, or 12 throughout; beside
# eight training jobs of 4 and 8 GPUs) on scenarios/clusters/rack-32gpu.json
# under fifo, and prints for each the requests' latency (p50, p95, p99), the
# share of them late or dropped, the most replicas ready at once, the
# deployment's GPU-hours and the training jobs' mean wait.
#
# Usage: scripts/serving.sh [--gcsim PATH] [--out DIR]
# (defaults: build/app/gcsim, out/serving)
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/scenario-options.sh serving "$@"

printf "%-18s  %8s  %8s  %8s  %10s  %10s  %10s  %6s  %17s\n" "workload" "p50 (ms)" "p95 (ms)" "p99 (ms)" \
  "late (%)" "dropped (%)" "most ready" "GPU-h" "training wait (h)"
for workload in serving-autoscaled serving-fixed; do
  "$gcsim" run --cluster scenarios/clusters/rack-32gpu.json --workload "scenarios/workloads/$workload.json" \
    --policy fifo --out "$out/$workload" --quiet
  # A figure of summary.json's "serving" section (one "key": value a line).
  figure() { sed -n "/\"serving\"/,/^  \]/ s/^ *\"$1\": \([0-9.e+-]*\),\{0,1\}$/\1/p" "$out/$workload/summary.json"; }
  training_wait=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    $col["id"] ~ /^train-/ { sum += $col["wait"]; n++ } END { printf "%.2f", sum / n / 3600 }' "$out/$workload/jobs.csv")
  requests=$(figure requests)
  awk -v name="$workload" -v p50="$(figure p50)" -v p95="$(figure p95)" -v p99="$(figure p99)" \
    -v late="$(figure late)" -v dropped="$(figure dropped)" -v requests="$requests" \
    -v replicas="$(figure most_ready_replicas)" -v gpu_hours="$(figure gpu_hours)" -v wait="$training_wait" \
    'BEGIN { printf "%-18s  %8.1f  %8.1f  %8.1f  %10.2f  %11.2f  %10d  %6.1f  %17s\n", name, 1000 * p50, 1000 * p95,
             1000 * p99, 100 * late / requests, 100 * dropped / requests, replicas, gpu_hours, wait }'
done
