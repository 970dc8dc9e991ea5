#!/usr/bin/env bash
# The PAI simulator side by side (scripts/pai-side-by-side.sh) without the
# simulator: the converter on a six-job CSV in the simulator's input format
# (tests/support/pai_sim_jobs.csv) gives the jobs it would draw, their
# arrival times from the arrival rate, GPU counts and shares, cores and
# durations, and a cluster gcsim runs; the script refuses a missing checkout
# or input CSV, naming the path.
# usage: test_pai_side_by_side.sh SOURCE_DIR [GCSIM]
set -euo pipefail
source_dir="$1"
gcsim="${2:-}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }
python=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null; then python=$candidate; break; fi
done
[ -n "$python" ] || fail "no python3"
convert="$source_dir/scripts/pai_sim_convert.py"
jobs_csv="$source_dir/tests/support/pai_sim_jobs.csv"

# All six jobs, two per minute, on 16 GPUs.
"$python" "$convert" --csv "$jobs_csv" --jobs 6 --arrival-rate 2 --gpus 16 \
  --workload-out "$scratch/w.json" --cluster-out "$scratch/c.json" >"$scratch/out.txt" 2>&1 ||
  fail "the converter failed: $(cat "$scratch/out.txt")"
"$python" - "$scratch/w.json" "$scratch/c.json" <<'PY' || fail "the six-job workload is not what the simulator runs"
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
cluster = json.load(open(sys.argv[2]))
got = [(j["id"], j["submit"], j["gpus"], j.get("gpu_share", 1), j.get("cpu_cores", 0), j["duration"]["seconds"])
       for j in jobs]
# (submit_time, job_id) order, two a minute; then (arrival, job_id).
want = [("4", 0, 4, 1, 16, 3600),      # 2 instances x 2 GPUs, 8 cores each
        ("9", 0, 1, 0.01, 2, 1),       # no GPU: the smallest share; duration 0 becomes 1
        ("12", 60, 1, 1, 1, 600),
        ("25", 60, 16, 1, 96, 7200),   # 20 GPUs cut to the node's 16
        ("17", 120, 1, 0.5, 7, 12),    # half a GPU; 6.5 cores round up; 12.7 s truncated
        ("30", 120, 2, 0.75, 4, 45)]   # 1.5 GPUs: two GPUs at 0.75
for g, w in zip(got, want):
    if g != w:
        sys.exit("job %s: got %s, want %s" % (w[0], g, w))
if len(got) != len(want):
    sys.exit("got %d jobs, want %d" % (len(got), len(want)))
if any(j["duration"]["gpu_type"] != "V100" or j["duration"].get("rescale") is not False for j in jobs):
    sys.exit("durations are not measured on the cluster's type, unscaled")
group = cluster["node_groups"][0]
if (group["count"], group["gpus_per_node"], group["cpu_cores"]) != (1, 16, 372):
    sys.exit("cluster: %s" % group)
PY

# Three of the six: the simulator's draw (seed 42) keeps jobs 30, 4 and 9.
"$python" "$convert" --csv "$jobs_csv" --jobs 3 --arrival-rate 1 --gpus 16 \
  --workload-out "$scratch/w3.json" --cluster-out "$scratch/c3.json" >/dev/null 2>&1 || fail "the 3-job conversion failed"
"$python" - "$scratch/w3.json" <<'PY' || fail "the 3-job draw differs from the simulator's"
import json, sys
got = [(j["id"], j["submit"]) for j in json.load(open(sys.argv[1]))["jobs"]]
if got != [("4", 0), ("9", 60), ("30", 120)]:
    sys.exit("got %s" % got)
PY

# gcsim reads what the converter wrote, and gang finishes every job.
if [ -n "$gcsim" ] && [ -x "$gcsim" ]; then
  "$gcsim" run --cluster "$scratch/c.json" --workload "$scratch/w.json" --policy gang --out "$scratch/run" --quiet \
    >"$scratch/run.txt" 2>&1 || fail "gcsim refused the converted workload: $(cat "$scratch/run.txt")"
  [ "$(grep -c ',finished,' "$scratch/run/jobs.csv")" -eq 6 ] || fail "gcsim did not finish the six jobs"
fi

# The script: a missing checkout, a checkout without simulator.py, a missing CSV.
script="$source_dir/scripts/pai-side-by-side.sh"
expect_refusal() {  # expect_refusal TEXT ARGS...: exit 2 and a message holding TEXT
  local text=$1 status
  shift
  set +e
  "$script" "$@" >"$scratch/err.txt" 2>&1
  status=$?
  set -e
  [ "$status" -eq 2 ] || fail "'$*' exited $status, want 2: $(cat "$scratch/err.txt")"
  grep -qF -- "$text" "$scratch/err.txt" || fail "'$*' did not say '$text': $(cat "$scratch/err.txt")"
}
expect_refusal "--pai-sim is required"
expect_refusal "no PAI simulator checkout at $scratch/absent" --pai-sim "$scratch/absent"
mkdir -p "$scratch/checkout"
expect_refusal "$scratch/checkout/simulator.py is missing" --pai-sim "$scratch/checkout"
touch "$scratch/checkout/simulator.py"
expect_refusal "no input CSV at $scratch/checkout/traces/pai/pai_job_no_estimate_100K.csv" --pai-sim "$scratch/checkout"
expect_refusal "no input CSV at $scratch/none.csv" --pai-sim "$scratch/checkout" --csv "$scratch/none.csv"
expect_refusal "--jobs must be a positive integer" --pai-sim "$scratch/checkout" --jobs x
echo "pai side by side: converter and refusals as expected"
