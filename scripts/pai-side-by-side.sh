#!/usr/bin/env bash
# gcsim side by side with Alibaba's PAI simulator (github.com/alibaba/clusterdata,
# cluster-trace-gpu-v2020/simulator): the same jobs on the same pooled cluster,
# each run timed as a whole process, metrics and JCTs compared job by job.
#
# 1. scripts/pai_sim_convert.py turns the simulator's input CSV into a gcsim
#    workload (the N jobs it draws, the arrival times it gives them: R per
#    minute, their GPUs, cores and run times) and a gcsim cluster of one node
#    of G GPUs and round(23.22 x G) cores, as its run_simulator.py sets up.
# 2. scripts/pai_sim_drive.py runs the simulator's FIFO and SJF from the
#    checkout given (its files are imported, not changed).
# 3. gcsim run: gang (first fit in arrival order, skipping jobs that do not
#    fit: the simulator's FIFO), srtf with preemptive=false (its SJF; srtf
#    does not share GPUs, so fractional jobs get whole GPUs there) and fifo
#    (head-of-line blocking, for reference).
# 4. scripts/pai_sim_compare.py prints the table: wall times and their ratio,
#    average JCT, average wait and makespan of both, JCTs job by job, and why
#    the figures differ where they do.
#
# Nothing is downloaded. Needs a checkout of the simulator folder holding its
# input CSV, a Python 3 that imports numpy and matplotlib (the simulator
# imports both) and a built gcsim.
#
# Usage: scripts/pai-side-by-side.sh --pai-sim DIR [--csv FILE] [--jobs N]
#            [--arrival-rate R] [--gpus G] [--gcsim PATH] [--out OUT]
#            [--python PATH] [--whole-gpus]
# (defaults: DIR/traces/pai/pai_job_no_estimate_100K.csv, 20000, 1000, 6500,
#  build/app/gcsim, out/pai-side-by-side). --whole-gpus rounds every job up
# to whole GPUs (a job asking none gets one) and whole cores in a copy of the
# CSV that both simulators read, so both see the same integer demands.
# Writes OUT/report.md (the table), OUT/report.json, OUT/inputs (the gcsim
# workload and cluster), OUT/pai-{fifo,sjf} and OUT/gcsim-{gang,srtf,fifo}
# (each run's summary and jobs); built in a temporary folder and renamed
# into place when everything has run.
# Exit status: 0 done, 1 a run failed, 2 bad arguments or a missing input.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

pai_sim="" csv="" jobs=20000 rate=1000 gpus=6500 gcsim="$root/build/app/gcsim"
out="$root/out/pai-side-by-side" python="" whole=0
usage() { sed -n '2,35p' "$0" | sed 's/^# \{0,1\}//'; }
while (($#)); do
  case "$1" in
    --pai-sim) pai_sim=${2:?--pai-sim needs a folder}; shift 2 ;;
    --csv) csv=${2:?--csv needs a file}; shift 2 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    --arrival-rate) rate=${2:?--arrival-rate needs a number}; shift 2 ;;
    --gpus) gpus=${2:?--gpus needs a number}; shift 2 ;;
    --gcsim) gcsim=${2:?--gcsim needs a path}; shift 2 ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --python) python=${2:?--python needs a path}; shift 2 ;;
    --whole-gpus) whole=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "pai-side-by-side: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
die() { echo "pai-side-by-side: $*" >&2; exit 2; }
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs must be a positive integer, not '$jobs'"
[[ $rate =~ ^[1-9][0-9]*$ ]] || die "--arrival-rate must be a positive integer (jobs per minute), not '$rate'"
[[ $gpus =~ ^[1-9][0-9]*$ ]] || die "--gpus must be a positive integer, not '$gpus'"
[ -n "$pai_sim" ] || die "--pai-sim is required: a checkout of cluster-trace-gpu-v2020/simulator of github.com/alibaba/clusterdata"
[ -d "$pai_sim" ] || die "no PAI simulator checkout at $pai_sim (folder missing)"
[ -f "$pai_sim/simulator.py" ] || die "no PAI simulator at $pai_sim: $pai_sim/simulator.py is missing (give the cluster-trace-gpu-v2020/simulator folder)"
pai_sim="$(cd "$pai_sim" && pwd)"
[ -n "$csv" ] || csv="$pai_sim/traces/pai/pai_job_no_estimate_100K.csv"
[ -f "$csv" ] || die "no input CSV at $csv (the PAI simulator's traces/pai/*.csv, kept out of its repository's history; give one with --csv)"
csv="$(cd "$(dirname "$csv")" && pwd)/$(basename "$csv")"
[ -x "$gcsim" ] || die "no gcsim executable at $gcsim (build it: scripts/build.sh, or give --gcsim)"
gcsim="$(cd "$(dirname "$gcsim")" && pwd)/$(basename "$gcsim")"

# A Python that imports numpy and matplotlib, as the simulator does.
candidates=("/usr/bin/python3" "$(command -v python3 || true)" "$(command -v python || true)")
[ -n "$python" ] && candidates=("$python")
chosen=""
for candidate in "${candidates[@]}"; do
  [ -n "$candidate" ] && [ -x "$candidate" ] || continue
  if MPLBACKEND=Agg "$candidate" -c 'import numpy, matplotlib' >/dev/null 2>&1; then chosen=$candidate; break; fi
