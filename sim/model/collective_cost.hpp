// collective_cost.hpp: the closed-form time of the collectives of
// large-model training, the bytes each rank sends, and NCCL's algorithm and
// bus bandwidths for them.
//
// n ranks each hold a buffer of S bytes (for reduce-scatter the input, for
// all-gather the output: the whole buffer, as nccl-tests sizes them) and
// exchange it over links of latency L and bandwidth B each way: the slowest
// edge of the group, as ring_allreduce_cost.hpp takes it. Alone on those
// links, with the algorithm each one names:
//   allreduce       ring: 2(n-1) steps of S/n        2(n-1) (L + S/(n B))   sends 2(n-1)/n S
//   reduce-scatter  ring: n-1 steps of S/n            (n-1) (L + S/(n B))   sends (n-1)/n S
//   all-gather      ring: n-1 steps of S/n            (n-1) (L + S/(n B))   sends (n-1)/n S
//   broadcast       pipelined chain from the root     (n-1) L + S/B         sends S
//   all-to-all      every pair at once, S/n each       L + (n-1) S/(n B)    sends (n-1)/n S
//   point-to-point  one message to one peer            L + S/B              sends S
// A broadcast cuts the buffer into chunks that follow one another down the
// chain (NCCL's ring broadcast): with fine chunks every link carries S once
// and the last rank hears the first chunk n-1 latencies after the root sent
// it; the (n-2) chunk times of filling the chain are left out. An
// all-to-all sends its n-1 pieces of S/n together, as NCCL groups its n-1
// sends and receives, so they share the rank's link and pay one latency; a
// schedule of n-1 pairwise rounds would pay n-1. A group of fewer than two
// ranks exchanges nothing and takes no time.
//
// nccl-tests (doc/PERFORMANCE.md) reports algbw = S / time and busbw =
// algbw x a factor per collective: 2(n-1)/n for allreduce, (n-1)/n for
// reduce-scatter, all-gather and all-to-all, 1 for broadcast and
// point-to-point. The factor makes busbw of every collective above equal B
// when latency is negligible, so it compares with the links' speed.
//
//   const CollectiveCost c = collective_cost(Collective::kAllGather, 8, 64e6, {2e-6, 150e9});
//   double busbw = bus_bandwidth(Collective::kAllGather, 8, 64e6, c.seconds);
#pragma once

#include <cstdint>

#include "sim/core/ids.hpp"

namespace gcsim {

enum class Collective { kAllreduce, kReduceScatter, kAllGather, kBroadcast, kAllToAll, kPointToPoint };

/// The collective's name as NCCL's API spells it: "allreduce", "reduce_scatter", ...
const char* collective_name(Collective kind);

/// The links a group's collective runs over: the latency (s) and bandwidth
/// (bytes/s, each way) of its slowest edge; an unbounded bandwidth (kNever)
/// costs nothing per byte.
struct GroupLink {
  double latency = 0;
  double bandwidth = kNever;
};

/// What one collective costs, alone on its links.
struct CollectiveCost {
  double seconds = 0;
  double bytes_sent_per_rank = 0;  // the most any rank sends (all send as much, but a broadcast's last rank)
};

/// One collective of `kind` among `ranks` ranks on a buffer of `buffer_bytes`
/// per rank (formulas in the file comment); nothing for fewer than two ranks.
CollectiveCost collective_cost(Collective kind, std::uint32_t ranks, double buffer_bytes, const GroupLink& link);

/// nccl-tests' busbw factor of `kind` among `ranks` ranks.
double bus_bandwidth_factor(Collective kind, std::uint32_t ranks);

/// nccl-tests' algbw: buffer_bytes / seconds; 0 for a collective that took no time (it moved nothing).
double algorithm_bandwidth(double buffer_bytes, double seconds);

/// nccl-tests' busbw: algbw x bus_bandwidth_factor(kind, ranks).
double bus_bandwidth(Collective kind, std::uint32_t ranks, double buffer_bytes, double seconds);

}  // namespace gcsim
