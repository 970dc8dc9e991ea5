#!/usr/bin/env bash
# validate.sh: runs the real microbenchmarks (real/), simulates the same
# situations, and writes the error per configuration.
#
#   scripts/validate.sh                      # about 2 minutes
#   scripts/validate.sh --strict             # exit 1 when an error bound is broken
#   scripts/validate.sh --ranks "2 3 4 5 6" --bytes 4KiB,1MiB,16MiB   # another sweep (longer)
#
# 1. Ring allreduce between network namespaces over tbf-shaped links
#    (scripts/real-allreduce.sh; needs root, skipped otherwise), by default
#    N = 2 and 4 (--ranks), 1, 4, 16 and 64 MiB (--bytes), 200 Mbit/s
#    (--rate). Each run's hop latency and ring-step goodput are measured on
#    its own connections; gcsim then simulates one training job
#    with N single-GPU nodes whose NICs have that goodput and half that
#    latency each (a ring edge crosses two NICs), gradient_bytes = S and
#    negligible compute, in iteration fidelity, and its time per iteration is
#    compared with the measured median. Also simulated with the nominal rate
#    instead of the measured goodput, and checked against the closed form
#    2(N-1)(alpha + S/(N B)).
# 2. The same allreduce over loopback (no shaping, CPU-bound; reported, not bounded).
# 3. The render farm's frame chain (10 frames x 3 elements) run with threads,
#    serial, parallel and pipelined, with 50 ms and 10 ms sleeping tasks and
#    50 ms spinning ones, against validation/renderfarm_sim (SimGrid) given
#    the executor's measured per-task overhead and wake-up latency.
#
# Writes validation/results.csv (experiment, configuration, reference,
# reference_kind, simulated, error_pct, bound_pct, within_bound) and
# validation/report.md; intermediate files go to out/validation/.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build"
work="$root/out/validation"
results="$root/validation/results.csv"
report="$root/validation/report.md"
rate="200mbit"
ranks_list="2 4"
sizes="1MiB,4MiB,16MiB,64MiB"
do_build=1
strict=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --results) results="$2"; shift 2 ;;
    --report) report="$2"; shift 2 ;;
    --rate) rate="$2"; shift 2 ;;
    --ranks) ranks_list="$2"; shift 2 ;;
    --bytes) sizes="$2"; shift 2 ;;
    --no-build) do_build=0; shift ;;
    --strict) strict=1; shift ;;
    -h|--help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "validate.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

if [ "$do_build" = 1 ]; then
  cmake -S "$root" -B "$build" >/dev/null
  cmake --build "$build" -j2 --target gcsim real_allreduce renderfarm renderfarm_sim >/dev/null
fi
gcsim="$build/sim/gcsim"
for tool in "$gcsim" "$build/real/real_allreduce" "$build/real/renderfarm" "$build/validation/renderfarm_sim"; do
  [ -x "$tool" ] || { echo "validate.sh: $tool is missing (run without --no-build)" >&2; exit 2; }
done

rm -rf "$work"
mkdir -p "$work" "$(dirname "$results")" "$(dirname "$report")"
started="$(date -u '+%Y-%m-%d %H:%M UTC')"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
steal_ticks() { awk '/^cpu /{print $9}' /proc/stat; }
total_ticks() { awk '/^cpu /{s = 0; for (i = 2; i <= NF; i++) s += $i; print s}' /proc/stat; }
t0=$SECONDS

# Rate like tc's: NUMBER with bit, kbit, mbit, gbit -> bytes per second.
rate_bytes_per_s() {
  awk -v r="$1" 'BEGIN {
    n = r + 0; u = tolower(substr(r, length(n "") + 1));
    f = u == "bit" ? 1 : u == "kbit" ? 1e3 : u == "mbit" ? 1e6 : u == "gbit" ? 1e9 : -1;
    if (f < 0) exit 1; printf "%.9g\n", n * f / 8 }'
}
nominal_Bps="$(rate_bytes_per_s "$rate")" || { echo "validate.sh: rate '$rate' is not NUMBER{bit,kbit,mbit,gbit}" >&2; exit 2; }

