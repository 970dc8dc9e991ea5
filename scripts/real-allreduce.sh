#!/usr/bin/env bash
# real-allreduce.sh: the real ring allreduce (build/real/real_allreduce), one
# rank per network namespace, every rank's link shaped with tc tbf.
#
#   sudo scripts/real-allreduce.sh --ranks "2 4" --bytes 1MiB,4MiB,16MiB,64MiB --rate 200mbit
#
# For each N it builds a star: a switch namespace holding a bridge, and N
# rank namespaces, each joined to the bridge by a veth pair whose two ends
# are shaped to RATE (the rank's upload and download, like a full-duplex NIC).
# Ranks are 10.77.0.1 .. 10.77.0.N inside these namespaces only; everything
# is removed on exit. Writes the CSV rows of real_allreduce (allreduce_report.hpp)
# to OUT, each row with the hop latency and ring-step goodput measured on the
# same connections.
#
# Frames are jumbo (MTU 9000 by default, --mtu): with 1500-byte frames,
# forwarding packets through the veths, the bridge and the shapers kept one
# of a 2-core machine's cores busy, a quarter of that with 9000-byte frames.
#
# Each token bucket holds 128 KiB (--burst BYTES), 5 ms at 200 Mbit/s: a
# shaper whose timer fires late (a loaded or virtual CPU) makes up for it
# within that credit instead of losing rate. The credit a bucket saves while
# its link is idle between two iterations is spent before each iteration by
# an untimed message of the same size (real_allreduce --drain-bytes), since
# a real link has no such credit. The shapers queue up to 100 ms of traffic.
# Ranks run at nice -10 so that other work on the machine delays them less,
# and their connections use CUBIC (--congestion): BBR, the default of some
# kernels, paces below a shaped link's rate in parts of its cycle (here some
# ring steps took 1.8 times as long).
#
# Exit status: 0 done, 77 skipped (not root, or no network namespaces or tc),
# 1 a rank failed, 2 bad arguments, 3 wrong allreduce results.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build"
ranks_list="2 4"
bytes="1MiB,4MiB,16MiB,64MiB"
rate="200mbit"
mtu=9000
burst=131072
congestion=cubic
warmup=1
iterations=5
out="$root/out/real-allreduce/allreduce.csv"

usage() {
  sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'
  echo "options: --build DIR --ranks \"2 4\" --bytes LIST --rate RATE --mtu BYTES --burst BYTES --congestion NAME --warmup W --iterations K --out FILE"
}
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --ranks) ranks_list="$2"; shift 2 ;;
    --bytes) bytes="$2"; shift 2 ;;
    --rate) rate="$2"; shift 2 ;;
    --mtu) mtu="$2"; shift 2 ;;
    --burst) burst="$2"; shift 2 ;;
    --congestion) congestion="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --iterations) iterations="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "real-allreduce.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done

tool="$build/real/real_allreduce"
if [ ! -x "$tool" ]; then
  echo "real-allreduce.sh: $tool not found; build it: cmake --build $build --target real_allreduce" >&2
  exit 2
fi

prefix="gcv$$"  # unique per run: names of namespaces and interfaces
skip() {
  echo "skipped: needs root and network namespaces ($1)"
  exit 77
}
[ "$(id -u)" = 0 ] || skip "not running as root"
command -v ip >/dev/null || skip "no 'ip' command"
command -v tc >/dev/null || skip "no 'tc' command"
ip netns add "${prefix}probe" 2>/dev/null || skip "'ip netns add' failed"
ip netns del "${prefix}probe"

namespaces=()
pids=()
cleanup() {
  for pid in "${pids[@]:-}"; do
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
  for ns in "${namespaces[@]:-}"; do
    [ -n "$ns" ] && ip netns del "$ns" 2>/dev/null || true
  done
  namespaces=()
  pids=()
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# One star of N ranks; sets up, runs the sweep, tears down.
run_star() {
  local n=$1 sw="${prefix}sw" i
  ip netns add "$sw"; namespaces+=("$sw")
  ip -n "$sw" link add br0 type bridge
  ip -n "$sw" link set br0 mtu "$mtu" up
  for ((i = 0; i < n; i++)); do
    local ns="${prefix}r$i" a="${prefix}a$i" b="${prefix}b$i"
    ip netns add "$ns"; namespaces+=("$ns")
    ip link add "$a" type veth peer name "$b"
    ip link set "$a" netns "$ns"
    ip link set "$b" netns "$sw"
    ip -n "$sw" link set "$b" master br0
    ip -n "$sw" link set "$b" mtu "$mtu" up
    ip -n "$ns" link set lo up
    ip -n "$ns" addr add "10.77.0.$((i + 1))/24" dev "$a"
    ip -n "$ns" link set "$a" mtu "$mtu" up
    # Upload (rank -> switch) and download (switch -> rank), each at RATE.
    tc -n "$ns" qdisc add dev "$a" root tbf rate "$rate" burst "$burst" latency 100ms
    tc -n "$sw" qdisc add dev "$b" root tbf rate "$rate" burst "$burst" latency 100ms
  done
  for ((i = 0; i < n; i++)); do
    local next=$(((i + 1) % n))
    ip netns exec "${prefix}r$i" nice -n -10 timeout 600 "$tool" rank --rank "$i" --ranks "$n" \
      --listen "10.77.0.$((i + 1)):5000" --next "10.77.0.$((next + 1)):5000" \
      --bytes "$bytes" --warmup "$warmup" --iterations "$iterations" \
      --drain-bytes "$burst" --congestion "$congestion" --transport "netns-tbf-$rate" --csv "$out" &
    pids+=($!)
  done
  local status=0 pid rc
  for pid in "${pids[@]}"; do
    rc=0
    wait "$pid" || rc=$?
    [ "$rc" -ne 0 ] && [ "$status" -eq 0 ] && status=$rc
  done
  pids=()
  cleanup
  return "$status"
}

mkdir -p "$(dirname "$out")"
: > "$out"
echo "real-allreduce.sh: ranks {$ranks_list}, sizes $bytes, links shaped to $rate each way (tbf, burst $burst B, MTU $mtu, TCP $congestion); rows to $out"
for n in $ranks_list; do
  run_star "$n" || { rc=$?; echo "real-allreduce.sh: the run with $n ranks failed (exit $rc)" >&2; exit "$rc"; }
done
