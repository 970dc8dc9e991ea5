// Specification of the FIFO policy: waiting jobs start in submission order,
// the head of the queue blocks every later job, and no GPU is promised twice
// in one call. Also: the builtin registry offers fifo and pack.
#include "policies/fifo/fifo_policy.hpp"

#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policies/placement/pack_placement.hpp"
#include "policies/register_builtin.hpp"
#include "sim/core/cluster_layout.hpp"
#include "tests/support/crafted_specs.hpp"
#include "sim/core/plan.hpp"
#include "sim/core/scheduler_state.hpp"
#include "sim/topology/cluster_graph.hpp"

namespace gcsim {
namespace {

using Gpus = std::vector<GpuId>;
using Jobs = std::vector<JobIndex>;

// One rack of `nodes` nodes with 4 GPUs each.
ClusterSpec rack_of(std::uint32_t nodes) {
  ClusterSpec spec;
  spec.name = "rack";
  spec.gpu_types = {GpuType{"A100", 312e12, 80e9}};
  spec.node_groups = {testing::crafted_node_group("n", nodes, 4, "A100")};
  spec.fabric.nodes_per_rack = nodes;
  return spec;
}

JobSpec job(const std::string& id, std::uint32_t gpus, Time submit) {
  JobSpec spec;
  spec.id = id;
  spec.gpus = gpus;
  spec.submit = submit;
  spec.work = TrainingWork{1e12, 1e8, 10, {}};
  return spec;
}

// A cluster, its jobs and the scheduler state, with FIFO over pack placement.
class FifoTest : public ::testing::Test {
 protected:
  void set_up(std::uint32_t nodes, std::vector<JobSpec> jobs) {
    layout_ = std::make_unique<ClusterLayout>(rack_of(nodes));
    graph_ = std::make_unique<ClusterGraph>(*layout_);
    jobs_ = std::move(jobs);
    state_ = std::make_unique<SchedulerState>(*layout_, *graph_, jobs_);
  }

  void submit_all() {
    for (JobIndex j = 0; j < jobs_.size(); ++j) state_->submit(j);
  }

  void run(JobIndex j, Gpus gpus) {
    Plan plan;
    plan.allocate(j, std::move(gpus));
    state_->apply(plan, now_);
  }

  Plan schedule() {
    Plan plan;
    fifo_.schedule(SchedulingContext{now_, *state_, *state_}, plan);
    return plan;
  }

  static Jobs jobs_of(const Plan& plan) {
    Jobs jobs;
    for (const Decision& d : plan.decisions()) jobs.push_back(d.job);
    return jobs;
  }