# Column VALUE of the first data row of a CSV whose header names it.
csv_column() {  # file column [row-filter-column row-filter-value]
  awk -F, -v col="$2" -v fcol="${3:-}" -v fval="${4:-}" '
    NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
    fcol == "" || $idx[fcol] == fval { print $idx[col]; exit }' "$1"
}

# gcsim's time per iteration for one allreduce configuration.
simulate_allreduce() {  # dir ranks bytes iterations bandwidth_Bps hop_latency_s
  local dir=$1 n=$2 bytes=$3 iters=$4 bw=$5 lat=$6
  mkdir -p "$dir"
  local nic_lat
  nic_lat="$(awk -v l="$lat" 'BEGIN { printf "%.9g", l / 2 }')"
  cat > "$dir/cluster.json" <<EOF
{
  "name": "ring-$n",
  "gpu_types": [{"name": "rank", "flops": 1e15, "memory": "1GB"}],
  "node_groups": [{"name": "rank", "count": $n, "gpus_per_node": 1, "gpu_type": "rank",
                   "cpu_cores": 1, "memory": "1GB",
                   "intra_node": {"kind": "pcie", "bandwidth": 1e15, "latency": 0},
                   "nic": {"bandwidth": $bw, "latency": $nic_lat}}]
}
EOF
  cat > "$dir/workload.json" <<EOF
{"jobs": [{"id": "allreduce", "submit": 0, "gpus": $n,
           "training": {"flops_per_iteration": 1, "gradient_bytes": $bytes, "iterations": $iters}}]}
EOF
  "$gcsim" run --cluster "$dir/cluster.json" --workload "$dir/workload.json" --policy fifo \
    --fidelity iteration --no-wall-time --out "$dir/out" > "$dir/gcsim.log"
  csv_column "$dir/out/jobs.csv" jct | awk -v k="$iters" '{ printf "%.9g\n", $1 / k }'
}

echo "experiment,configuration,reference,reference_kind,simulated,error_pct,bound_pct,within_bound" > "$results"
add_result() {  # experiment configuration reference kind simulated bound_pct(or empty)
  awk -v e="$1" -v c="$2" -v r="$3" -v k="$4" -v s="$5" -v b="$6" 'BEGIN {
    if (r == "" || s == "" || r + 0 == 0) {  # a run that produced no figure
      printf "%s,%s,%s,%s,%s,,%s,%s\n", e, c, r, k, s, b, b == "" ? "" : "no"; exit }
    err = (s - r) / r * 100; a = err < 0 ? -err : err;
    within = b == "" ? "" : (a <= b + 0 ? "yes" : "no");
    if (a < 5e-4) err = 0;
    printf "%s,%s,%.9g,%s,%.9g,%.3f,%s,%s\n", e, c, r, k, s, err, b, within }' >> "$results"
}
size_label() { awk -v b="$1" 'BEGIN { if (b >= 1048576 && b % 1048576 == 0) printf "%dMiB", b / 1048576; else printf "%dB", b }'; }

# Rows of an allreduce CSV (real_allreduce's columns), simulated.
compare_allreduce() {  # csv experiment with_nominal
  local csv=$1 experiment=$2 with_nominal=$3
  tail -n +2 "$csv" | while IFS=, read -r impl transport n bytes warmup iters t_med t_min t_max algbw busbw errors lat goodput; do
    local config dir sim bound=""
    config="N=$n S=$(size_label "$bytes")"
    dir="$work/sim/$experiment-$n-$bytes"
    if [ "$errors" != 0 ]; then
      echo "validate.sh: $experiment $config: $errors wrong elements in the real allreduce" >&2
    fi
    sim="$(simulate_allreduce "$dir" "$n" "$bytes" "$iters" "$goodput" "$lat")"
    if [ "$experiment" = allreduce-shaped ]; then
      if awk -v b="$bytes" 'BEGIN { exit !(b >= 16 * 1048576) }'; then bound=2
      elif awk -v b="$bytes" 'BEGIN { exit !(b >= 1048576 && b <= 4 * 1048576) }'; then bound=5; fi
    fi
    add_result "$experiment" "$config" "$t_med" measured "$sim" "$bound"
    local closed
    closed="$(awk -v n="$n" -v s="$bytes" -v a="$lat" -v b="$goodput" 'BEGIN { printf "%.9g", 2 * (n - 1) * (a + s / (n * b)) }')"
    add_result gcsim-vs-closed-form "$experiment $config" "$closed" closed-form "$sim" 0.1
    if [ "$with_nominal" = 1 ]; then
      sim="$(simulate_allreduce "$dir-nominal" "$n" "$bytes" "$iters" "$nominal_Bps" "$lat")"
      add_result "$experiment-nominal" "$config" "$t_med" measured "$sim" ""
    fi
  done
}

