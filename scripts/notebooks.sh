#!/usr/bin/env bash
# Notebooks that hold their GPUs against notebooks released when idle: runs
# the bundled scenarios/workloads/notebooks-hold.json and
# notebooks-release.json (24 one-GPU notebook sessions of 8 h, busy 15% of
# the time in bursts of 15 min on average, beside 12 training jobs of 8 GPUs
# for 2 h; the second with a 30 min idle timeout) on
# scenarios/clusters/rack-32gpu.json under fifo, and prints for each the
# notebooks' GPU-hours held, busy and idle, the training jobs' mean wait,
# and how long the notebooks' returning bursts waited for GPUs.
#
# Usage: scripts/notebooks.sh [--gcsim PATH] [--out DIR]
# (defaults: build/app/gcsim, out/notebooks)
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/scenario-options.sh notebooks "$@"

printf "%-18s  %10s  %10s  %10s  %19s  %18s  %16s\n" "workload" "held GPU-h" "busy GPU-h" "idle GPU-h" \
  "training wait (s)" "bursts requeued" "their wait (s)"
for workload in notebooks-hold notebooks-release; do
  "$gcsim" run --cluster scenarios/clusters/rack-32gpu.json --workload "scenarios/workloads/$workload.json" \
    --policy fifo --out "$out/$workload" --quiet
  # The figures of summary.json's "notebooks" section (one "key": value a line).
  figure() { sed -n "/\"notebooks\"/,/}/ s/^ *\"$1\": \([0-9.e+-]*\),\{0,1\}$/\1/p" "$out/$workload/summary.json"; }
  training_wait=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    $col["id"] ~ /^train-/ { sum += $col["wait"]; n++ } END { printf "%.0f", sum / n }' "$out/$workload/jobs.csv")
  printf "%-18s  %10.1f  %10.1f  %10.1f  %19s  %18s  %16.0f\n" "$workload" "$(figure held_gpu_hours)" \
    "$(figure busy_gpu_hours)" "$(figure idle_gpu_hours)" "$training_wait" "$(figure requeued_holds)" \
    "$(figure requeue_wait_mean_s)"
done
