#!/usr/bin/env bash
# A week of large models' training beside fine-tunes, data-parallel training
# and notebooks on 16,384 H100s: runs the bundled
# scenarios/workloads/llm-week-16k.json (scripts/make_llm_week.py) with
# --contention on scenarios/clusters/h100-rails-16k-gpu-4to1.json (the
# 16k rail cluster, its leaf uplinks oversubscribed 4:1; non-blocking, no
# job loses anything to another) under fifo with the pack, topology and
# network placements, and under crux (its own placement, network), and
# prints for each run the mean JCT and, from summary.json's "contention",
# the share of the jobs that ran whose communication lost more than 5% and
# more than 20% of their run time to other jobs, the seconds lost in all
# and the most contended link.
#
# Usage: scripts/llm-contention-week.sh [--gcsim PATH] [--out DIR]
# (defaults: build/app/gcsim, out/llm-contention-week)
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/scenario-options.sh llm-contention-week "$@"

runs=("fifo pack" "fifo topology" "fifo network" "crux network")
for run in "${runs[@]}"; do
  read -r policy placement <<<"$run"
  "$gcsim" run --cluster scenarios/clusters/h100-rails-16k-gpu-4to1.json \
    --workload scenarios/workloads/llm-week-16k.json --policy "$policy" --placement "$placement" \
    --contention --out "$out/$policy-$placement" --quiet --no-wall-time
done

printf "%-15s  %12s  %6s  %10s  %10s  %14s  %s\n" "run" "mean JCT (s)" "jobs" "lost > 5%" "lost > 20%" "seconds lost" \
  "most contended link"
for run in "${runs[@]}"; do
  read -r policy placement <<<"$run"
  python3 - "$policy/$placement" "$out/$policy-$placement/summary.json" <<'PY'
import json, sys
summary = json.load(open(sys.argv[2]))
c = summary["contention"]
top = c["most_contended_links"][0]["link"] if c["most_contended_links"] else "-"
print("%-15s  %12.1f  %6d  %9.1f%%  %9.1f%%  %14.1f  %s" % (
    sys.argv[1], summary["jct_s"]["mean"], c["jobs_ran"], 100 * c["share_lost_over_5pct"],
    100 * c["share_lost_over_20pct"], c["lost_seconds"], top))
PY
done