# 1. Shaped links between namespaces.
echo "validate.sh: [1/3] ring allreduce between network namespaces, links shaped to $rate"
shaped_note=""
steal0=$(steal_ticks); total0=$(total_ticks)
set +e
"$root/scripts/real-allreduce.sh" --build "$build" --rate "$rate" --ranks "$ranks_list" --bytes "$sizes" \
  --warmup 1 --iterations 5 --out "$work/allreduce-shaped.csv" 2> "$work/allreduce-shaped.log" | tee -a "$work/allreduce-shaped.log"
shaped_rc=${PIPESTATUS[0]}
set -e
steal_pct="$(awk -v s="$(( $(steal_ticks) - steal0 ))" -v t="$(( $(total_ticks) - total0 ))" 'BEGIN { printf "%.1f", (t > 0) ? 100 * s / t : 0 }')"
case "$shaped_rc" in
  0) compare_allreduce "$work/allreduce-shaped.csv" allreduce-shaped 1 ;;
  77) shaped_note="skipped: needs root and network namespaces" ;;
  *) shaped_note="failed (exit $shaped_rc), see out/validation/allreduce-shaped.log" ;;
esac
[ -n "$shaped_note" ] && echo "validate.sh: shaped allreduce $shaped_note"

# 2. Loopback.
echo "validate.sh: [2/3] ring allreduce over loopback"
for n in 2 4; do
  "$build/real/real_allreduce" local --ranks "$n" --bytes 1MiB,16MiB --warmup 1 --iterations 5 \
    --csv "$work/allreduce-loopback.csv" 2>> "$work/allreduce-loopback.log"
done
compare_allreduce "$work/allreduce-loopback.csv" allreduce-loopback 0

# 3. Render farm.
echo "validate.sh: [3/3] render farm, 10 frames x 3 elements"
farm_csv="$work/renderfarm.csv"
run_farm() {  # unit work label bound
  local unit=$1 work_kind=$2 label=$3 bound=$4
  "$build/real/renderfarm" --frames 10 --elements 3 --unit "$unit" --work "$work_kind" --repeat 3 \
    --csv "$work/renderfarm-$label.csv" 2>> "$work/renderfarm.log"
  tail -n +2 "$work/renderfarm-$label.csv" >> "$farm_csv"
  local overhead wake_up
  overhead="$(csv_column "$work/renderfarm-$label.csv" task_overhead_s)"
  wake_up="$(csv_column "$work/renderfarm-$label.csv" wake_up_s)"
  "$build/validation/renderfarm_sim" --frames 10 --elements 3 --unit "$unit" --overhead "$overhead" --wake-up "$wake_up" \
    > "$work/renderfarm-sim-$label.csv" 2>> "$work/renderfarm.log"
  for schedule in serial parallel pipelined; do
    add_result "renderfarm-$label" "$schedule" \
      "$(csv_column "$work/renderfarm-$label.csv" makespan_median_s schedule "$schedule")" measured \
      "$(csv_column "$work/renderfarm-sim-$label.csv" simulated_s schedule "$schedule")" "$bound"
  done
}
echo "schedule,frames,elements,element_workers,work,unit_s,task_overhead_s,wake_up_s,repeats,makespan_median_s,makespan_min_s,makespan_max_s,list_schedule_s,list_schedule_units" > "$farm_csv"
run_farm 0.05 sleep sleep-50ms 2
run_farm 0.01 sleep sleep-10ms 5
run_farm 0.05 spin spin-50ms ""
# The hand count: 1-unit tasks in the SimGrid model against the list schedule's count.
"$build/validation/renderfarm_sim" --frames 10 --elements 3 --unit 1 > "$work/renderfarm-sim-units.csv" 2>> "$work/renderfarm.log"
for schedule in serial parallel pipelined; do
  add_result renderfarm-units "$schedule" "$(csv_column "$work/renderfarm-sleep-50ms.csv" list_schedule_units schedule "$schedule")" \
    hand-count "$(csv_column "$work/renderfarm-sim-units.csv" simulated_s schedule "$schedule")" 0
