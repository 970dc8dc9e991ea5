// CpuDispatch: CPU-only jobs in line order, each on the first node that is up
// and has its cores and memory free, the cores held from GPU jobs meanwhile;
// a DAG of CPU workers over the first nodes that hold them; CPU nodes (no
// GPU) beside GPU nodes. Mostly two nodes of 2 GPUs, 32 cores and 256 GB each.
#include "sim/engine/cpu_dispatch.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/node_fit.hpp"
#include "sim/core/plan.hpp"
#include "sim/state/scheduler_state.hpp"
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

// A DAG of `workers` CPU workers, each running one task of 1 s.
JobSpec cpu_dag(const std::string& id, std::uint32_t workers, std::uint32_t cores = 0, double memory = 0) {
  JobSpec spec;
  spec.id = id;
  spec.gpus = 0;
  spec.cpu_cores = std::max(cores, workers);
  spec.memory_bytes = memory;
  DagWork dag;
  dag.pools = {DagPool{"w", workers, true}};
  for (std::uint32_t t = 0; t < workers; ++t) dag.tasks.push_back(DagTask{"t" + std::to_string(t), 0, 1, 0, {}});
  spec.work = dag;
  return spec;
}

class CpuDispatchTest : public ::testing::Test {
 protected:
  explicit CpuDispatchTest(std::vector<JobSpec> jobs = {}, ClusterSpec spec = two_nodes())
      : layout_(spec), jobs_(std::move(jobs)), state_(layout_, locality_, jobs_), dispatch_(jobs_) {}
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

// A DAG of CPU workers claims its cores per worker: its cpu_cores and
// memory split evenly over them, rounded up per node as GPU jobs' are.
TEST(CpuWorkers, ADagOfCpuPoolsIsOneWorkerPerCpuWorkerAndAnyOtherCpuJobOne) {
  EXPECT_TRUE(runs_on_cpu(cpu_dag("d", 84)));
  EXPECT_EQ(cpu_workers(cpu_dag("d", 84)), 84u);
  EXPECT_EQ(cpu_workers(cpu("c", 8, 10)), 1u);
  const JobSpec dag = cpu_dag("d", 3, 10, 1e9);  // 10 cores over 3 workers
  EXPECT_EQ(cpu_claim(dag, 1).millicores, 3334);
  EXPECT_EQ(cpu_claim(dag, 2).millicores, 6667);
  EXPECT_EQ(cpu_claim(dag, 3).millicores, 10000);
  EXPECT_EQ(cpu_claim(dag, 1).memory_bytes, 333333334);
  EXPECT_EQ(cpu_claim(cpu("c", 8, 10, 2e9), 1).millicores, 8000);
  EXPECT_EQ(cpu_claim(cpu("c", 8, 10, 2e9), 1).memory_bytes, 2000000000);
}

// Three CPU nodes of 28 cores: Ray's 84 workers on a CPU cluster.
ClusterSpec three_cpu_nodes() {
  ClusterSpec spec;
  spec.name = "ray";
  NodeGroup group = testing::crafted_node_group("cpu", 3, 0, "");
  group.cpu_cores = 28;
  spec.node_groups = {group};
  spec.fabric.nodes_per_rack = 3;
  return spec;
}

class CpuDag : public CpuDispatchTest {
 protected:
  // a: 10 cores for 100 s; dag: 84 workers of one core; b: 1 core for 10 s.
  CpuDag() : CpuDispatchTest({cpu("a", 10, 100), cpu_dag("dag", 84), cpu("b", 1, 10)}, three_cpu_nodes()) {}
};

TEST_F(CpuDag, ItsWorkersFillTheFirstNodesWithFreeCoresAndSpanAllThree) {
  dispatch_.submit(state_, 1, 0);
  EXPECT_EQ(dispatch_.dispatch(state_, 0), (Jobs{1}));
  const CpuPlacement expected = {{0, 28}, {1, 28}, {2, 28}};
  EXPECT_EQ(state_.cpu_job_placement(1), expected);
  EXPECT_EQ(state_.cpu_job_node(1), 0u);
  for (NodeId n = 0; n < 3; ++n) {
    EXPECT_EQ(state_.free_host(n).millicores, 0) << n;
    EXPECT_EQ(state_.cpu_jobs_on(n), (Jobs{1})) << n;
  }
  // It has no end of its own: its workers' last task ends it (finish()).
  EXPECT_EQ(dispatch_.next_end(), kNever);
  dispatch_.finish(state_, 1, 7);
  EXPECT_EQ(state_.runtime(1).state, JobState::kFinished);
  for (NodeId n = 0; n < 3; ++n) EXPECT_EQ(state_.free_host(n).millicores, 28000) << n;
}

TEST_F(CpuDag, ItWaitsHoldingNothingWhileTheCoresItNeedsAreTakenAndDoesNotHoldBackOthers) {
  dispatch_.submit(state_, 0, 0);  // a: 10 cores of n-0 from 2 to 102
  dispatch_.submit(state_, 1, 1);  // the DAG: 84 cores, 74 free
  dispatch_.submit(state_, 2, 2);  // b: 1 core from 2 to 12
  EXPECT_EQ(dispatch_.dispatch(state_, 2), (Jobs{0, 2}));
  EXPECT_EQ(state_.runtime(1).state, JobState::kWaiting);
  EXPECT_EQ(state_.cpu_job_node(2), 0u);  // b beside a: 17 cores left on n-0
  EXPECT_EQ(state_.free_host(1).millicores, 28000);
  dispatch_.finish_due(state_, 12);  // b ends
  EXPECT_EQ(dispatch_.dispatch(state_, 12), Jobs{});
  EXPECT_EQ(dispatch_.finish_due(state_, 101), Jobs{});
  EXPECT_EQ(dispatch_.finish_due(state_, 102), (Jobs{0}));  // a ends
  EXPECT_EQ(dispatch_.dispatch(state_, 102), (Jobs{1}));
  EXPECT_EQ(state_.cpu_job_placement(1), (CpuPlacement{{0, 28}, {1, 28}, {2, 28}}));
}

// single_node: all its workers on the first node that holds them all.
class SingleNodeCpuDag : public CpuDispatchTest {
 protected:
  static JobSpec pinned() {
    JobSpec dag = cpu_dag("pinned", 4);
    dag.single_node = true;
    return dag;
  }
  SingleNodeCpuDag() : CpuDispatchTest({cpu("a", 26, 100), pinned()}, three_cpu_nodes()) {}
};

TEST_F(SingleNodeCpuDag, TakesTheFirstNodeThatHoldsAllItsWorkers) {
  dispatch_.submit(state_, 0, 0);  // 2 cores left on n-0
  dispatch_.submit(state_, 1, 0);
  EXPECT_EQ(dispatch_.dispatch(state_, 0), (Jobs{0, 1}));
  EXPECT_EQ(state_.cpu_job_placement(1), (CpuPlacement{{1, 4}}));
}

TEST_F(CpuDag, ANodeFailureStopsItOnEveryNodeItHolds) {
  dispatch_.submit(state_, 1, 0);
  dispatch_.dispatch(state_, 0);
  EXPECT_EQ(dispatch_.stop_on_node(state_, 2), (Jobs{1}));
  for (NodeId n = 0; n < 3; ++n) EXPECT_EQ(state_.free_host(n).millicores, 28000) << n;
  EXPECT_EQ(state_.runtime(1).state, JobState::kWaiting);
  EXPECT_EQ(state_.runtime(1).preemptions, 1u);
  state_.take_down(2);                               // the engine takes the node down after its jobs let go
  EXPECT_EQ(dispatch_.dispatch(state_, 1), Jobs{});  // 56 cores up, 84 needed
  state_.bring_up(2);
  EXPECT_EQ(dispatch_.dispatch(state_, 2), (Jobs{1}));
}

// A CPU node (no GPU) beside a GPU node, listed first: CPU jobs take the
// first node with their cores free, GPU jobs never see the CPU node.
ClusterSpec cpu_node_then_gpu_node() {
  ClusterSpec spec;
  spec.name = "mixed";
  spec.gpu_types = {GpuType{"g", 1e12, 16e9}};
  NodeGroup cpus = testing::crafted_node_group("c", 1, 0, "");
  cpus.cpu_cores = 8;
  spec.node_groups = {cpus, testing::crafted_node_group("n", 1, 2, "g")};
  spec.fabric.nodes_per_rack = 2;
  return spec;
}

class CpuNode : public CpuDispatchTest {
 protected:
  CpuNode() : CpuDispatchTest({cpu("a", 8, 10), cpu("b", 8, 10), gpu("g", 2, 4)}, cpu_node_then_gpu_node()) {}
};

TEST_F(CpuNode, HoldsCpuJobsAndNoGpuJob) {
  EXPECT_EQ(layout_.gpu_count(), 2u);
  EXPECT_EQ(state_.free_gpus_on_node(0), 0u);
  EXPECT_EQ(state_.free_gpu_count(), 2u);
  EXPECT_EQ(state_.host_room(jobs_[2], 0), 0u);  // no GPU to take there, whatever its cores
  dispatch_.submit(state_, 0, 0);
  dispatch_.submit(state_, 1, 0);
  EXPECT_EQ(dispatch_.dispatch(state_, 0), (Jobs{0, 1}));
  EXPECT_EQ(state_.cpu_job_node(0), 0u);  // the CPU node first
  EXPECT_EQ(state_.cpu_job_node(1), 1u);  // its 8 cores taken: the GPU node's
  EXPECT_EQ(state_.free_host(0).millicores, 0);
  EXPECT_EQ(state_.free_host(1).millicores, 24000);
}

TEST_F(CpuNode, ThatIsDownTakesNoCpuJobUntilItIsUp) {
  state_.take_down(0);
  EXPECT_FALSE(state_.cpu_job_fits(0, 0));
  dispatch_.submit(state_, 0, 0);
  EXPECT_EQ(dispatch_.dispatch(state_, 0), (Jobs{0}));
  EXPECT_EQ(state_.cpu_job_node(0), 1u);
  state_.bring_up(0);
  EXPECT_TRUE(state_.cpu_job_fits(1, 0));
}

}  // namespace
}  // namespace gcsim
