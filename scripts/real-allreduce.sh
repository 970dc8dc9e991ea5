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
# same connections. Then, where Open MPI and build/real/mpi_allreduce exist
# (--mpi auto, the default), Open MPI's MPI_Allreduce runs on the same
# namespaces and sizes (TCP transport only), its rows labelled mpi-allreduce.
# Last, where Open MPI and build/real/mpi_alltoall exist (--alltoall auto, the
# default), Open MPI's MPI_Alltoall of each size of --alltoall-bytes (default:
# --bytes) per rank, every block checked, its rows (alltoall_report.hpp) to
# --alltoall-out (default: alltoall.csv beside OUT).
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
# and their connections use CUBIC (--congestion: real_allreduce sets it on
# its sockets, the route between the ranks on every other connection, Open
# MPI's included): BBR, the default of some kernels, paces below a shaped
# link's rate in parts of its cycle (here some ring steps took 1.8 times as
# long, and MPI_Alltoall of 16 MiB on 3 ranks 8% longer than with CUBIC).
#
# Exit status: 0 done, 77 skipped (not root, or no network namespaces or tc),
# 1 a rank failed, 2 bad arguments, 3 wrong allreduce or all-to-all results.
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
mpi=auto
alltoall=auto
alltoall_bytes=""
alltoall_out=""

usage() {
  sed -n '2,39p' "$0" | sed 's/^# \{0,1\}//'
  echo "options: --build DIR --ranks \"2 4\" --bytes LIST --rate RATE --mtu BYTES --burst BYTES --congestion NAME --warmup W --iterations K --out FILE --mpi auto|yes|no"
  echo "         --alltoall auto|yes|no --alltoall-bytes LIST --alltoall-out FILE"
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
    --mpi) mpi="$2"; shift 2 ;;
    --alltoall) alltoall="$2"; shift 2 ;;
    --alltoall-bytes) alltoall_bytes="$2"; shift 2 ;;
    --alltoall-out) alltoall_out="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "real-allreduce.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done

tool="$build/real/real_allreduce"
mpi_tool="$build/real/mpi_allreduce"
alltoall_tool="$build/real/mpi_alltoall"
mpirun="$(command -v mpirun || true)"
if [ ! -x "$tool" ]; then
  echo "real-allreduce.sh: $tool not found; build it: cmake --build $build --target real_allreduce" >&2
  exit 2
fi

case "$mpi" in
  auto) if [ -x "$mpi_tool" ] && [ -n "$mpirun" ]; then mpi=1; else mpi=0; fi ;;
  yes) [ -x "$mpi_tool" ] && [ -n "$mpirun" ] || { echo "real-allreduce.sh: --mpi yes needs mpirun and $mpi_tool" >&2; exit 2; }
       mpi=1 ;;
  no) mpi=0 ;;
  *) echo "real-allreduce.sh: --mpi must be auto, yes or no" >&2; exit 2 ;;
esac
case "$alltoall" in
  auto) if [ -x "$alltoall_tool" ] && [ -n "$mpirun" ]; then alltoall=1; else alltoall=0
          echo "real-allreduce.sh: all-to-all skipped: needs mpirun and $alltoall_tool (Open MPI at configure time)"
        fi ;;
  yes) [ -x "$alltoall_tool" ] && [ -n "$mpirun" ] || { echo "real-allreduce.sh: --alltoall yes needs mpirun and $alltoall_tool" >&2; exit 2; }
       alltoall=1 ;;
  no) alltoall=0 ;;
  *) echo "real-allreduce.sh: --alltoall must be auto, yes or no" >&2; exit 2 ;;
esac
[ -n "$alltoall_bytes" ] || alltoall_bytes="$bytes"
[ -n "$alltoall_out" ] || alltoall_out="$(dirname "$out")/alltoall.csv"

