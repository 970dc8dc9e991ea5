#!/usr/bin/env bash
# The input pipeline's cost as the GPU count grows: runs the bundled
# scenarios/workloads/input-pipeline.json (ResNet-50-sized training, 64
# images per GPU per iteration, decoded at 38 images/s per core, on 1 to 32
# GPUs, each job asking 4 cores plus 4 per GPU, so the cores per GPU fall
# from 8 to 4.1; each job alone) on scenarios/clusters/rack-32gpu.json under
# fifo, and prints each size's images per second on synthetic data (no
# pipeline) and on real data, and the gap between them.
#
# Usage: scripts/input-pipeline.sh [--gcsim PATH] [--out DIR]
# (defaults: build/app/gcsim, out/input-pipeline)
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/scenario-options.sh input-pipeline "$@"

"$gcsim" run --cluster scenarios/clusters/rack-32gpu.json --workload scenarios/workloads/input-pipeline.json \
  --policy fifo --out "$out" --quiet
# The cores each job asks for, from its line of the workload (one job a line).
cores=$(sed -n 's/.*"id": "\([^"]*\)".*"cpu_cores": \([0-9]*\).*/\1,\2/p' scenarios/workloads/input-pipeline.json)
# 64 images per GPU per iteration.
awk -F, -v cores="$cores" '
  BEGIN {
    split(cores, pairs, "\n")
    for (i in pairs) { split(pairs[i], pair, ","); asked[pair[1]] = pair[2] }
    printf "%5s  %9s  %20s  %15s  %6s\n", "GPUs", "cores/GPU", "synthetic (images/s)", "real (images/s)", "gap"
  }
  NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  {
    n = $col["gpus"]; synthetic = $col["synthetic_iterations_per_s"]; real = $col["real_iterations_per_s"]
    printf "%5d  %9.2f  %20.1f  %15.1f  %5.1f%%\n", n, asked[$col["id"]] / n, 64 * n * synthetic, 64 * n * real,
      100 * (1 - real / synthetic)
  }' "$out/jobs.csv"
