// At most K jobs of an application on a node, as every built-in placement
// and policy keeps to it: with K = 1 pack, which would put a second instance
// on the fullest node, spreads it to another; a policy placing several
// instances in one call puts each on its own node; a node role keeps a job
// off nodes of another. Crafted clusters of 4-GPU nodes; counted by hand.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policies/placement/network_placement.hpp"
#include "policies/placement/pack_placement.hpp"
#include "policies/placement/spread_placement.hpp"
#include "policies/placement/topology_placement.hpp"
#include "policies/register_builtin.hpp"
#include "sim/core/policy_registry.hpp"
#include "tests/support/policy_bench.hpp"

namespace gcsim {
namespace {

using testing::measured_job;
using Gpus = std::vector<GpuId>;

JobSpec instance(const std::string& id, std::uint32_t gpus, std::uint32_t max_per_node, Time submit = 0) {
  JobSpec job = measured_job(id, gpus, submit);
  job.application = std::make_shared<const Application>(Application{"app", max_per_node});
  return job;
}

std::set<NodeId> nodes_of(const ClusterLayout& layout, const Gpus& gpus) {
  std::set<NodeId> nodes;
  for (GpuId g : gpus) nodes.insert(layout.node_of(g));
  return nodes;
}

// Two nodes of 4 GPUs; job 0 ("held", an instance of "app") holds GPU 0 of n-0,
// job 1 ("other", of no application) holds GPUs 4 and 5 of n-1: n-0 has 3
// GPUs free, n-1 2, so a best fit of one GPU is n-1 and of 3 GPUs n-0.
struct HeldInstance {
  testing::PolicyBench bench;
  explicit HeldInstance(std::uint32_t max_per_node)
      : bench(testing::crafted_cluster(2, 4), {instance("held", 1, max_per_node), measured_job("other", 2, 0)}) {
    bench.submit_all();
    Plan plan;
    plan.allocate(0, {0});
    plan.allocate(1, {4, 5});
    bench.apply(plan);
  }
};

TEST(AntiAffinityPlacement, PackPutsASecondInstanceOfKOneOnAnotherNodeThanTheFullestFit) {
  const HeldInstance c(1);
  const ClusterLayout& layout = c.bench.state().layout();
  // Without a limit, pack's best fit for 3 GPUs is n-0 (3 free, beside the instance).
  const auto unlimited = PackPlacement().place(instance("new", 3, 0), c.bench.state(), {});
  ASSERT_TRUE(unlimited);
  EXPECT_EQ(nodes_of(layout, *unlimited), std::set<NodeId>{0});
  // With K = 1, n-0 holds one already: n-1's 2 free GPUs cannot hold 3, so it does not fit now.
  EXPECT_FALSE(PackPlacement().place(instance("new", 3, 1), c.bench.state(), {}));
  // A 2-GPU instance goes to n-1.
  const auto two = PackPlacement().place(instance("new", 2, 1), c.bench.state(), {});
  ASSERT_TRUE(two);
  EXPECT_EQ(nodes_of(layout, *two), std::set<NodeId>{1});
  // With K = 2 the 3-GPU instance may join the first on n-0.
  const HeldInstance two_allowed(2);
  const auto beside = PackPlacement().place(instance("new", 3, 2), two_allowed.bench.state(), {});
  ASSERT_TRUE(beside);
  EXPECT_EQ(nodes_of(layout, *beside), std::set<NodeId>{0});
}

TEST(AntiAffinityPlacement, EveryPlacementKeepsASecondInstanceOfKOneOffTheNodeOfTheFirst) {
  const HeldInstance c(1);
  const ClusterLayout& layout = c.bench.state().layout();
  const JobSpec job = instance("new", 1, 1);
  const PackPlacement pack;
  const SpreadPlacement spread;
  const TopologyPlacement topology;
  const NetworkPlacement network;
  for (const PlacementPolicy* placement : std::vector<const PlacementPolicy*>{&pack, &spread, &topology, &network}) {
    SCOPED_TRACE(std::string(placement->name()));
    const auto gpus = placement->place(job, c.bench.state(), {});
    ASSERT_TRUE(gpus);
    EXPECT_EQ(nodes_of(layout, *gpus), std::set<NodeId>{1});
  }
}

TEST(AntiAffinityPlacement, AMultiNodeInstanceCountsOnEachNodeItHolds) {
  // big (6 GPUs, K = 1) spans n-0 and n-1 of three 4-GPU nodes; a 1-GPU instance then goes to n-2.
  testing::PolicyBench bench(testing::crafted_cluster(3, 4), {instance("big", 6, 1), instance("small", 1, 1)});
  bench.submit_all();
  Plan plan;
  plan.allocate(0, {0, 1, 2, 3, 4, 5});
  bench.apply(plan);
  const auto gpus = PackPlacement().place(bench.state().spec(1), bench.state(), {});
  ASSERT_TRUE(gpus);
  EXPECT_EQ(nodes_of(bench.state().layout(), *gpus), std::set<NodeId>{2});
}

TEST(AntiAffinityPlacement, EveryPolicyStartsAtMostKInstancesANodeInOneCall) {
  // Four 1-GPU instances of K = 1 on two 4-GPU nodes: two start, on two nodes;
  // the plan applies (the state would reject a third instance on a node).
  PolicyRegistry registry;
  register_builtin(registry);
  for (const char* name :
       {"fifo", "fifo-backfill", "gang", "drf", "srtf", "tiresias", "capacity", "piecemeal", "incremental", "crux"}) {
    SCOPED_TRACE(name);
    testing::PolicyBench bench(testing::crafted_cluster(2, 4),
                               {instance("a", 1, 1), instance("b", 1, 1), instance("c", 1, 1), instance("d", 1, 1)});
    bench.submit_all();
    const std::unique_ptr<SchedulingPolicy> policy = registry.make_policy(name, {});
    SchedulerState::Applied applied;
    ASSERT_NO_THROW(applied = bench.step(*policy));
    EXPECT_EQ(applied.started.size(), 2u);
    std::set<NodeId> nodes;
    for (JobIndex job : applied.started)
      for (NodeId node : nodes_of(bench.state().layout(), bench.state().runtime(job).gpus)) nodes.insert(node);
    EXPECT_EQ(nodes, (std::set<NodeId>{0, 1}));
  }
}

TEST(AntiAffinityPlacement, EveryPolicyKeepsAJobToNodesOfItsRole) {
  // n-0 (4 GPUs) has no role, h-0 (4 GPUs) is HN: a job asking HN runs on h-0
  // only, so of two 3-GPU HN jobs one starts, on h-0 (piecemeal, granting a
  // GPU at a time, gives each some of h-0's and starts neither).
  ClusterSpec spec = testing::crafted_cluster(1, 4);
  NodeGroup hn = testing::crafted_node_group("h", 1, 4, "GPU");
  hn.role = NodeRole::kGpuNode;
  spec.node_groups.push_back(hn);
  spec.fabric.nodes_per_rack = 2;
  JobSpec a = measured_job("a", 3, 0), b = measured_job("b", 3, 0);
  a.role = b.role = NodeRole::kGpuNode;
  PolicyRegistry registry;
  register_builtin(registry);
  for (const char* name :
       {"fifo", "fifo-backfill", "gang", "drf", "srtf", "tiresias", "capacity", "piecemeal", "incremental", "crux"}) {
    SCOPED_TRACE(name);
    testing::PolicyBench bench(spec, {a, b});
    bench.submit_all();
    const std::unique_ptr<SchedulingPolicy> policy = registry.make_policy(name, {});
    SchedulerState::Applied applied;
    ASSERT_NO_THROW(applied = bench.step(*policy));
    EXPECT_EQ(applied.started.size(), std::string(name) == "piecemeal" ? 0u : 1u);
    std::set<NodeId> nodes;
    for (JobIndex job : {0u, 1u})
      for (NodeId node : nodes_of(bench.state().layout(), bench.state().runtime(job).gpus)) nodes.insert(node);
    EXPECT_EQ(nodes, std::set<NodeId>{1});
  }
}

}  // namespace
}  // namespace gcsim
