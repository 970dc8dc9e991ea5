// Every built-in placement keeps a job to one GPU type unless the job allows
// several (policies/kit/one_gpu_type.hpp): on a crafted cluster of two T4
// nodes and two A10 nodes in one rack, where packing or spreading a 6-GPU job
// would take GPUs of both types, each placement picks one type, the fastest
// that holds the whole job; a job no single type holds is not placed; a job
// listing both types, or allowing mixed types, may span them.
//
//   node 0  t4-0   GPUs 0..3    T4   65 TFLOP/s
//   node 1  t4-1   GPUs 4..7    T4
//   node 2  a10-0  GPUs 8..11   A10 125 TFLOP/s
//   node 3  a10-1  GPUs 12..15  A10
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policies/kit/one_gpu_type.hpp"
#include "policies/placement/pack_placement.hpp"
#include "policies/placement/spread_placement.hpp"
#include "policies/placement/topology_placement.hpp"
#include "tests/support/crafted_specs.hpp"
#include "tests/support/occupied_cluster.hpp"

namespace gcsim {
namespace {

using testing::crafted_node_group;
using testing::OccupiedCluster;
using Gpus = std::vector<GpuId>;

ClusterSpec t4_and_a10() {
  ClusterSpec spec;
  spec.name = "t4-and-a10";
  spec.gpu_types = {GpuType{"T4", 65e12, 16e9}, GpuType{"A10", 125e12, 24e9}};
  spec.node_groups = {crafted_node_group("t4", 2, 4, "T4"), crafted_node_group("a10", 2, 4, "A10")};
  spec.fabric.nodes_per_rack = 4;  // one rack: nothing but the types keeps a job apart
  spec.fabric.oversubscription = 1.0;
  spec.fabric.uplink_latency = 1e-6;
  return spec;
}

JobSpec job_of(std::uint32_t gpus) {
  JobSpec job;
  job.id = "placed";
  job.gpus = gpus;
  return job;
}

// The names of the GPU types among `gpus`.
std::set<std::string> types_of(const ClusterLayout& layout, const Gpus& gpus) {
  std::set<std::string> types;
  for (GpuId g : gpus) types.insert(layout.gpu_type_of(g).name);
  return types;
}

std::unique_ptr<PlacementPolicy> make(const std::string& name) {
  if (name == "pack") return std::make_unique<PackPlacement>();
  if (name == "spread") return std::make_unique<SpreadPlacement>();
  return std::make_unique<TopologyPlacement>();
}

class OneGpuType : public ::testing::TestWithParam<std::string> {
 protected:
  std::optional<Gpus> place(const OccupiedCluster& c, const JobSpec& job) const {
    return make(GetParam())->place(job, c.view(), {});
  }
};

TEST_P(OneGpuType, AJobTheTypesTogetherWouldHoldGoesOnTheFastestTypeAlone) {
  const OccupiedCluster c(t4_and_a10(), {});
  const auto gpus = place(c, job_of(6));
  ASSERT_TRUE(gpus);
  EXPECT_EQ(gpus->size(), 6u);
  EXPECT_EQ(types_of(c.layout(), *gpus), (std::set<std::string>{"A10"}));
}

TEST_P(OneGpuType, WhenTheFastestTypeLacksRoomASlowerOneHoldsTheJob) {
  const OccupiedCluster c(t4_and_a10(), {{8, 9, 10}});  // 5 A10 GPUs free, 8 T4
  const auto gpus = place(c, job_of(6));
  ASSERT_TRUE(gpus);
  EXPECT_EQ(gpus->size(), 6u);
  EXPECT_EQ(types_of(c.layout(), *gpus), (std::set<std::string>{"T4"}));
}

TEST_P(OneGpuType, AJobNoSingleTypeHoldsIsNotPlaced) {
  const OccupiedCluster c(t4_and_a10(), {});
  EXPECT_FALSE(place(c, job_of(10)));  // 16 GPUs free, 8 of each type
}

TEST_P(OneGpuType, AJobListingBothTypesMaySpanThem) {
  const OccupiedCluster c(t4_and_a10(), {});
  JobSpec job = job_of(10);
  job.gpu_types = {"T4", "A10"};
  const auto gpus = place(c, job);
  ASSERT_TRUE(gpus);
  EXPECT_EQ(gpus->size(), 10u);
  EXPECT_EQ(types_of(c.layout(), *gpus), (std::set<std::string>{"T4", "A10"}));
}

TEST_P(OneGpuType, AJobAllowingMixedTypesMaySpanThem) {
  const OccupiedCluster c(t4_and_a10(), {});
  JobSpec job = job_of(10);
  job.mixed_gpu_types = true;
  const auto gpus = place(c, job);
  ASSERT_TRUE(gpus);
  EXPECT_EQ(gpus->size(), 10u);
}

TEST_P(OneGpuType, AFractionalJobSharesGpusOfOneType) {
  // Node 0 full and node 1 with 3 free GPUs: the fullest nodes first would
  // give the job node 1's 3 T4s, then A10s.
  const OccupiedCluster c(t4_and_a10(), {{0, 1, 2, 3, 4}});
  JobSpec job = job_of(6);
  job.gpu_share = 0.5;
  const auto gpus = place(c, job);
  ASSERT_TRUE(gpus);
  EXPECT_EQ(gpus->size(), 6u);
  EXPECT_EQ(types_of(c.layout(), *gpus), (std::set<std::string>{"A10"}));
}

INSTANTIATE_TEST_SUITE_P(BuiltinPlacements, OneGpuType, ::testing::Values("pack", "spread", "topology"));

TEST(GpuTypesFastestFirst, ListsTheAllowedTypesByFlops) {
  const ClusterLayout layout(t4_and_a10());
  EXPECT_EQ(gpu_types_fastest_first(job_of(1), layout), (std::vector<std::uint32_t>{1, 0}));
  JobSpec t4_only = job_of(1);
  t4_only.gpu_types = {"T4"};
  EXPECT_EQ(gpu_types_fastest_first(t4_only, layout), (std::vector<std::uint32_t>{0}));
}

}  // namespace
}  // namespace gcsim