# A size as real_allreduce reads it ("64MiB", "1MB", "4096") in bytes.
size_bytes() {
  awk -v s="$1" 'BEGIN {
    n = s + 0; u = substr(s, length(n "") + 1)
    f["B"] = 1; f[""] = 1; f["KB"] = 1e3; f["kB"] = 1e3; f["MB"] = 1e6; f["GB"] = 1e9
    f["KiB"] = 1024; f["MiB"] = 1048576; f["GiB"] = 1073741824
    if (!(u in f)) exit 1
    printf "%.0f\n", n * f[u] }' || { echo "real-allreduce.sh: bad size '$1'" >&2; exit 2; }
}
# Open MPI's all-to-all, pinned, each setting chosen because a measurement
# here showed the alternative going wrong:
# - pairwise exchange (coll_tuned algorithm 2): N-1 rounds in which rank r
#   sends S/N to r+k and receives from r-k, one flow on each link each way,
#   which on these full-duplex links takes what all blocks at once would;
# - every block sent eagerly (btl_tcp_eager_limit at least the largest S):
#   Open MPI's TCP transport carries both directions between two ranks on one
#   connection, and in its rendezvous protocol a rank's reply to the other's
#   request to send queues behind its own data on that connection, so two
#   ranks sending to each other at once (the middle round for even N, every
#   pair in the linear algorithm) sent one way and then the other: 2 ranks
#   exchanging 8 MiB took 0.69 s instead of 0.34 s.
eager=65536
for size in ${alltoall_bytes//,/ }; do
  b=$(size_bytes "$size")
  [ "$b" -gt "$eager" ] && eager=$b
done
alltoall_mpi_options=(--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_alltoall_algorithm 2
                      --mca btl_tcp_eager_limit "$eager" --mca btl_tcp_rndv_eager_limit "$eager")

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
  ip link del "${prefix}m" 2>/dev/null || true
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
    # Every connection on the shaped links uses CONGESTION, Open MPI's too,
    # which cannot choose it per socket as real_allreduce does.
    ip -n "$ns" route replace 10.77.0.0/24 dev "$a" proto kernel scope link src "10.77.0.$((i + 1))" \
      congctl "$congestion"
    # Upload (rank -> switch) and download (switch -> rank), each at RATE.
    tc -n "$ns" qdisc add dev "$a" root tbf rate "$rate" burst "$burst" latency 100ms
    tc -n "$sw" qdisc add dev "$b" root tbf rate "$rate" burst "$burst" latency 100ms
  done
  # Open MPI's ranks reach mpirun's PMIx server over TCP: an unshaped control
  # network 10.78.0.0/24 to the host; their data stays on 10.77.0.0/24.
  if [ "$mpi" = 1 ] || [ "$alltoall" = 1 ]; then
    ip link add "${prefix}m" type bridge
    ip addr add 10.78.0.254/24 dev "${prefix}m"
    ip link set "${prefix}m" up
    for ((i = 0; i < n; i++)); do
      ip link add "${prefix}c$i" type veth peer name "${prefix}d$i"
      ip link set "${prefix}d$i" netns "${prefix}r$i"
      ip link set "${prefix}c$i" master "${prefix}m"
      ip link set "${prefix}c$i" up
      ip -n "${prefix}r$i" addr add "10.78.0.$((i + 1))/24" dev "${prefix}d$i"
      ip -n "${prefix}r$i" link set "${prefix}d$i" up
    done
  fi
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
  # Open MPI's MPI_Allreduce on the same namespaces and links, side by side:
  # each rank enters its namespace before MPI_Init; TCP only (no shared memory).
  if [ "$status" -eq 0 ] && [ "$mpi" = 1 ]; then
    PMIX_MCA_ptl_tcp_remote_connections=1 PMIX_MCA_ptl_tcp_if_include=10.78.0.0/24 \
      nice -n -10 timeout 600 "$mpirun" --allow-run-as-root --mca pmix_server_remote_connections 1 --oversubscribe -np "$n" --mca pml ob1 --mca btl tcp,self \
      --mca btl_tcp_if_include 10.77.0.0/24 "$mpi_tool" --netns "${prefix}r" --label mpi-allreduce \
      --bytes "$bytes" --warmup "$warmup" --iterations "$iterations" --transport "netns-tbf-$rate" --csv "$out" \
      || { echo "real-allreduce.sh: MPI_Allreduce with $n ranks failed" >&2; status=1; }
  fi
  # Open MPI's MPI_Alltoall on the same namespaces and links (alltoall_mpi_options).
  if [ "$status" -eq 0 ] && [ "$alltoall" = 1 ]; then
    PMIX_MCA_ptl_tcp_remote_connections=1 PMIX_MCA_ptl_tcp_if_include=10.78.0.0/24 \
      nice -n -10 timeout 600 "$mpirun" --allow-run-as-root --mca pmix_server_remote_connections 1 --oversubscribe -np "$n" --mca pml ob1 --mca btl tcp,self \
      --mca btl_tcp_if_include 10.77.0.0/24 "${alltoall_mpi_options[@]}" "$alltoall_tool" --netns "${prefix}r" \
      --bytes "$alltoall_bytes" --warmup "$warmup" --iterations "$iterations" --drain-bytes "$burst" \
      --transport "netns-tbf-$rate" --csv "$alltoall_out" \
      || { rc=$?; echo "real-allreduce.sh: MPI_Alltoall with $n ranks failed (exit $rc)" >&2; status=$rc; }
  fi
  cleanup
  return "$status"
}

mkdir -p "$(dirname "$out")"
: > "$out"
if [ "$alltoall" = 1 ]; then mkdir -p "$(dirname "$alltoall_out")"; : > "$alltoall_out"; fi
echo "real-allreduce.sh: ranks {$ranks_list}, sizes $bytes, links shaped to $rate each way (tbf, burst $burst B, MTU $mtu, TCP $congestion); rows to $out"
for n in $ranks_list; do
  run_star "$n" || { rc=$?; echo "real-allreduce.sh: the run with $n ranks failed (exit $rc)" >&2; exit "$rc"; }
done
