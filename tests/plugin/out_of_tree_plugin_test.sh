#!/usr/bin/env bash
# Installs gcsim into a scratch prefix, checks that its headers hold the
# views a policy sees but not the engine's writable state, builds
# examples/policy_plugin against the installed headers as a separate CMake
# project, and runs the installed gcsim with the plugin's policy on a case
# whose answer is known by hand.
# Usage: out_of_tree_plugin_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null
# A plugin sees the read-only views and Plan, never the engine's writable state.
[ -f "$work/prefix/include/gcsim/sim/core/cluster_view.hpp" ] || { echo "the views are not installed"; exit 1; }
if find "$work/prefix" -name scheduler_state.hpp | grep -q .; then
  echo "the writable scheduler state is installed with the plugin headers"; exit 1
fi
cmake -S "$source/examples/policy_plugin" -B "$work/plugin" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/plugin" >/dev/null
plugin="$work/plugin/libsmallest_first.so"
gcsim="$work/prefix/bin/gcsim"

"$gcsim" policies --plugin "$plugin" | grep -q "smallest-first" || { echo "plugin policy not listed"; exit 1; }

cat >"$work/cluster.json" <<'JSON'
{"name": "four", "gpu_types": [{"name": "GPU", "flops": 1e12, "memory": 3.2e10}],
 "node_groups": [{"name": "n", "count": 1, "gpus_per_node": 4, "gpu_type": "GPU", "cpu_cores": 8, "memory": 6.4e10,
   "intra_node": {"kind": "pcie", "bandwidth": 1.6e10, "latency": 1e-5}, "nic": {"bandwidth": 1.25e10, "latency": 5e-6}}]}
JSON
# "first" holds all 4 GPUs until 10 s. "big" (4 GPUs, submitted at 1 s) and
# "small" (1 GPU, at 2 s) then wait; smallest-first starts small at 10 s,
# before big, which starts when small ends at 15 s. (fifo would run big first.)
cat >"$work/jobs.json" <<'JSON'
{"jobs": [
 {"id": "first", "submit": 0, "gpus": 4, "duration": {"seconds": 10, "gpu_type": "GPU"}},
 {"id": "big", "submit": 1, "gpus": 4, "duration": {"seconds": 20, "gpu_type": "GPU"}},
 {"id": "small", "submit": 2, "gpus": 1, "duration": {"seconds": 5, "gpu_type": "GPU"}}]}
JSON
"$gcsim" run --plugin "$plugin" --policy smallest-first --cluster "$work/cluster.json" --workload "$work/jobs.json" \
  --out "$work/out" --quiet

expect_times() {  # id start end
  row=$(grep "^$1," "$work/out/jobs.csv") || { echo "no row for $1"; exit 1; }
  start=$(cut -d, -f6 <<<"$row") end=$(cut -d, -f7 <<<"$row")
  [ "$start" = "$2" ] && [ "$end" = "$3" ] || { echo "$1: start $start end $end, expected $2 $3"; exit 1; }
}
expect_times first 0.000000 10.000000
expect_times small 10.000000 15.000000
expect_times big 15.000000 35.000000

# A library that is not a plugin is refused with a clear message.
if "$gcsim" run --plugin /nonexistent/libnothing.so --policy fifo --cluster "$work/cluster.json" \
     --workload "$work/jobs.json" --out "$work/bad" 2>"$work/err"; then
  echo "a missing plugin was accepted"; exit 1
fi
grep -q "cannot load plugin /nonexistent/libnothing.so" "$work/err" || { cat "$work/err"; exit 1; }
echo "out-of-tree plugin: 1 passed, 0 failed"
