// platform_builder.hpp: the cluster description as a SimGrid 3.32 platform.
//
// One zone holds the whole cluster (FabricZone, fabric_zone.hpp): one host per
// GPU (speed = the GPU's FLOP/s, one core), and the links of the cluster's
// fabric as sim/core/fabric_layout.hpp numbers them: a port per GPU, a NIC
// per node or per GPU, an uplink per leaf (per rack, or per rack and rail on
// a rail-optimized fabric) and per pod when the racks form several (a CPU
// node has no GPU host, only its NIC). The zone computes each route from
// the hosts' places when SimGrid asks for it (sim/core/fabric_route.hpp), so
// building costs time and memory linear in the GPUs: no route table, no
// route registered per pair. Every link is split-duplex (each direction has
// the full bandwidth and is shared by the flows going that way). Routes,
// which sim/topology's ClusterGraph follows link for link:
//   same node:  port(a) up, port(b) down
//   same rack:  port(a), NIC(a) up, NIC(b) down, port(b)
//   two racks:  port(a), NIC(a), uplink(rack a) up, uplink(rack b) down, NIC(b), port(b)
// and on a rail-optimized fabric: NIC(a), NIC(b) between GPUs of one rail
// and rack; NIC(a), uplink(a's leaf), [pod uplinks,] uplink(b's leaf),
// NIC(b) otherwise (or, with PXN, first port(a), port(relay)). A GPU port
// has the node's intra-node bandwidth and half its GPU-to-GPU latency; the
// switches are non-blocking crossbars. A node's CPU host is routed like a
// GPU without a port, through the node's first NIC.
//
// configure_network_model() must run before the platform is built: it sets the
// SimGrid model and factors from the cluster description.
//
//   configure_network_model(spec.network);
//   SimGridPlatform platform = build_platform(layout);
//   platform.gpu_hosts[g]->get_speed();
#pragma once

#include <vector>

#include "sim/core/cluster_layout.hpp"

namespace simgrid::s4u {
class Host;
}

namespace gcsim {

struct SimGridPlatform {
  std::vector<simgrid::s4u::Host*> gpu_hosts;  // indexed by GpuId
  // Indexed by NodeId, when asked for (always on a cluster of no GPU): a host
  // per node standing for its CPU cores, of speed one per core (an
  // execution's amount is core-seconds), where input pipelines decode
  // (sim/model/input_pipeline.hpp) and DAGs' CPU workers stand. Its route
  // crosses the node's NIC, and a GPU's port to reach that GPU (no port of its own).
  std::vector<simgrid::s4u::Host*> cpu_hosts;

  /// Where the scheduler and the actors that talk to it stand: the first
  /// GPU's host, or on a cluster of no GPU the first node's CPU host.
  simgrid::s4u::Host* control_host() const { return gpu_hosts.empty() ? cpu_hosts.front() : gpu_hosts.front(); }
};

void configure_network_model(const NetworkModelSpec& network);
/// With `cpu_hosts`, also a CPU host per node (a cluster of no GPU gets them anyway).
SimGridPlatform build_platform(const ClusterLayout& layout, bool cpu_hosts = false);

}  // namespace gcsim
