#!/usr/bin/env bash
# Parameter servers and the hierarchical allreduce against the ring as the
# GPU count grows: runs the bundled scenarios/workloads/ps-vs-ring.json
# (ResNet-50-sized training, 500 iterations, on 1 to 32 GPUs: a ring
# allreduce, 2 parameter servers and a hierarchical allreduce, each job
# alone) on scenarios/clusters/rack-32gpu.json under fifo, and prints each
# size's time per iteration for the three, the ratios to the ring, and the
# first GPU count at which the parameter-server job is slower than the ring.
#
# Usage: scripts/ps-vs-ring.sh [--gcsim PATH] [--out DIR]
# (defaults: build/app/gcsim, out/ps-vs-ring)
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/scenario-options.sh ps-vs-ring "$@"

"$gcsim" run --cluster scenarios/clusters/rack-32gpu.json --workload scenarios/workloads/ps-vs-ring.json \
  --policy fifo --out "$out" --quiet
# Jobs are named ring-NNgpu, ps-NNgpu and hier-NNgpu and run 500 iterations each.
awk -F, '
  NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  {
    split($col["id"], name, "-")
    n = $col["gpus"] + 0
    per_iteration[name[1], n] = $col["jct"] / 500
    sizes[n] = 1
  }
  END {
    count = 0
    for (n in sizes) order[++count] = n + 0
    for (i = 2; i <= count; ++i)
      for (j = i; j > 1 && order[j] < order[j - 1]; --j) { t = order[j]; order[j] = order[j - 1]; order[j - 1] = t }
    printf "%5s  %14s  %14s  %9s  %18s  %11s\n", "GPUs", "ring (s/iter)", "2 PS (s/iter)", "PS / ring",
      "hierarchical (s/iter)", "hier / ring"
    behind = 0
    for (i = 1; i <= count; ++i) {
      n = order[i]; ring = per_iteration["ring", n]; ps = per_iteration["ps", n]; hier = per_iteration["hier", n]
      printf "%5d  %14.6f  %14.6f  %9.4f  %18.6f  %11.4f\n", n, ring, ps, ps / ring, hier, hier / ring
      if (!behind && ps > ring * (1 + 1e-9)) behind = n
    }
    if (behind) printf "the parameter-server job falls behind the ring from %d GPUs\n", behind
    else print "the parameter-server job keeps up with the ring at every size"
  }' "$out/jobs.csv"
