// Per-node host resources: a job's cores and memory split over its GPUs,
// counted in whole millicores and bytes, claimed by the scheduler state, and
// a plan that oversubscribes a node, uses a GPU type the job does not allow
// or spreads a single-node job rejected. Every figure counted by hand.
#include "sim/core/node_fit.hpp"

#include <gtest/gtest.h>

#include "sim/state/scheduler_state.hpp"
#include "tests/support/crafted_specs.hpp"
#include "tests/support/flat_locality.hpp"

namespace gcsim {
namespace {

JobSpec job_of(const std::string& id, std::uint32_t gpus, std::uint32_t cores, double memory = 0) {
  JobSpec job;
  job.id = id;
  job.gpus = gpus;
  job.cpu_cores = cores;
  job.memory_bytes = memory;
  job.work = MeasuredWork{10, "V100"};
  return job;
}

// Two nodes of 4 V100s with 16 cores and 64 GB each.
ClusterLayout two_nodes() {
  ClusterSpec spec;
  spec.name = "two";
  spec.gpu_types = {{"V100", 15.7e12, 32e9}, {"K80", 4e12, 12e9}};
  NodeGroup group = testing::crafted_node_group("n", 2, 4, "V100");
  group.cpu_cores = 16;
  group.memory_bytes = 64e9;
  spec.node_groups = {group};
  spec.fabric.nodes_per_rack = 2;
  return ClusterLayout(spec);
}

TEST(NodeClaim, CoresAndMemoryAreSplitOverTheGpusAndRoundedUp) {
  const JobSpec job = job_of("j", 3, 10, 1e9);
  EXPECT_EQ(node_claim(job, 0).millicores, 0);
  EXPECT_EQ(node_claim(job, 1).millicores, 3334);   // 10000 / 3 = 3333.3
  EXPECT_EQ(node_claim(job, 2).millicores, 6667);   // 20000 / 3 = 6666.7
  EXPECT_EQ(node_claim(job, 3).millicores, 10000);  // the whole job, exactly
  EXPECT_EQ(node_claim(job, 1).memory_bytes, 333333334);
  EXPECT_EQ(node_claim(job, 3).memory_bytes, 1000000000);
}

TEST(NodeClaim, GpusThatFitFollowTheFreeCoresAndTheType) {
  const ClusterLayout layout = two_nodes();
  const JobSpec job = job_of("j", 4, 16);  // 4000 millicores per GPU
  EXPECT_EQ(gpus_that_fit(layout, job, 0, {16000, 64000000000}), std::numeric_limits<std::size_t>::max());
  EXPECT_EQ(gpus_that_fit(layout, job, 0, {11999, 64000000000}), 2u);
  EXPECT_EQ(gpus_that_fit(layout, job, 0, {3999, 64000000000}), 0u);
  JobSpec picky = job;
  picky.gpu_types = {"K80"};
  EXPECT_EQ(gpus_that_fit(layout, picky, 0, {16000, 64000000000}), 0u);
}

class NodeClaimsInTheState : public ::testing::Test {
 protected:
  ClusterLayout layout = two_nodes();
  testing::FlatLocality locality;
  std::vector<JobSpec> jobs{job_of("a", 1, 10), job_of("b", 1, 10), job_of("c", 2, 8, 40e9)};
  SchedulerState state{layout, locality, jobs};
  void SetUp() override {
    for (JobIndex j = 0; j < jobs.size(); ++j) state.submit(j);
  }
};

TEST_F(NodeClaimsInTheState, TwoTenCoreJobsOnASixteenCoreNodeAreRejected) {
  Plan plan;
  plan.allocate(0, {0});
  plan.allocate(1, {1});
  EXPECT_THROW(state.apply(plan, 0), PlanRejected);
  EXPECT_EQ(state.free_host(0).millicores, 16000);  // nothing changed

  Plan elsewhere;
  elsewhere.allocate(0, {0});
  elsewhere.allocate(1, {4});  // node 1
  state.apply(elsewhere, 0);
  EXPECT_EQ(state.free_host(0).millicores, 6000);
  EXPECT_EQ(state.free_host(1).millicores, 6000);
}

TEST_F(NodeClaimsInTheState, AClaimComesBackWhenTheJobEnds) {
  Plan plan;
  plan.allocate(2, {0, 4});  // 8 cores and 40 GB over two nodes: 4000 and 20 GB each
  state.apply(plan, 0);
  EXPECT_EQ(state.free_host(0).millicores, 12000);
  EXPECT_EQ(state.free_host(1).memory_bytes, 44000000000);
  state.finish(2, 10);
  EXPECT_EQ(state.free_host(0).millicores, 16000);
  EXPECT_EQ(state.free_host(1).memory_bytes, 64000000000);
}

TEST_F(NodeClaimsInTheState, APreemptionInThePlanFreesTheNodeForALaterAllocation) {
  Plan first;
  first.allocate(0, {0});
  state.apply(first, 0);
  Plan swap;
  swap.preempt(0);
  swap.allocate(1, {1});
  EXPECT_NO_THROW(state.apply(swap, 5));
  EXPECT_EQ(state.free_host(0).millicores, 6000);
}

TEST(NodeConstraints, TypesAndSingleNodeAreChecked) {
  const ClusterLayout layout = two_nodes();
  testing::FlatLocality locality;
  std::vector<JobSpec> jobs{job_of("picky", 1, 0), job_of("pod", 2, 0)};
  jobs[0].gpu_types = {"K80"};
  jobs[1].single_node = true;
  SchedulerState state(layout, locality, jobs);
  state.submit(0);
  state.submit(1);
  Plan wrong_type;
  wrong_type.allocate(0, {0});
  EXPECT_THROW(state.apply(wrong_type, 0), PlanRejected);
  Plan split;
  split.allocate(1, {3, 4});  // the last GPU of node 0 and the first of node 1
  EXPECT_THROW(state.apply(split, 0), PlanRejected);
  Plan together;
  together.allocate(1, {4, 5});
  EXPECT_NO_THROW(state.apply(together, 0));
}

}  // namespace
}  // namespace gcsim
