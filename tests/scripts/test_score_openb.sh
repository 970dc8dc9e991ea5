#!/usr/bin/env bash
# The bundled replay score of Alibaba's 2023 GPU-sharing trace
# (scenarios/replay-score/score-openb.sh) on four crafted pods in the trace's
# columns: the latency file holds the three GPU pods' recorded waits (0, 30
# and 60 s), and the replay without latency, where every pod starts at once on
# the 1,213 nodes, scores a mean wait of 0 against 30 and a KS distance of
# 2/3 (the simulated CDF is 1 at 0, the recorded 1/3).
# usage: test_score_openb.sh SOURCE_DIR GCSIM
set -euo pipefail
source_dir="$1"
export GCSIM="$2"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }
cat >"$scratch/openb_pod_list_default.csv" <<'CSV'
name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
p0,12000,16384,1,1000,,LS,Running,0,1000,0
p1,6000,12288,1,460,,LS,Running,100,900,130
p2,4000,8192,0,0,,BE,Running,200,500,200
p3,16000,32768,2,1000,V100M16|V100M32,LS,Succeeded,300,2300,360
CSV
bash "$source_dir/scenarios/replay-score/score-openb.sh" "$scratch" "$scratch/out" >"$scratch/log.txt" 2>&1 ||
  fail "the scenario failed: $(cat "$scratch/log.txt")"
[ "$(grep -v '^#' "$scratch/out/startup-latency.txt" | tr '\n' ' ')" = "0 30 60 " ] ||
  fail "the latency file is not the three GPU pods' waits: $(cat "$scratch/out/startup-latency.txt")"
grep -q '^| all | 3 | 0.0 | 30.0 | -100.0% |.* 0.667 |$' "$scratch/out/no-latency/score.md" ||
  fail "the score without latency is not the hand count: $(cat "$scratch/out/no-latency/score.md")"
[ -f "$scratch/out/fitted-latency/score.json" ] || fail "no score with the fitted latency"
echo "score-openb scenario: ok"
