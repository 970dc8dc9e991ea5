// The Kubernetes placement constraints node_fit counts: a job's RDMA share
// (percent of an RNIC) and disk split over its GPUs like its cores, the node
// role it asks (CN, HN), and at most K jobs of its application on a node;
// the scheduler state counts them as jobs take and give back nodes and
// rejects a plan that breaks any. Crafted nodes; every figure counted by hand.
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/node_fit.hpp"
#include "sim/core/plan.hpp"
#include "sim/state/scheduler_state.hpp"
#include "tests/support/crafted_specs.hpp"
#include "tests/support/flat_locality.hpp"

namespace gcsim {
namespace {

JobSpec job_of(const std::string& id, std::uint32_t gpus) {
  JobSpec job;
  job.id = id;
  job.gpus = gpus;
  job.work = MeasuredWork{10, "V100"};
  return job;
}

JobSpec of_application(JobSpec job, const std::string& name, std::uint32_t max_per_node) {
  job.application = std::make_shared<const Application>(Application{name, max_per_node});
  return job;
}

// Group "h": 2 nodes (h-0, h-1) of 4 V100s, 2 RNICs and 1000 GB of disk each,
// role HN; group "c": 1 CPU node (c-0) of 64 cores, 1 RNIC, role CN.
ClusterLayout cluster() {
  ClusterSpec spec;
  spec.name = "roles";
  spec.gpu_types = {{"V100", 15.7e12, 32e9}};
  NodeGroup gpus = testing::crafted_node_group("h", 2, 4, "V100");
  gpus.rnics = 2;
  gpus.disk_bytes = 1000e9;
  gpus.role = NodeRole::kGpuNode;
  NodeGroup cpus = testing::crafted_node_group("c", 1, 0, "");
  cpus.cpu_cores = 64;
  cpus.rnics = 1;
  cpus.role = NodeRole::kCpuNode;
  spec.node_groups = {gpus, cpus};
  spec.fabric.nodes_per_rack = 3;
  return ClusterLayout(spec);
}

TEST(NodeCapacity, RnicsGiveAHundredPercentEachAndDiskItsBytes) {
  const ClusterLayout layout = cluster();
  EXPECT_EQ(node_capacity(layout, 0).rdma_percent, 200);
  EXPECT_EQ(node_capacity(layout, 0).disk_bytes, 1000000000000);
  EXPECT_EQ(node_capacity(layout, 2).rdma_percent, 100);
  EXPECT_EQ(node_capacity(layout, 2).disk_bytes, 0);
}

TEST(NodeClaim, RdmaAndDiskAreSplitOverTheGpusAndRoundedUp) {
  // 3 GPUs, 50 percent and 10 bytes: 1 GPU claims ceil(50/3) = 17 percent and
  // ceil(10/3) = 4 bytes; 2 GPUs ceil(100/3) = 34 and ceil(20/3) = 7; all 3 the whole.
  JobSpec job = job_of("j", 3);
  job.rdma_percent = 50;
  job.disk_bytes = 10;
  EXPECT_EQ(node_claim(job, 1).rdma_percent, 17);
  EXPECT_EQ(node_claim(job, 1).disk_bytes, 4);
  EXPECT_EQ(node_claim(job, 2).rdma_percent, 34);
  EXPECT_EQ(node_claim(job, 2).disk_bytes, 7);
  EXPECT_EQ(node_claim(job, 3).rdma_percent, 50);
  // Taking one GPU, then two more, claims what taking three at once does.
  EXPECT_EQ(node_claim(job, 1).rdma_percent + (node_claim(job, 3).rdma_percent - node_claim(job, 1).rdma_percent), 50);
}

TEST(NodeFit, RdmaLimitsTheGpusANodeTakes) {
  // 4 GPUs asking 400 percent: 100 per GPU; a node of 2 RNICs (200) takes 2.
  const ClusterLayout layout = cluster();
  JobSpec job = job_of("j", 4);
  job.rdma_percent = 400;
  EXPECT_EQ(gpus_that_fit(layout, job, 0, node_capacity(layout, 0)), 2u);
  // With 150 percent of it free, 1.
  NodeClaim free = node_capacity(layout, 0);
  free.rdma_percent = 150;
  EXPECT_EQ(gpus_that_fit(layout, job, 0, free), 1u);
}

TEST(NodeFit, DiskLimitsTheGpusANodeTakes) {
  // 2 GPUs asking 1500 GB: 750 GB each; a node of 1000 GB takes 1.
  const ClusterLayout layout = cluster();
  JobSpec job = job_of("j", 2);
  job.disk_bytes = 1500e9;
  EXPECT_EQ(gpus_that_fit(layout, job, 0, node_capacity(layout, 0)), 1u);
  job.disk_bytes = 1000e9;  // 500 GB each: both
  EXPECT_GT(gpus_that_fit(layout, job, 0, node_capacity(layout, 0)), 2u);
}

TEST(NodeFit, ANodeOfNoRnicTakesNoJobAskingRdma) {
  ClusterSpec spec;
  spec.name = "plain";
  spec.gpu_types = {{"V100", 15.7e12, 32e9}};
  spec.node_groups = {testing::crafted_node_group("n", 1, 4, "V100")};
  const ClusterLayout layout(spec);
  JobSpec job = job_of("j", 1);
  job.rdma_percent = 1;
  EXPECT_EQ(gpus_that_fit(layout, job, 0, node_capacity(layout, 0)), 0u);
}

TEST(NodeFit, AJobAskingARoleRunsOnlyOnNodesOfThatRole) {
  const ClusterLayout layout = cluster();
  JobSpec job = job_of("j", 1);
  job.role = NodeRole::kGpuNode;
  EXPECT_GT(gpus_that_fit(layout, job, 0, node_capacity(layout, 0)), 0u);
  job.role = NodeRole::kCpuNode;
  EXPECT_EQ(gpus_that_fit(layout, job, 0, node_capacity(layout, 0)), 0u);
  EXPECT_TRUE(node_admits(layout, job, 2, 0));   // c-0 is CN
  EXPECT_FALSE(node_admits(layout, job, 0, 0));  // h-0 is HN
  job.role = NodeRole::kNone;                    // no role asked: any node
  EXPECT_TRUE(node_admits(layout, job, 0, 0));
  EXPECT_TRUE(node_admits(layout, job, 2, 0));
}

TEST(NodeFit, AnApplicationOfKAdmitsANodeHoldingFewerThanKOfItsJobs) {
  const ClusterLayout layout = cluster();
  const JobSpec job = of_application(job_of("j", 1), "app", 2);
  EXPECT_TRUE(node_admits(layout, job, 0, 0));
  EXPECT_TRUE(node_admits(layout, job, 0, 1));
  EXPECT_FALSE(node_admits(layout, job, 0, 2));
  EXPECT_TRUE(node_admits(layout, job, 0, 2, /*already_there=*/true));  // it counts once per node
  EXPECT_EQ(gpus_that_fit(layout, job, 0, node_capacity(layout, 0), 0, 2), 0u);
  EXPECT_GT(gpus_that_fit(layout, job, 0, node_capacity(layout, 0), 1, 2), 0u);  // growing where it is
  // An application without a limit of its own admits any count.
  EXPECT_TRUE(node_admits(layout, of_application(job_of("k", 1), "app", 0), 0, 100));
}

TEST(SchedulerStateConstraints, AJobCountsOnceOnEachNodeItHoldsAndNoMoreOnceItEnds) {
  const ClusterLayout layout = cluster();
  testing::FlatLocality locality;
  // big spans h-0 (3 GPUs) and h-1 (1 GPU); other is a job of another application.
  const std::vector<JobSpec> jobs = {of_application(job_of("big", 4), "app", 1),
                                     of_application(job_of("other", 1), "web", 1)};
  SchedulerState state(layout, locality, jobs);
  state.submit(0);
  state.submit(1);
  Plan plan;
  plan.allocate(0, {0, 1, 2, 4});
  plan.allocate(1, {3});
  state.apply(plan, 0);
  EXPECT_EQ(state.instances_on_node("app", 0), 1u);
  EXPECT_EQ(state.instances_on_node("app", 1), 1u);
  EXPECT_EQ(state.instances_on_node("app", 2), 0u);
  EXPECT_EQ(state.instances_on_node("web", 0), 1u);
  state.finish(0, 10);
  EXPECT_EQ(state.instances_on_node("app", 0), 0u);
  EXPECT_EQ(state.instances_on_node("app", 1), 0u);
}

TEST(SchedulerStateConstraints, APlanPuttingASecondInstanceOfKOneOnANodeIsRejected) {
  const ClusterLayout layout = cluster();
  testing::FlatLocality locality;
  const std::vector<JobSpec> jobs = {of_application(job_of("a", 1), "app", 1),
                                     of_application(job_of("b", 1), "app", 1)};
  SchedulerState state(layout, locality, jobs);
  state.submit(0);
  state.submit(1);
  Plan both_on_h0;  // in one plan
  both_on_h0.allocate(0, {0});
  both_on_h0.allocate(1, {1});
  try {
    state.apply(both_on_h0, 0);
    FAIL() << "the plan was applied";
  } catch (const PlanRejected& e) {
    EXPECT_NE(std::string(e.what()).find("decision 1 (job 'b'): node h-0 already holds 1 jobs of application 'app'"),
              std::string::npos)
        << e.what();
  }
  Plan first;  // across plans
  first.allocate(0, {0});
  state.apply(first, 0);
  Plan second;
  second.allocate(1, {2});
  EXPECT_THROW(state.apply(second, 0), PlanRejected);
  Plan elsewhere;
  elsewhere.allocate(1, {4});  // h-1
  EXPECT_NO_THROW(state.apply(elsewhere, 0));
}

TEST(SchedulerStateConstraints, APlanMayPreemptAnInstanceToPlaceAnotherOnItsNode) {
  const ClusterLayout layout = cluster();
  testing::FlatLocality locality;
  const std::vector<JobSpec> jobs = {of_application(job_of("a", 1), "app", 1),
                                     of_application(job_of("b", 1), "app", 1)};
  SchedulerState state(layout, locality, jobs);
  state.submit(0);
  state.submit(1);
  Plan first;
  first.allocate(0, {0});
  state.apply(first, 0);
  Plan swap;
  swap.preempt(0);
  swap.allocate(1, {1});
  EXPECT_NO_THROW(state.apply(swap, 5));
  EXPECT_EQ(state.instances_on_node("app", 0), 1u);
}

TEST(SchedulerStateConstraints, APlanBreakingARoleOrOverRdmaOrDiskIsRejected) {
  const ClusterLayout layout = cluster();
  testing::FlatLocality locality;
  JobSpec cn = job_of("cn", 1);
  cn.role = NodeRole::kCpuNode;
  JobSpec rdma = job_of("rdma", 2);
  rdma.rdma_percent = 300;  // 150 per GPU: two on one node make 300 of its 200
  JobSpec disk = job_of("disk", 1);
  disk.disk_bytes = 1001e9;
  const std::vector<JobSpec> jobs = {cn, rdma, disk};
  SchedulerState state(layout, locality, jobs);
  for (JobIndex j = 0; j < 3; ++j) state.submit(j);
  const auto rejection = [&](JobIndex job, std::vector<GpuId> gpus) {
    Plan plan;
    plan.allocate(job, std::move(gpus));
    try {
      state.apply(plan, 0);
    } catch (const PlanRejected& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(rejection(0, {0}).find("is on a node of role 'HN', the job asks role 'CN'"), std::string::npos);
  EXPECT_NE(rejection(1, {0, 1}).find("node h-0 would hold 300 percent of RNIC bandwidth (rdma_percent) of its 200"),
            std::string::npos);
  EXPECT_NE(rejection(2, {0}).find("node h-0 would hold 1001000000000 bytes of disk of its 1000000000000"),
            std::string::npos);
  EXPECT_EQ(rejection(1, {0, 4}), "");  // 150 on each node: fits
  EXPECT_EQ(node_capacity(layout, 0).rdma_percent - state.free_host(0).rdma_percent, 150);
}

TEST(SchedulerStateConstraints, ACpuJobGoesOnlyToNodesOfItsRoleAndBelowItsLimit) {
  const ClusterLayout layout = cluster();
  testing::FlatLocality locality;
  JobSpec cpu = job_of("cpu", 0);
  cpu.work = CpuWork{10};
  cpu.cpu_cores = 8;
  cpu.role = NodeRole::kCpuNode;
  cpu.rdma_percent = 60;
  const std::vector<JobSpec> jobs = {of_application(cpu, "app", 1), of_application(cpu, "app", 1)};
  SchedulerState state(layout, locality, jobs);
  state.submit_cpu_job(0, 0);
  state.submit_cpu_job(1, 0);
  EXPECT_FALSE(state.cpu_job_fits(0, 0));  // h-0 is HN
  ASSERT_TRUE(state.cpu_job_fits(0, 2));
  EXPECT_EQ(state.place_cpu_job(0), (CpuPlacement{{2, 1}}));
  state.start_cpu_job(0, 2, 0);
  EXPECT_EQ(state.instances_on_node("app", 2), 1u);
  EXPECT_FALSE(state.cpu_job_fits(1, 2));  // the second instance: c-0 holds one, and 60 of its 100 percent
  EXPECT_TRUE(state.place_cpu_job(1).empty());
  state.finish_cpu_job(0, 10);
  EXPECT_EQ(state.instances_on_node("app", 2), 0u);
  EXPECT_TRUE(state.cpu_job_fits(1, 2));
}

}  // namespace
}  // namespace gcsim
