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
#include "tests/support/policy_bench.hpp"
#include "sim/core/plan.hpp"
#include "sim/core/policy_registry.hpp"
#include "sim/state/scheduler_state.hpp"
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

// ---- spot jobs ----------------------------------------------------------------------------

JobSpec spot(const std::string& id, std::uint32_t gpus, Time submit, std::int64_t priority = 0) {
  JobSpec spec = job(id, gpus, submit);
  spec.qos = QosClass::kSpot;
  spec.priority = priority;
  return spec;
}

using Step = testing::PlanStep;
constexpr auto kPreempt = Decision::Kind::kPreempt;
constexpr auto kAllocate = Decision::Kind::kAllocate;

// FIFO with its options, over pack placement.
std::unique_ptr<SchedulingPolicy> fifo_with(PolicyOptions options) {
  PolicyRegistry registry;
  register_builtin(registry);
  return registry.make_policy("fifo", options);
}

// A 4-GPU node full with a spot job; a guaranteed job of 2 GPUs arrives: the
// spot job is preempted and the guaranteed job takes its GPUs in the same plan.
TEST_F(FifoTest, AGuaranteedJobPreemptsARunningSpotJobToFit) {
  set_up(1, {spot("spot", 4, 0.0), job("guaranteed", 2, 5.0)});
  state_->submit(0);
  run(0, {0, 1, 2, 3});
  state_->submit(1);
  const Plan plan = schedule();
  EXPECT_EQ(testing::steps_of(plan), (std::vector<Step>{{kPreempt, 0}, {kAllocate, 1}}));
  EXPECT_EQ(plan.decisions()[1].gpus, (Gpus{0, 1}));
  const auto applied = state_->apply(plan, now_);
  EXPECT_EQ(applied.started, (Jobs{1}));
  EXPECT_EQ(state_->runtime(0).state, JobState::kWaiting);  // back in the queue
}

// Node 0 full with a spot job, node 1 with a guaranteed one: a waiting spot
// job preempts neither.
TEST_F(FifoTest, ASpotJobNeverPreempts) {
  set_up(2, {spot("running-spot", 4, 0.0), job("running", 4, 0.0), spot("waiting-spot", 2, 5.0)});
  submit_all();
  run(0, {0, 1, 2, 3});
  run(1, {4, 5, 6, 7});
  EXPECT_TRUE(schedule().empty());
}

// A guaranteed job never preempts a guaranteed one, however high its priority.
TEST_F(FifoTest, AGuaranteedJobNeverPreemptsAnotherGuaranteedJob) {
  JobSpec urgent = job("urgent", 2, 5.0);
  urgent.priority = 100;
  set_up(1, {job("running", 4, 0.0), urgent});
  state_->submit(0);
  run(0, {0, 1, 2, 3});
  state_->submit(1);
  EXPECT_TRUE(schedule().empty());
}

// Two nodes, each full with a spot job; the lowest priority goes first
// although it started first, and one victim is enough.
TEST_F(FifoTest, TheLowestPrioritySpotJobIsPreemptedFirstAndNoMoreThanNeeded) {
  set_up(2, {spot("low", 4, 0.0, 1), spot("high", 4, 0.0, 5), job("guaranteed", 4, 5.0)});
  state_->submit(0);
  state_->submit(1);
  now_ = 1;
  run(0, {0, 1, 2, 3});
  now_ = 2;
  run(1, {4, 5, 6, 7});
  now_ = 10;
  state_->submit(2);
  const Plan plan = schedule();
  EXPECT_EQ(testing::steps_of(plan), (std::vector<Step>{{kPreempt, 0}, {kAllocate, 2}}));
}

// Among spot jobs of one priority, the most recently started goes first.
TEST_F(FifoTest, AmongEqualPrioritiesTheMostRecentlyStartedSpotJobGoesFirst) {
  set_up(2, {spot("older", 4, 0.0), spot("younger", 4, 0.0), job("guaranteed", 2, 5.0)});
  state_->submit(0);
  state_->submit(1);
  now_ = 1;
  run(1, {4, 5, 6, 7});
  now_ = 2;
  run(0, {0, 1, 2, 3});
  now_ = 10;
  state_->submit(2);
  EXPECT_EQ(testing::steps_of(schedule()), (std::vector<Step>{{kPreempt, 0}, {kAllocate, 2}}));
}

