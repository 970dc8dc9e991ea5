// solo_transfers.hpp: which transfers of a PhasedWork phase can stand for
// others, so that the engine starts one flow where it would start many.
//
// A transfer is solo when every link it crosses is the job's alone and no
// other transfer of the phase crosses it in the same direction, or is an
// uplink nothing can fill (FabricLayout::never_full(): oversubscription 1),
// which never bounds a transfer whoever else crosses it. A GPU's port
// and its own NIC (a node with a NIC per GPU) are the job's when it holds
// the GPU whole, and with PXN, which relays a transfer through another GPU
// of the sender's node, when it holds the whole node; the NIC of a node's
// first GPU is not the job's where the nodes' CPU hosts are on the network
// (a job decodes its input or runs CPU workers on them), as a node's CPU
// host goes out through it.
// Nothing else then shares a solo transfer's links, whatever the other jobs
// do, so its time is a function of its bytes and its links' bandwidths and
// latencies alone, and solo transfers with the same bytes over links of the
// same figures, in the same order, end at the same instant: one flow stands
// for all of them. A tensor-parallel ring inside a node, a pipeline's send
// to the next stage on the same rail of the same leaf, an 8-GPU job's rings
// are solo, and so are the rings of a job across leaves whose uplinks are
// not oversubscribed; anything crossing an oversubscribed leaf or pod
// uplink or a node's shared NIC is not, nor is any transfer of a job on a fraction of its GPUs, or on a
// network with cross-traffic (acknowledgements flow back over the reverse
// direction).
//
// Why: SimGrid 3.32 pays, for each host-to-host transfer that ends, a walk
// over every such transfer in flight, so that flows alive for hours at job
// fidelity make a week of large jobs quadratic in its flows.
//
//   std::vector<std::vector<std::uint32_t>> stands_for = solo_stand_ins(layout, gpus, phase_flows);
//   // stands_for[e][t]: how many transfers exchange e's transfer t starts a flow for; 0: none
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/ids.hpp"
#include "sim/model/placement_costs.hpp"

namespace gcsim {

/// Per exchange of one phase, per transfer, how many transfers (itself
/// included) its flow stands for: 1 for a transfer that is not solo, the
/// group's size for the first solo transfer of a group, 0 for the others.
/// `gpus` are the job's GPUs in rank order; `gpu_share` its share of each;
/// `cpu_hosts_send`: whether the nodes' CPU hosts are on the network, going
/// out through each node's first NIC (without them that NIC is its GPU's).
std::vector<std::vector<std::uint32_t>> solo_stand_ins(const ClusterLayout& layout, const std::vector<GpuId>& gpus,
                                                       double gpu_share, const std::vector<ExchangeFlows>& exchanges,
                                                       bool cpu_hosts_send = true);

}  // namespace gcsim
