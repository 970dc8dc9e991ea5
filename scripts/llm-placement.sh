#!/usr/bin/env bash
# Placements of large models' training on the rail-optimized 1,024-GPU H100
# cluster: runs the bundled scenarios/workloads/llm-placement.json (96 batch
# jobs of 6 GPUs that leave 2 GPUs free on 96 nodes, then a 70B-like model on
# TP8 x PP4 x DP8, a Mixtral-like MoE on TP4 x PP2 x DP16 x EP8 and a
# 13B-like model on TP4 x DP16) on scenarios/clusters/h100-rails-1024gpu.json
# under fifo with the pack, topology and network placements, and under crux
# (its own placement, network), and prints for each run the mean JCT of all
# jobs and of the three LLM jobs, and the share of jobs whose run time
# (end - start) exceeds their uncontended time (jobs.csv) by more than 5% and
# by more than 20%.
#
# Usage: scripts/llm-placement.sh [--gcsim PATH] [--out DIR]
# (defaults: build/app/gcsim, out/llm-placement)
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/scenario-options.sh llm-placement "$@"

runs=("fifo pack" "fifo topology" "fifo network" "crux network")
for run in "${runs[@]}"; do
  read -r policy placement <<<"$run"
  "$gcsim" run --cluster scenarios/clusters/h100-rails-1024gpu.json \
    --workload scenarios/workloads/llm-placement.json --policy "$policy" --placement "$placement" \
    --out "$out/$policy-$placement" --quiet --no-wall-time
done

printf "%-15s  %12s  %16s  %13s  %14s\n" "run" "mean JCT (s)" "LLM mean JCT (s)" "slowed > 5%" "slowed > 20%"
for run in "${runs[@]}"; do
  read -r policy placement <<<"$run"
  # The batch jobs are named batch-NN; every other job is a large model's.
  awk -F, -v name="$policy/$placement" '
    NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    $col["state"] == "finished" {
      jobs += 1; jct += $col["jct"]
      if ($col["id"] !~ /^batch-/) { llm += 1; llm_jct += $col["jct"] }
      slowdown = ($col["end"] - $col["start"]) / $col["uncontended"]
      if (slowdown > 1.05) over5 += 1
      if (slowdown > 1.20) over20 += 1
    }
    END {
      printf "%-15s  %12.1f  %16.1f  %6d (%3.0f%%)  %7d (%3.0f%%)\n", name, jct / jobs, llm_jct / llm,
        over5, 100 * over5 / jobs, over20, 100 * over20 / jobs
    }' "$out/$policy-$placement/jobs.csv"
done
