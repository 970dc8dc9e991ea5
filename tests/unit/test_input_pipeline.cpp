// How a job's input pipeline is split over its nodes and how long it takes
// alone, counted by hand on crafted placements.
#include "sim/model/input_pipeline.hpp"

#include <gtest/gtest.h>

namespace gcsim {
namespace {

// Two nodes of 4 GPUs and 12 cores each.
ClusterSpec two_nodes() {
  ClusterSpec spec;
  spec.name = "two";
  spec.gpu_types = {{"GPU", 1e12, 32e9}};
  NodeGroup group;
  group.name = "n";
  group.count = 2;
  group.gpus_per_node = 4;
  group.gpu_type = "GPU";
  group.cpu_cores = 12;
  group.memory_bytes = 256e9;
  group.intra = {100e9, 2e-6};
  group.nic = {10e9, 5e-6};
  spec.node_groups = {group};
  return spec;
}

JobSpec pipelined(std::uint32_t gpus, std::uint32_t cores, double samples, double rate) {
  JobSpec job;
  job.gpus = gpus;
  job.cpu_cores = cores;
  TrainingWork work;
  work.flops_per_iteration = 1e12;
  work.iterations = 10;
  work.input_pipeline = {samples, rate};
  job.work = work;
  return job;
}

TEST(NodeDecoding, SplitsTheSamplesAndTheAskedCoresByGpusPerNode) {
  const ClusterSpec spec = two_nodes();
  const ClusterLayout layout(spec);
  // GPUs 5, 0, 6, 7: one on node 0, three on node 1; 8 cores asked in all.
  const std::vector<NodeDecoding> nodes = node_decoding(pipelined(4, 8, 32, 4), {5, 0, 6, 7}, layout);
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].node, 1u);
  EXPECT_EQ(nodes[0].gpus, 3u);
  EXPECT_DOUBLE_EQ(nodes[0].cores_asked, 6);
  EXPECT_DOUBLE_EQ(nodes[0].core_seconds_per_iteration, 3 * 32 / 4.0);
  EXPECT_EQ(nodes[1].node, 0u);
  EXPECT_EQ(nodes[1].gpus, 1u);
  EXPECT_DOUBLE_EQ(nodes[1].cores_asked, 2);
  // Each node decodes 24 or 8 core-seconds with 6 or 2 cores: 4 s either way.
  EXPECT_DOUBLE_EQ(decode_seconds_alone(nodes, layout), 4);
}

TEST(NodeDecoding, WithoutAnAskAPipelineHasTheWholeNode) {
  const ClusterSpec spec = two_nodes();
  const ClusterLayout layout(spec);
  const std::vector<NodeDecoding> nodes = node_decoding(pipelined(3, 0, 32, 4), {0, 1, 4}, layout);
  // Node 0: 2 GPUs, 16 core-seconds on 12 cores; node 1: 8 on 12.
  EXPECT_DOUBLE_EQ(decode_seconds_alone(nodes, layout), 16 / 12.0);
  // An ask beyond the node's cores is capped at them.
  EXPECT_DOUBLE_EQ(cores_alone({0, 2, 30, 16}, 12), 12);
}

TEST(NodeDecoding, SyntheticDataHasNoPipeline) {
  const ClusterSpec spec = two_nodes();
  const ClusterLayout layout(spec);
  EXPECT_TRUE(node_decoding(pipelined(2, 4, 0, 0), {0, 1}, layout).empty());
  EXPECT_DOUBLE_EQ(packed_decode_seconds(pipelined(2, 4, 0, 0), spec.node_groups[0]), 0);
}

TEST(PackedDecode, TheFullestNodeSetsThePace) {
  const NodeGroup group = two_nodes().node_groups[0];
  // 6 GPUs packed 4 + 2 with no ask: 4 x 30 samples at 5/s on 12 cores.
  EXPECT_DOUBLE_EQ(packed_decode_seconds(pipelined(6, 0, 30, 5), group), 4 * 30 / (12 * 5.0));
  // Asking 3 cores: 2 on the node of 4 GPUs... 4 x 30 / (2 x 5).
  EXPECT_DOUBLE_EQ(packed_decode_seconds(pipelined(6, 3, 30, 5), group), 4 * 30 / (2 * 5.0));
}

}  // namespace
}  // namespace gcsim
