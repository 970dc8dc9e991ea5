// input_pipeline.hpp: how fast a training job's CPU cores feed its GPUs.
//
// On a node holding k of a job's g GPUs, the job's input pipeline decodes
// and augments k x samples_per_gpu samples per iteration
// (TrainingWork::input_pipeline), each core at core_samples_per_s: with c
// cores that takes d = k x samples_per_gpu / (c x core_samples_per_s)
// seconds, while each GPU computes for t = FLOPs / FLOP/s. The pipeline
// prefetches into a buffer while the GPUs compute, so an iteration's
// computation ends when both sides have: max(t, d) on the slowest node, then
// the exchange, as on synthetic data. Prefetching during the exchange is not
// modelled: the closed form stays the simulation's, and it understates the
// pipeline's speed by at most the exchange time.
//
// The cores: every node's cores are one pool its jobs' pipelines share, as
// flows share a link (SimGrid's solver decides), in proportion to their GPUs
// on the node. A job that asks for cores (JobSpec::cpu_cores, split over its
// GPUs: cpu_cores x k / g on that node) is held to them, as a container's
// CPU limit holds it; one that asks none may use every core the others leave.
// So a pipeline alone on a node with its ask decodes with exactly those
// cores, and other jobs' pipelines on the node slow it only when the node's
// cores run short (which only pipelines that asked for none can cause: the
// placement never gives a node more asked cores than it has).
// Source: Horovod's benchmarks (docs/benchmarks.rst) run on synthetic data,
// which leaves the input pipeline out, and on real data, which adds it; the
// gap between the two is the pipeline's cost, and it grows as the cores per
// GPU fall.
//
//   std::vector<NodeDecoding> nodes = node_decoding(job, gpus, layout);
//   Time d = decode_seconds_alone(nodes, layout);  // per iteration, the slowest node
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/job_spec.hpp"

namespace gcsim {

/// What a job's pipeline decodes on one of its nodes.
struct NodeDecoding {
  NodeId node = 0;
  std::uint32_t gpus = 0;                 // the job's GPUs on the node
  double cores_asked = 0;                 // cpu_cores x gpus / g; 0: none asked
  double core_seconds_per_iteration = 0;  // gpus x samples_per_gpu / core_samples_per_s
};

/// The nodes of a placement (GPUs in any order), in order of their first GPU;
/// empty when the job has no input pipeline.
std::vector<NodeDecoding> node_decoding(const JobSpec& job, const std::vector<GpuId>& gpus,
                                        const ClusterLayout& layout);

/// The cores a pipeline decodes with on a node when nothing else decodes
/// there: its ask (capped at the node's cores), or all of them.
double cores_alone(const NodeDecoding& node, double node_cores);

/// Seconds the slowest node takes to decode one iteration's samples when
/// nothing else decodes on the job's nodes; 0 without nodes.
Time decode_seconds_alone(const std::vector<NodeDecoding>& nodes, const ClusterLayout& layout);

/// The same on a packed placement on nodes of `group`: its fullest node
/// holds min(g, gpus_per_node) of the job's GPUs.
Time packed_decode_seconds(const JobSpec& job, const NodeGroup& group);

}  // namespace gcsim
