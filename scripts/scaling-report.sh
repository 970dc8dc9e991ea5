#!/usr/bin/env bash
# Wall time and peak memory of `gcsim run` against job count and GPU count.
#
# Job sweep: 1k, 10k, 100k, 1M synthetic jobs (`gcsim synth`, 5 s mean gap)
# on the Philly VC cluster (scenarios/clusters/philly-vcs.json, 2,816 GPUs).
# GPU sweep: generated clusters of 512, 2k, 5k, 10k and 20k GPUs (DGX-like
# 8-GPU nodes, the node group of philly-vcs.json; written to a temp dir), each
# running 10k jobs whose gap (5 s x 2816 / GPUs) offers it the Philly load.
# LLM week: --llm-jobs large-model training jobs (default 1,000; 0 skips it)
# over a week on the 16,384-GPU H100 rail cluster
# (scenarios/clusters/h100-rails-16k-gpu.json) at job fidelity, written by
# scripts/make_llm_load_week.py (seed 1), one row of sweep "llm-week".
# Each run is capped (--cap, default 120 s, with `timeout`); once a size hits
# the cap the larger sizes of that sweep are recorded as skipped.
#
# Writes DIR/scaling.csv (one row per run: sweep, jobs, gpus, mean gap,
# policy, status ok|capped|failed|skipped, wall and CPU seconds, peak RSS,
# the cap) and, with a Python that imports matplotlib, the log-log plots
# DIR/scaling_jobs.png and DIR/scaling_gpus.png (scripts/plot_scaling.py).
#
# Usage: scripts/scaling-report.sh [--out DIR] [--gcsim PATH] [--policy P]
#            [--max-jobs N] [--max-gpus N] [--sweep-jobs N] [--llm-jobs N] [--cap SECONDS]
# (defaults: docs/scaling, build/app/gcsim, fifo, 1000000, 20000, 10000, 1000, 120)
set -euo pipefail
cd "$(dirname "$0")/.."

out=docs/scaling gcsim=build/app/gcsim policy=fifo max_jobs=1000000 max_gpus=20000 sweep_jobs=10000 llm_jobs=1000 cap=120
while (($#)); do
  case "$1" in
    --out) out=$2 ;;
    --gcsim) gcsim=$2 ;;
    --policy) policy=$2 ;;
    --max-jobs) max_jobs=$2 ;;
    --max-gpus) max_gpus=$2 ;;
    --sweep-jobs) sweep_jobs=$2 ;;
    --llm-jobs) llm_jobs=$2 ;;
    --cap) cap=$2 ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scaling-report.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift 2
done
[ -x "$gcsim" ] || { echo "scaling-report.sh: no gcsim at $gcsim (build it: scripts/build.sh)" >&2; exit 1; }
[ -x /usr/bin/time ] || scripts/ensure-deps.sh
[ -x /usr/bin/time ] || { echo "scaling-report.sh: /usr/bin/time is missing (Debian package: time)" >&2; exit 1; }

philly=scenarios/clusters/philly-vcs.json
philly_gpus=2816
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
csv=$out/scaling.csv
echo "sweep,jobs,gpus,mean_interarrival_s,policy,status,wall_s,cpu_s,peak_rss_mb,cap_s" > "$csv"

# A generated cluster of $1 GPUs (8 per node, 16 nodes per rack) in $2.
write_cluster() {
  cat > "$2" <<JSON
{
  "name": "generated-$1gpu",
  "gpu_types": [{"name": "V100", "flops": "15.7TFLOPS", "memory": "32GB"}],
  "node_groups": [{
    "name": "dgx", "count": $(($1 / 8)), "gpus_per_node": 8, "gpu_type": "V100",
    "cpu_cores": 96, "memory": "512GB",
    "intra_node": {"kind": "nvlink", "bandwidth": "150GB/s", "latency": "2us"},
    "nic": {"bandwidth": "100Gbps", "latency": "5us"}
  }],
  "fabric": {"nodes_per_rack": 16, "oversubscription": 1.0, "uplink_latency": "1us"}
}
JSON
}