  Time now_ = 10.0;
  FifoPolicy fifo_{std::make_unique<PackPlacement>()};
  std::unique_ptr<ClusterLayout> layout_;
  std::unique_ptr<ClusterGraph> graph_;
  std::vector<JobSpec> jobs_;
  std::unique_ptr<SchedulerState> state_;
};

TEST_F(FifoTest, StartsWaitingJobsInSubmissionOrder) {
  set_up(2, {job("third", 1, 3.0), job("first", 1, 1.0), job("second", 1, 2.0)});
  submit_all();
  const Plan plan = schedule();
  EXPECT_EQ(jobs_of(plan), (Jobs{1, 2, 0}));
  for (const Decision& d : plan.decisions()) EXPECT_EQ(d.kind, Decision::Kind::kAllocate);
}

TEST_F(FifoTest, EqualSubmitTimesStartInWorkloadOrder) {
  set_up(1, {job("a", 1, 0.0), job("b", 1, 0.0), job("c", 1, 0.0)});
  for (JobIndex j : {2u, 0u, 1u}) state_->submit(j);
  EXPECT_EQ(jobs_of(schedule()), (Jobs{0, 1, 2}));
}

// Two nodes of 4 GPUs: the two earliest jobs of 4 fill them; the latest
// one, submitted first in the workload, waits.
TEST_F(FifoTest, EarliestSubmittedJobsGetTheGpus) {
  set_up(2, {job("late", 4, 5.0), job("first", 4, 0.0), job("second", 4, 1.0)});
  submit_all();
  const Plan plan = schedule();
  ASSERT_EQ(jobs_of(plan), (Jobs{1, 2}));
  EXPECT_EQ(plan.decisions()[0].gpus, (Gpus{0, 1, 2, 3}));
  EXPECT_EQ(plan.decisions()[1].gpus, (Gpus{4, 5, 6, 7}));
}

// 6 of 8 GPUs are held; the head needs 4 and cannot start, so the 1-GPU job
// behind it waits too, although it would fit.
TEST_F(FifoTest, HeadOfLineBlocksASmallerJobThatWouldFit) {
  set_up(2, {job("running", 6, 0.0), job("head", 4, 1.0), job("small", 1, 2.0)});
  state_->submit(0);
  run(0, {0, 1, 2, 3, 4, 5});
  state_->submit(1);
  state_->submit(2);
  ASSERT_EQ(state_->free_gpu_count(), 2u);
  EXPECT_TRUE(schedule().empty());
}

TEST_F(FifoTest, BlockedJobsStartOnceTheHeadFits) {
  set_up(2, {job("running", 6, 0.0), job("head", 4, 1.0), job("small", 1, 2.0)});
  state_->submit(0);
  run(0, {0, 1, 2, 3, 4, 5});
  state_->submit(1);
  state_->submit(2);
  state_->finish(0, now_);
  EXPECT_EQ(jobs_of(schedule()), (Jobs{1, 2}));
}

TEST_F(FifoTest, JobsBeforeTheBlockedHeadStillStart) {
  set_up(1, {job("fits", 2, 0.0), job("too-big", 3, 1.0), job("small", 1, 2.0)});
  submit_all();
  EXPECT_EQ(jobs_of(schedule()), (Jobs{0}));
}

// Two nodes of 4: jobs of 3, 3 and 2 GPUs. Without the GPUs promised earlier
// in the call, pack would give the first free GPUs of node 0 to all three.
TEST_F(FifoTest, TwoJobsInTheSameCallNeverGetTheSameGpu) {
  set_up(2, {job("a", 3, 0.0), job("b", 3, 1.0), job("c", 2, 2.0)});
  submit_all();
  const Plan plan = schedule();
  ASSERT_EQ(jobs_of(plan), (Jobs{0, 1, 2}));
  std::set<GpuId> seen;
  for (const Decision& d : plan.decisions())
    for (GpuId g : d.gpus) EXPECT_TRUE(seen.insert(g).second) << "GPU " << g << " promised twice";
  EXPECT_EQ(seen.size(), 8u);
  const auto applied = state_->apply(plan, now_);
  EXPECT_EQ(applied.started, (Jobs{0, 1, 2}));
  EXPECT_EQ(state_->free_gpu_count(), 0u);
}

TEST_F(FifoTest, GpusHeldByRunningJobsAreNotOffered) {
  set_up(1, {job("running", 2, 0.0), job("next", 2, 1.0)});
  state_->submit(0);
  run(0, {1, 2});
  state_->submit(1);
  const Plan plan = schedule();
  ASSERT_EQ(jobs_of(plan), (Jobs{1}));
  EXPECT_EQ(plan.decisions()[0].gpus, (Gpus{0, 3}));
}

TEST_F(FifoTest, NothingWaitingGivesAnEmptyPlan) {
  set_up(1, {job("a", 1, 0.0)});
  EXPECT_TRUE(schedule().empty());
}

TEST_F(FifoTest, OnlyRunningJobsGivesAnEmptyPlan) {
  set_up(1, {job("a", 1, 0.0)});
  state_->submit(0);
  run(0, {0});
  EXPECT_TRUE(schedule().empty());
}

TEST_F(FifoTest, NeverPreemptsNorAsksToBeWoken) {
  set_up(1, {job("running", 4, 0.0), job("waiting", 4, 1.0)});
  state_->submit(0);
  run(0, {0, 1, 2, 3});
  state_->submit(1);
  const Plan plan = schedule();
  EXPECT_TRUE(plan.decisions().empty());
  EXPECT_EQ(plan.wake_time(), kNever);
}

TEST(FifoPolicy, RequiresAPlacement) { EXPECT_THROW(FifoPolicy(nullptr), std::invalid_argument); }

TEST(FifoPolicy, IsNamedFifo) { EXPECT_EQ(FifoPolicy(std::make_unique<PackPlacement>()).name(), "fifo"); }

// ---- the builtin registry --------------------------------------------------------------

bool has_entry(const std::vector<PolicyRegistry::Entry>& entries, const std::string& name) {
  for (const auto& e : entries)
    if (e.name == name && !e.summary.empty()) return true;
  return false;
}

TEST(BuiltinRegistry, OffersFifoAndPack) {
  PolicyRegistry registry;
  register_builtin(registry);
  EXPECT_TRUE(has_entry(registry.policies(), "fifo"));
  EXPECT_TRUE(has_entry(registry.placements(), "pack"));
}

TEST(BuiltinRegistry, MakesWorkingFifoWithItsDefaultPlacement) {
  PolicyRegistry registry;
  register_builtin(registry);
  const auto policy = registry.make_policy("fifo", {});
  ASSERT_NE(policy, nullptr);
  EXPECT_EQ(policy->name(), "fifo");
  EXPECT_EQ(registry.make_placement("pack", {})->name(), "pack");
}

TEST(BuiltinRegistry, RegisteringTwiceIsRejected) {
  PolicyRegistry registry;
  register_builtin(registry);
  EXPECT_THROW(register_builtin(registry), std::logic_error);
}

}  // namespace
}  // namespace gcsim