done
[ -n "$chosen" ] || die "no Python 3 that imports numpy and matplotlib (tried: ${candidates[*]}); install them (Debian: apt-get install python3-numpy python3-matplotlib) or give --python"
python=$chosen
export MPLBACKEND=Agg PYTHONDONTWRITEBYTECODE=1  # no display, and nothing written into the checkout

mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
work="$(mktemp -d "$(dirname "$out")/.$(basename "$out").XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/inputs"

source_csv=$csv
if ((whole)); then
  "$python" - "$csv" "$work/inputs/whole-gpus.csv" <<'PY'
import csv, math, sys
with open(sys.argv[1], newline="") as src, open(sys.argv[2], "w", newline="") as dst:
    reader = csv.DictReader(src)
    writer = csv.DictWriter(dst, fieldnames=reader.fieldnames)
    writer.writeheader()
    for row in reader:
        gpu = float(row.get("num_gpu") or 0)
        row["num_gpu"] = str(max(1, math.ceil(gpu)))
        row["num_cpu"] = str(math.ceil(float(row.get("num_cpu") or 0)))
        writer.writerow(row)
PY
  csv="$work/inputs/whole-gpus.csv"
fi
input_text="$source_csv"
((whole)) && input_text="$source_csv, rounded up to whole GPUs and cores (inputs/whole-gpus.csv)"

echo "pai-side-by-side: $jobs jobs, $rate per minute, $gpus GPUs; input $input_text; Python $python"
"$python" "$root/scripts/pai_sim_convert.py" --csv "$csv" --jobs "$jobs" --arrival-rate "$rate" --gpus "$gpus" \
  --workload-out "$work/inputs/workload.json" --cluster-out "$work/inputs/cluster.json" \
  --order-out "$work/inputs/arrivals.csv"

now() { date +%s.%N; }
elapsed() { "$python" -c "import sys; print('%.3f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$1" "$2"; }
declare -A wall
# timed NAME COMMAND...: runs it, its output in $work/NAME.log, its wall seconds in wall[NAME]
timed() {
  local name=$1 start end
  shift
  start=$(now)
  if ! "$@" >"$work/$name.log" 2>&1; then
    echo "pai-side-by-side: the $name run failed; its output:" >&2
    tail -20 "$work/$name.log" >&2
    exit 1
  fi
  end=$(now)
  wall[$name]=$(elapsed "$start" "$end")
  printf '  %-12s %10s s\n' "$name" "${wall[$name]}"
}

pai() {
  timed "pai-$1" "$python" "$root/scripts/pai_sim_drive.py" --pai-sim "$pai_sim" --csv "$csv" --policy "$1" \
    --jobs "$jobs" --arrival-rate "$rate" --gpus "$gpus" --out "$work/pai-$1"
}
gcsim_run() {
  local name=$1
  shift
  timed "gcsim-$name" "$gcsim" run --cluster "$work/inputs/cluster.json" --workload "$work/inputs/workload.json" \
    --out "$work/gcsim-$name" --quiet "$@"
}

echo "wall time of each run (whole process):"
pai fifo
pai sjf
gcsim_run gang --policy gang
srtf_whole=()
whole_pairs=()
if grep -q '"gpu_share"' "$work/inputs/workload.json"; then srtf_whole=(--whole-gpus); whole_pairs=(--whole-gpus sjf-srtf); fi
gcsim_run srtf --policy srtf --policy-opt preemptive=false "${srtf_whole[@]}"
gcsim_run fifo --policy fifo

{
  echo "# gcsim and the PAI simulator side by side"
  echo
  echo "$jobs jobs from $input_text, $rate arriving per minute, one pooled node of $gpus GPUs"
  echo "and $("$python" -c "print(round(23.22 * $gpus))") cores; $(uname -n), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "PAI simulator: $pai_sim. gcsim: $gcsim."
  echo
} >"$work/report.md"
"$python" "$root/scripts/pai_sim_compare.py" --workload "$work/inputs/workload.json" --out "$work/compare.md" \
  --arrivals "$work/inputs/arrivals.csv" \
  --pair "fifo-gang:$work/pai-fifo:$work/gcsim-gang:${wall[pai-fifo]}:${wall[gcsim-gang]}" \
  --pair "sjf-srtf:$work/pai-sjf:$work/gcsim-srtf:${wall[pai-sjf]}:${wall[gcsim-srtf]}" \
  --pair "fifo-fifo:$work/pai-fifo:$work/gcsim-fifo:${wall[pai-fifo]}:${wall[gcsim-fifo]}" \
  "${whole_pairs[@]}" | tee -a "$work/report.md"
mv "$work/compare.json" "$work/report.json"
rm -f "$work/compare.md"
{
  echo
  echo "Pairs: fifo-gang and sjf-srtf model the same policy (first fit in queue order, skipping"
  echo "jobs that do not fit; no preemption); fifo-fifo sets the PAI FIFO against gcsim's"
  echo "head-of-line-blocking fifo, a different policy, for reference."
} >>"$work/report.md"

# Into place: the previous results (if any) go only once the new ones are complete.
trap - EXIT
if [ -e "$out" ]; then mv "$out" "$work.old"; fi
mv "$work" "$out"
rm -rf "$work.old"
echo "pai-side-by-side: written to $out (report.md, report.json)"