# One capped run: sweep, jobs, gpus, gap, cluster file[, workload]. Prints its status.
measure() {
  local sweep=$1 jobs=$2 gpus=$3 gap=$4 cluster=$5
  local workload=${6:-$work/w-$jobs-$gap.json} figures=$work/time.txt status=ok
  [ -f "$workload" ] ||
    "$gcsim" synth --jobs "$jobs" --mean-interarrival "$gap" --cluster "$cluster" --out "$workload" >/dev/null
  rm -rf "$work/run"
  local rc=0
  /usr/bin/time -f "%e %U %S %M" -o "$figures" timeout "$cap" \
    "$gcsim" run --cluster "$cluster" --workload "$workload" --policy "$policy" --out "$work/run" \
    --quiet --no-wall-time >/dev/null 2>"$work/stderr.txt" || rc=$?
  if ((rc == 124)); then status=capped; elif ((rc != 0)); then status=failed; fi
  # /usr/bin/time writes "Command exited with non-zero status N" before the figures.
  read -r wall user sys rss_kb < <(tail -n 1 "$figures")
  echo "$sweep,$jobs,$gpus,$gap,$policy,$status,$wall,$(awk "BEGIN{print $user+$sys}"),$(awk "BEGIN{print $rss_kb/1024}"),$cap" >> "$csv"
  echo "  $sweep: $jobs jobs on $gpus GPUs: $status, ${wall} s, $((rss_kb / 1024)) MB" >&2
  [ "$status" = failed ] && sed 's/^/    /' "$work/stderr.txt" | tail -n 5 >&2
  echo "$status"
}

skip() { echo "$1,$2,$3,$4,$policy,skipped,,,,$cap" >> "$csv"; }

echo "scaling-report.sh: job sweep on $philly ($philly_gpus GPUs), policy $policy, cap ${cap} s" >&2
stop=
for jobs in 1000 10000 100000 1000000; do
  ((jobs <= max_jobs)) || continue
  if [ -n "$stop" ]; then skip jobs "$jobs" "$philly_gpus" 5; continue; fi
  [ "$(measure jobs "$jobs" "$philly_gpus" 5 "$philly")" = ok ] || stop=1
done

echo "scaling-report.sh: GPU sweep, $sweep_jobs jobs at the Philly load" >&2
stop=
for gpus in 512 2000 5000 10000 20000; do
  ((gpus <= max_gpus)) || continue
  gap=$(awk "BEGIN{printf \"%.4g\", 5 * $philly_gpus / $gpus}")
  if [ -n "$stop" ]; then skip gpus "$sweep_jobs" "$gpus" "$gap"; continue; fi
  write_cluster "$gpus" "$work/cluster-$gpus.json"
  [ "$(measure gpus "$sweep_jobs" "$gpus" "$gap" "$work/cluster-$gpus.json")" = ok ] || stop=1
done

if ((llm_jobs > 0)); then
  rails=scenarios/clusters/h100-rails-16k-gpu.json
  echo "scaling-report.sh: $llm_jobs LLM jobs over a week on $rails at job fidelity" >&2
  scripts/make_llm_load_week.py --jobs "$llm_jobs" "$work/llm-week.json" 2>/dev/null
  measure llm-week "$llm_jobs" 16384 "$(awk "BEGIN{printf \"%.4g\", 7 * 86400 / $llm_jobs}")" "$rails" \
    "$work/llm-week.json" >/dev/null
fi

echo "scaling-report.sh: wrote $csv" >&2
python=${GCSIM_PYTHON:-}
for candidate in "$python" /usr/bin/python3 "$(command -v python3 || true)"; do
  if [ -n "$candidate" ] && "$candidate" -c "import matplotlib" 2>/dev/null; then python=$candidate; break; fi
  python=
done
if [ -z "$python" ]; then
  echo "scaling-report.sh: no plots: neither \$GCSIM_PYTHON, /usr/bin/python3 nor python3 on PATH imports matplotlib" \
       "(Debian: apt-get install python3-matplotlib)" >&2
  exit 0
fi
"$python" scripts/plot_scaling.py "$csv" "$out"