// Nothing is preempted when even every spot job would not make room.
TEST_F(FifoTest, NoSpotJobIsPreemptedInVain) {
  set_up(1, {spot("spot", 2, 0.0), job("running", 2, 0.0), job("big", 4, 5.0)});
  state_->submit(0);
  state_->submit(1);
  run(0, {0, 1});
  run(1, {2, 3});
  state_->submit(2);
  EXPECT_TRUE(schedule().empty());
}

// Node 0 holds a 2-GPU spot job and 2 free GPUs; node 1 a guaranteed job and
// 2 free GPUs. A single-node job of 4 preempts the spot job for node 0, and
// the spot job starts again at once on node 1's free GPUs.
TEST_F(FifoTest, APreemptedSpotJobStartsAgainAtOnceWhereGpusAreFree) {
  JobSpec whole_node = job("whole-node", 4, 5.0);
  whole_node.single_node = true;
  set_up(2, {spot("spot", 2, 0.0), job("running", 2, 0.0), whole_node});
  state_->submit(0);
  state_->submit(1);
  run(0, {0, 1});
  run(1, {4, 5});
  state_->submit(2);
  const Plan plan = schedule();
  ASSERT_EQ(testing::steps_of(plan), (std::vector<Step>{{kPreempt, 0}, {kAllocate, 2}, {kAllocate, 0}}));
  EXPECT_EQ(plan.decisions()[1].gpus, (Gpus{0, 1, 2, 3}));
  EXPECT_EQ(plan.decisions()[2].gpus, (Gpus{6, 7}));
  EXPECT_EQ(state_->apply(plan, now_).started, (Jobs{2, 0}));
}

// A waiting spot job ahead in the queue does not block a guaranteed job
// behind it: guaranteed jobs are served first, spot jobs on what is left.
TEST_F(FifoTest, AWaitingSpotJobDoesNotBlockTheGuaranteedJobsBehindIt) {
  set_up(1, {job("running", 2, 0.0), spot("spot", 4, 1.0), job("guaranteed", 2, 2.0), spot("small-spot", 1, 3.0)});
  state_->submit(0);
  run(0, {0, 1});
  for (JobIndex j : {1u, 2u, 3u}) state_->submit(j);
  // The 4-GPU spot job cannot start, and blocks the spot job behind it.
  EXPECT_EQ(testing::steps_of(schedule()), (std::vector<Step>{{kAllocate, 2}}));
}

TEST_F(FifoTest, WithSpotPreemptionOffNothingIsPreempted) {
  const auto strict = fifo_with({{"preempt_spot", "false"}});
  set_up(1, {spot("spot", 4, 0.0), job("guaranteed", 2, 5.0)});
  state_->submit(0);
  run(0, {0, 1, 2, 3});
  state_->submit(1);
  Plan plan;
  strict->schedule(SchedulingContext{now_, *state_, *state_}, plan);
  EXPECT_TRUE(plan.empty());
}

// And a waiting spot job blocks the line like any job.
TEST_F(FifoTest, WithSpotPreemptionOffFifoIsStrictSubmissionOrder) {
  const auto strict = fifo_with({{"preempt_spot", "false"}});
  set_up(1, {job("running", 2, 0.0), spot("spot", 4, 1.0), job("guaranteed", 2, 2.0)});
  state_->submit(0);
  run(0, {0, 1});
  state_->submit(1);
  state_->submit(2);
  Plan plan;
  strict->schedule(SchedulingContext{now_, *state_, *state_}, plan);
  EXPECT_TRUE(plan.empty());
}

TEST_F(FifoTest, PriorityOrderServesHigherPrioritiesFirstThenSubmission) {
  JobSpec urgent = job("urgent", 4, 5.0);
  urgent.priority = 3;
  set_up(1, {job("first", 4, 0.0), urgent, job("second", 1, 1.0)});
  submit_all();
  EXPECT_EQ(jobs_of(schedule()), (Jobs{0}));  // submission order by default
  const auto by_priority = fifo_with({{"order", "priority"}});
  Plan plan;
  by_priority->schedule(SchedulingContext{now_, *state_, *state_}, plan);
  EXPECT_EQ(jobs_of(plan), (Jobs{1}));  // "first" then blocks "second"
}

TEST(FifoPolicy, RejectsAnUnknownOrder) {
  EXPECT_THROW(fifo_with({{"order", "size"}}), std::invalid_argument);
  EXPECT_THROW(fifo_with({{"preempt_spot", "maybe"}}), std::invalid_argument);
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
