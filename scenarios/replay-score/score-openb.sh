#!/usr/bin/env bash
# Scores gcsim's replay of Alibaba's 2023 GPU-sharing trace (openb_pod_list_default.csv,
# https://github.com/alibaba/clusterdata, cluster-trace-gpu-v2023) against the schedule
# the cluster recorded (scheduled_time - creation_time), twice: as it replays with no
# start-up latency, then with the start-up latency learnt from the trace's own waits.
#
#   1. gcsim trace fit ... --startup-latency-out: the recorded waits of the GPU pods
#      (every wait, queueing included: an upper bound of the latency).
#   2. gcsim validate --trace: the GPU pods (min_gpus=1) on openb-gpu-nodes.json, the
#      trace's 1,213 GPU nodes written by `gcsim trace cluster` from
#      openb_node_list_gpu_node.csv (G2 and G3, undisclosed models, at 15 TFLOP/s; run
#      times are kept as recorded on every type, duration=recorded), under fifo.
#
# Nothing is downloaded: give the folder holding the trace's csv files.
#
# Usage: scenarios/replay-score/score-openb.sh TRACE_DIR [OUT] [STARTUP_SEED]
#        (defaults: out/score-openb, 0; GCSIM=path/to/gcsim overrides build/app/gcsim)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
trace_dir="${1:?usage: score-openb.sh TRACE_DIR [OUT] [STARTUP_SEED]}"
out="${2:-out/score-openb}"
seed="${3:-0}"
gcsim="${GCSIM:-$here/../../build/app/gcsim}"
pods="$trace_dir/openb_pod_list_default.csv"
map="id=name,submit=creation_time,start=scheduled_time,end=deletion_time,gpus=num_gpu,share=gpu_milli:milli"
map+=",cpu=cpu_milli:millicores,memory=memory_mib:MiB,gpu_types=gpu_spec,qos=qos"
mkdir -p "$out"

"$gcsim" trace fit "$pods" --format csv --map "$map" --min-gpus 1 --gpu-type G2 \
  --out "$out/generator.json" --startup-latency-out "$out/startup-latency.txt" >/dev/null

score() {
  "$gcsim" validate --trace "csv:$pods" --cluster "$here/openb-gpu-nodes.json" --policy fifo \
    --trace-opt "map=$map" --trace-opt gpu_type=G2 --trace-opt duration=recorded --trace-opt min_gpus=1 \
    --quiet "$@"
}
score --out "$out/no-latency"
score --out "$out/fitted-latency" --startup-latency "empirical:$out/startup-latency.txt" --startup-seed "$seed"
for run in no-latency fitted-latency; do
  echo "== $run"
  grep -A2 '^| set' "$out/$run/score.md"
done