done

elapsed=$((SECONDS - t0))
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

# Report.
broken="$(awk -F, 'NR > 1 && $8 == "no"' "$results" | wc -l)"
bounded="$(awk -F, 'NR > 1 && $8 != ""' "$results" | wc -l)"
{
  echo "# Validation: real runs against their simulation"
  echo
  echo "Generated by \`scripts/validate.sh\` on $started in ${elapsed} s: $(nproc) cores, Linux $(uname -r),"
  echo "load average $load_before before and $load_after after; CPU steal during the shaped allreduce: ${steal_pct}%."
  echo "error = (simulated - reference) / reference. $((bounded - broken)) of $bounded bounded rows within their bound."
  echo
  if [ -n "$shaped_note" ]; then
    echo "Shaped allreduce: $shaped_note."
    echo
  else
    echo "## Link calibration (shaped to $rate each way, nominal $(awk -v b="$nominal_Bps" 'BEGIN { printf "%.3f", b / 1e6 }') MB/s)"
    echo
    echo "| ranks | hop latency (us) | ring-step goodput (MB/s) | goodput / nominal | busbw at 64 MiB (MB/s) | busbw / goodput |"
    echo "|---:|---:|---:|---:|---:|---:|"
    awk -F, -v nom="$nominal_Bps" 'NR > 1 { lat[$3] = $13; gp[$3] = $14; if ($4 == 67108864) bus[$3] = $11 }
      END { for (n in lat) printf "| %s | %.1f | %.3f | %.1f%% | %s | %s |\n", n, lat[n] * 1e6, gp[n] / 1e6, 100 * gp[n] / nom,
            (n in bus) ? sprintf("%.3f", bus[n] / 1e6) : "", (n in bus) ? sprintf("%.1f%%", 100 * bus[n] / gp[n]) : "" }' \
      "$work/allreduce-shaped.csv" | sort -t'|' -k2n
    echo
  fi
  echo "## Render farm executor (measured before each set of runs)"
  echo
  echo "| tasks | per-task overhead (us) | wake-up latency (us) |"
  echo "|---|---:|---:|"
  awk -F, 'NR > 1 && !seen[$5 $6]++ { printf "| %s %g ms | %.1f | %.1f |\n", $5, $6 * 1e3, $7 * 1e6, $8 * 1e6 }' "$farm_csv"
  echo
  echo "## Results"
  echo
  echo "| experiment | configuration | reference | kind | simulated | error | bound | within |"
  echo "|---|---|---:|---|---:|---:|---:|---|"
  awk -F, 'NR > 1 { printf "| %s | %s | %.6g | %s | %.6g | %+.2f%% | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7 == "" ? "" : $7 "%", $8 }' "$results"
  echo
  echo "## Median |error| by experiment"
  echo
  echo "| experiment | rows | median abs error |"
  echo "|---|---:|---:|"
  awk -F, 'NR > 1 { a = $6 < 0 ? -$6 : $6; if (!($1 in n)) order[++k] = $1; v[$1, ++n[$1]] = a }
    END {
      for (e = 1; e <= k; e++) {
        name = order[e]; m = n[name]
        for (i = 1; i <= m; i++) s[i] = v[name, i]
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
        med = (m % 2) ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
        printf "| %s | %d | %.2f%% |\n", name, m, med + 0
      }
    }' "$results"
  echo
  echo "Raw figures: \`out/validation/\` (real CSVs, gcsim inputs and outputs, logs)."
} > "$report"

cat "$report"
echo "validate.sh: wrote $results and $report in ${elapsed} s"
if [ "$strict" = 1 ] && [ "$broken" -gt 0 ]; then
  echo "validate.sh: $broken of $bounded bounded rows outside their bound" >&2
  exit 1
fi
