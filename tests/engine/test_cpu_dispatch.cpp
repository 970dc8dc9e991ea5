// CpuDispatch: CPU-only jobs in line order, each on the first node that is up
// and has its cores and memory free, the cores held from GPU jobs meanwhile.
// Two nodes of 2 GPUs, 32 cores and 256 GB each.
#include "sim/engine/cpu_dispatch.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/plan.hpp"
#include "sim/core/scheduler_state.hpp"
#include "tests/support/crafted_specs.hpp"
#include "tests/support/flat_locality.hpp"

namespace gcsim {
namespace {

using Jobs = std::vector<JobIndex>;

ClusterSpec two_nodes() {
  ClusterSpec spec;
  spec.name = "two-nodes";
  spec.gpu_types = {GpuType{"g", 1e12, 16e9}};
  spec.node_groups = {testing::crafted_node_group("n", 2, 2, "g")};
  spec.fabric.nodes_per_rack = 2;
  return spec;
}

JobSpec cpu(const std::string& id, std::uint32_t cores, Time seconds, double memory = 0) {
  JobSpec spec;
  spec.id = id;
  spec.gpus = 0;
  spec.cpu_cores = cores;
  spec.memory_bytes = memory;
  spec.work = CpuWork{seconds};
  return spec;
}

JobSpec gpu(const std::string& id, std::uint32_t gpus, std::uint32_t cores) {
  JobSpec spec;
  spec.id = id;
  spec.gpus = gpus;
  spec.cpu_cores = cores;
  spec.work = MeasuredWork{10, "g"};
  return spec;
}

class CpuDispatchTest : public ::testing::Test {
 protected:
  explicit CpuDispatchTest(std::vector<JobSpec> jobs = {})
      : layout_(two_nodes()), jobs_(std::move(jobs)), state_(layout_, locality_, jobs_), dispatch_(jobs_) {}
  ClusterLayout layout_;
  testing::FlatLocality locality_;
  std::vector<JobSpec> jobs_;
  SchedulerState state_;
  CpuDispatch dispatch_;
};

class LineOrder : public CpuDispatchTest {
 protected:
  // Cores: a 20, b 20, c 30, d 12; nodes have 32.
  LineOrder() : CpuDispatchTest({cpu("a", 20, 100), cpu("b", 20, 50), cpu("c", 30, 10), cpu("d", 12, 10)}) {}
};

TEST_F(LineOrder, EachTakesTheFirstNodeWithItsCoresAndOneThatFitsNowhereHoldsBackNone) {
  for (JobIndex j = 0; j < 4; ++j) dispatch_.submit(state_, j, static_cast<Time>(j));
  // a: n-0 (12 left); b: n-1 (12 left); c (30) fits nowhere; d (12) fits n-0.
  EXPECT_EQ(dispatch_.dispatch(state_, 5), (Jobs{0, 1, 3}));
  EXPECT_EQ(state_.cpu_job_node(0), 0u);
  EXPECT_EQ(state_.cpu_job_node(1), 1u);
  EXPECT_EQ(state_.cpu_job_node(3), 0u);
  EXPECT_EQ(state_.free_host(0).millicores, 0);
  EXPECT_EQ(state_.free_host(1).millicores, 12000);
  EXPECT_EQ(state_.runtime(2).state, JobState::kWaiting);
  EXPECT_EQ(dispatch_.running(), 3u);
  EXPECT_DOUBLE_EQ(dispatch_.next_end(), 15);  // d: 5 + 10

  EXPECT_EQ(dispatch_.finish_due(state_, 15), (Jobs{3}));
  EXPECT_EQ(dispatch_.dispatch(state_, 15), Jobs{});  // c still fits nowhere: 12 free on each node
  EXPECT_EQ(dispatch_.finish_due(state_, 55), (Jobs{1}));
  EXPECT_EQ(dispatch_.dispatch(state_, 55), (Jobs{2}));
  EXPECT_EQ(state_.cpu_job_node(2), 1u);
  EXPECT_EQ(state_.runtime(1).state, JobState::kFinished);
  EXPECT_DOUBLE_EQ(state_.runtime(1).end, 55);
}

TEST_F(LineOrder, AFailedNodesJobsWaitAgainInTheirPlaceAndTheirOldEndsAreStale) {
  for (JobIndex j = 0; j < 2; ++j) dispatch_.submit(state_, j, 0);
  dispatch_.dispatch(state_, 0);
  EXPECT_EQ(dispatch_.stop_on_node(state_, 0), (Jobs{0}));
  EXPECT_EQ(state_.free_host(0).millicores, 32000);
  EXPECT_EQ(state_.runtime(0).preemptions, 1u);
  EXPECT_DOUBLE_EQ(dispatch_.next_end(), 50);  // a's end at 100 is gone
  EXPECT_EQ(dispatch_.dispatch(state_, 20), (Jobs{0}));
  EXPECT_EQ(dispatch_.finish_due(state_, 100), (Jobs{1}));  // a now ends at 120
  EXPECT_EQ(dispatch_.finish_due(state_, 120), (Jobs{0}));
}

class BesideGpuJobs : public CpuDispatchTest {
 protected:
  BesideGpuJobs() : CpuDispatchTest({gpu("g", 2, 24), cpu("c", 16, 10), gpu("h", 2, 20)}) {}
};

TEST_F(BesideGpuJobs, ACpuJobKeepsAGpuJobOffTheCoresItHolds) {
  state_.submit(0);
  Plan first;
  first.allocate(0, {0, 1});
  state_.apply(first, 0);  // g holds 24 of n-0's 32 cores
  dispatch_.submit(state_, 1, 0);
  EXPECT_EQ(dispatch_.dispatch(state_, 0), (Jobs{1}));
  EXPECT_EQ(state_.cpu_job_node(1), 1u);  // 8 left on n-0 is too few
  state_.submit(2);
  Plan second;
  second.allocate(2, {2, 3});  // h's 20 cores on n-1, where c holds 16 of 32
  EXPECT_THROW(state_.apply(second, 0), PlanRejected);
  dispatch_.finish_due(state_, 10);
  EXPECT_NO_THROW(state_.apply(second, 10));
}

}  // namespace
}  // namespace gcsim
