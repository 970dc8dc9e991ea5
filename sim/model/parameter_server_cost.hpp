// parameter_server_cost.hpp: where a parameter-server job's servers run and
// what one exchange of its gradients costs on an uncontended cluster.
//
// Data-parallel training with k parameter servers (TensorFlow's
// ParameterServerStrategy; a TFJob with ps replicas; Li et al., "Scaling
// Distributed Machine Learning with the Parameter Server", OSDI 2014): the
// S bytes of parameters are sharded over the k servers, S/k each. Every
// iteration each of the N workers computes, pushes to every server its
// gradients' shard (the push phase), and pulls every server's updated shard
// back (the pull phase); updates are synchronous, as in a TFJob run with
// SyncReplicasOptimizer. The servers run beside the workers, on the job's GPU
// hosts: server s on host floor(s * N / k) of the job's GPUs (in ring order),
// so they spread evenly over its nodes. A worker's shard for a server on its
// own host is a local copy: no transfer.
//
// Every flow of a phase starts at once (sim/model/job_links.hpp counts what
// each link carries); on an uncontended cluster the phase lasts its slowest
// flow's latency plus the time the busiest link takes to carry its bytes:
//   phase = max latency + max over links (bytes crossing the link / bandwidth)
// A server takes S/k from each worker on another node through its NIC in a
// push, (N - workers on its node) x S/k, and sends as much in a pull: the
// traffic concentrates on the servers' NICs, where a ring sends 2(N-1)/N x S
// per rank with no master. The pull phase is the push phase
// mirrored (every flow reversed, up and down links swapped, both directions
// of a link having one bandwidth), so both last the same.
//
//   JobLinks links = job_links(layout, gpus);
//   double seconds = parameter_server_phase_seconds_per_byte(links, 2) * gradient_bytes;
#pragma once

#include <cstdint>
#include <vector>

#include "sim/model/job_links.hpp"

namespace gcsim {

/// The job's GPU host (an index into its GPUs in ring order) that runs
/// server `server` of `servers`, for `workers` workers: floor(server x workers / servers).
std::uint32_t parameter_server_host(std::uint32_t server, std::uint32_t servers, std::uint32_t workers);

/// Every push of one iteration: each worker to each server not on its own
/// host (a pull is each of them reversed).
std::vector<Transfer> parameter_server_pushes(std::uint32_t workers, std::uint32_t servers);

/// Seconds one phase (push or pull) takes per byte of gradients on the
/// busiest link, latency aside: the phase's transfer time is this times S.
/// 0 when no flow crosses a link (one GPU, its servers all on its host).
double parameter_server_phase_seconds_per_byte(const JobLinks& links, std::uint32_t servers);

}  // namespace gcsim
