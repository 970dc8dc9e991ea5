#include "sim/model/input_pipeline.hpp"

#include <algorithm>

#include "sim/core/work_forms.hpp"

namespace gcsim {
namespace {

NodeDecoding decoding_on(const JobSpec& job, const InputPipeline& pipeline, NodeId node, std::uint32_t gpus) {
  const double share = static_cast<double>(gpus) / static_cast<double>(job.gpus);
  return {node, gpus, static_cast<double>(job.cpu_cores) * share, pipeline.core_seconds(gpus)};
}

}  // namespace

std::vector<NodeDecoding> node_decoding(const JobSpec& job, const std::vector<GpuId>& gpus,
                                        const ClusterLayout& layout) {
  std::vector<NodeDecoding> nodes;
  const InputPipeline* pipeline = input_pipeline_of(job.work);
  if (!pipeline) return nodes;
  std::vector<std::pair<NodeId, std::uint32_t>> counts;  // a job spans few nodes: a short list
  for (GpuId g : gpus) {
    const NodeId node = layout.node_of(g);
    const auto at = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == node; });
    if (at == counts.end())
      counts.emplace_back(node, 1);
    else
      ++at->second;
  }
  for (const auto& [node, count] : counts) nodes.push_back(decoding_on(job, *pipeline, node, count));
  return nodes;
}

double cores_alone(const NodeDecoding& node, double node_cores) {
  return node.cores_asked > 0 ? std::min(node.cores_asked, node_cores) : node_cores;
}

Time decode_seconds_alone(const std::vector<NodeDecoding>& nodes, const ClusterLayout& layout) {
  Time slowest = 0;
  for (const NodeDecoding& node : nodes)
    slowest = std::max(slowest, node.core_seconds_per_iteration /
                                    cores_alone(node, static_cast<double>(layout.group_of_node(node.node).cpu_cores)));
  return slowest;
}

Time packed_decode_seconds(const JobSpec& job, const NodeGroup& group) {
  const InputPipeline* pipeline = input_pipeline_of(job.work);
  if (!pipeline) return 0;
  // Decoding takes longer on a node the more of the job's GPUs it holds.
  const std::uint32_t fullest = std::min(job.gpus, group.gpus_per_node);
  return decoding_on(job, *pipeline, 0, fullest).core_seconds_per_iteration /
         cores_alone(decoding_on(job, *pipeline, 0, fullest), static_cast<double>(group.cpu_cores));
}

}  // namespace gcsim
