// Specification of SchedulerState: who holds which GPU, the waiting queue,
// and Plans applied as all-or-nothing transactions.
//
// The cluster, worked out by hand:
//
//   node 0  big-0    GPUs 0, 1   80 GB each
//   node 1  big-1    GPUs 2, 3   80 GB each
//   node 2  small-0  GPUs 4, 5   16 GB each
#include "tests/support/crafted_specs.hpp"
#include "tests/support/flat_locality.hpp"
#include "sim/state/scheduler_state.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/cluster_spec.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/core/locality.hpp"
#include "sim/core/plan.hpp"

namespace gcsim {
namespace {

using testing::crafted_node_group;
// SchedulerState only stores the locality for policies; these tests never ask it.
using testing::FlatLocality;

using Jobs = std::vector<JobIndex>;
using Gpus = std::vector<GpuId>;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

ClusterSpec three_node_cluster() {
  ClusterSpec spec;
  spec.name = "three-nodes";
  spec.gpu_types = {GpuType{"big", 100e12, 80e9}, GpuType{"small", 10e12, 16e9}};
  spec.node_groups = {crafted_node_group("big", 2, 2, "big"), crafted_node_group("small", 1, 2, "small")};
  spec.fabric.nodes_per_rack = 4;
  return spec;
}

JobSpec job(const std::string& id, std::uint32_t gpus, Time submit = 0, double memory = 0) {
  JobSpec spec;
  spec.id = id;
  spec.gpus = gpus;
  spec.submit = submit;
  spec.gpu_memory_bytes = memory;
  spec.work = TrainingWork{1e12, 1e8, 10, {}};
  return spec;
}

// Jobs 0..2 ("a", "b", "c") ask for two GPUs each, job 3 ("wide") for 40 GB GPUs.
class SchedulerStateTest : public ::testing::Test {
 protected:
  SchedulerStateTest()
      : layout_(three_node_cluster()),
        jobs_{job("a", 2), job("b", 2), job("c", 2), job("wide", 2, 0, 40e9)},
        state_(layout_, locality_, jobs_) {}

  void start(JobIndex j, std::vector<GpuId> gpus, Time now = 0) {
    Plan plan;
    plan.allocate(j, std::move(gpus));
    state_.apply(plan, now);
  }

  // The job (asking two GPUs) is submitted, holds one GPU at t=1 and gives it back at t=2.
  void hold_then_release(JobIndex j, GpuId gpu) {
    state_.submit(j);
    start(j, {gpu}, 1.0);
    Plan release;
    release.release(j);
    state_.apply(release, 2.0);
  }

  // Every observable part of the state that a rejected plan must leave alone.
  void expect_untouched_with_waiting(const std::vector<JobIndex>& waiting) {
    EXPECT_EQ(state_.waiting(), waiting);
    EXPECT_TRUE(state_.running().empty());
    EXPECT_EQ(state_.free_gpu_count(), 6u);
    EXPECT_EQ(state_.allocated_gpus(), 0.0);
    for (GpuId g = 0; g < 6; ++g) {
      EXPECT_TRUE(state_.is_free(g)) << "GPU " << g;
      EXPECT_EQ(state_.owner(g), kNoJob) << "GPU " << g;
    }
    for (NodeId n = 0; n < 3; ++n) EXPECT_EQ(state_.free_gpus_on_node(n), 2u) << "node " << n;
    for (JobIndex j : waiting) {
      EXPECT_EQ(state_.runtime(j).state, JobState::kWaiting) << "job " << j;
      EXPECT_TRUE(state_.runtime(j).gpus.empty()) << "job " << j;
      EXPECT_EQ(state_.runtime(j).start, kNever) << "job " << j;
    }
  }

  FlatLocality locality_;
  ClusterLayout layout_;
  std::vector<JobSpec> jobs_;
  SchedulerState state_;
};

// ---- allocation ---------------------------------------------------------------

TEST_F(SchedulerStateTest, StartsWithEveryGpuFreeAndEveryJobPending) {
  EXPECT_EQ(state_.free_gpu_count(), 6u);
  EXPECT_EQ(state_.job_count(), 4u);
  EXPECT_TRUE(state_.waiting().empty());
  EXPECT_EQ(state_.runtime(0).state, JobState::kPending);
}

TEST_F(SchedulerStateTest, SubmitPutsPendingJobInTheQueue) {
  state_.submit(1);
  EXPECT_EQ(state_.runtime(1).state, JobState::kWaiting);
  EXPECT_EQ(state_.waiting(), (Jobs{1}));
}

// The running list is in the order the runs started: a job that leaves it,
// whichever its place, leaves the others in order, and a job that starts
// again joins at the end.
TEST_F(SchedulerStateTest, TheRunningListKeepsTheOrderTheRunsStarted) {
  for (JobIndex j : {0, 1, 2}) state_.submit(j);
  start(1, {2, 3}, 1.0);
  start(0, {0, 1}, 2.0);
  start(2, {4, 5}, 3.0);
  EXPECT_EQ(state_.running(), (Jobs{1, 0, 2}));
  Plan preempt;
  preempt.preempt(0);
  state_.apply(preempt, 4.0);
  EXPECT_EQ(state_.running(), (Jobs{1, 2}));
  start(0, {0, 1}, 5.0);
  EXPECT_EQ(state_.running(), (Jobs{1, 2, 0}));
  state_.finish(1, 6.0);
  EXPECT_EQ(state_.running(), (Jobs{2, 0}));
  state_.finish(0, 7.0);
  EXPECT_EQ(state_.running(), (Jobs{2}));
  state_.finish(2, 8.0);
  EXPECT_TRUE(state_.running().empty());
}

TEST_F(SchedulerStateTest, AllocationTakesGpusAndMovesJobFromWaitingToRunning) {
  state_.submit(0);
  Plan plan;
  plan.allocate(0, {1, 2});
  const auto applied = state_.apply(plan, 5.0);

  EXPECT_EQ(applied.started, (Jobs{0}));
  EXPECT_TRUE(applied.preempted.empty());
  EXPECT_TRUE(state_.waiting().empty());
  EXPECT_EQ(state_.running(), (Jobs{0}));
  EXPECT_EQ(state_.runtime(0).state, JobState::kRunning);
  EXPECT_EQ(state_.runtime(0).start, 5.0);
  EXPECT_EQ(state_.runtime(0).gpus, (Gpus{1, 2}));
  EXPECT_EQ(state_.owner(1), 0u);
  EXPECT_EQ(state_.owner(2), 0u);
  EXPECT_FALSE(state_.is_free(1));
  EXPECT_TRUE(state_.is_free(0));
  EXPECT_EQ(state_.free_gpu_count(), 4u);
  EXPECT_EQ(state_.allocated_gpus(), 2.0);
}

TEST_F(SchedulerStateTest, AllocationKeepsTheRingOrderThePlanGave) {
  state_.submit(0);
  start(0, {3, 0});
  EXPECT_EQ(state_.runtime(0).gpus, (Gpus{3, 0}));
}

TEST_F(SchedulerStateTest, FreeCountsArePerNode) {
  state_.submit(0);
  state_.submit(1);
  start(0, {0, 2});  // one GPU on node 0, one on node 1
  start(1, {4, 5});  // all of node 2
  EXPECT_EQ(state_.free_gpus_on_node(0), 1u);
  EXPECT_EQ(state_.free_gpus_on_node(1), 1u);
  EXPECT_EQ(state_.free_gpus_on_node(2), 0u);
  EXPECT_EQ(state_.free_gpu_count(), 2u);
  EXPECT_EQ(state_.allocated_gpus(), 4.0);
}

TEST_F(SchedulerStateTest, MemoryRequestIsMetByLargeEnoughGpus) {
  state_.submit(3);
  start(3, {0, 1});  // 80 GB >= 40 GB
  EXPECT_EQ(state_.runtime(3).state, JobState::kRunning);
}

TEST_F(SchedulerStateTest, AJobListingSeveralTypesMayMixThemInOneRun) {
  jobs_[0].gpu_types = {"big", "small"};
  SchedulerState state(layout_, locality_, jobs_);
  state.submit(0);
  Plan plan;
  plan.allocate(0, {1, 4});  // a big and a small GPU
  state.apply(plan, 0);
  EXPECT_EQ(state.runtime(0).state, JobState::kRunning);
}

TEST_F(SchedulerStateTest, AJobAllowingMixedTypesMayMixThemInOneRun) {
  jobs_[0].mixed_gpu_types = true;
  SchedulerState state(layout_, locality_, jobs_);
  state.submit(0);
  Plan plan;
  plan.allocate(0, {1});
  plan.allocate(0, {4});  // the small GPU beside the big one it holds
  state.apply(plan, 0);
  EXPECT_EQ(state.runtime(0).state, JobState::kRunning);
}

TEST_F(SchedulerStateTest, AJobReleasedFromOneTypeMayTakeAnotherNextTime) {
  state_.submit(0);
  start(0, {1});  // holds a big GPU, waiting for its second
  Plan release;
  release.release(0);
  state_.apply(release, 1);
  start(0, {4, 5}, 2);  // both small: one type again
  EXPECT_EQ(state_.runtime(0).state, JobState::kRunning);
}

// ---- rejected plans change nothing ----------------------------------------------

struct RejectedPlanCase {
  std::string name;
  std::vector<Decision> decisions;
  std::string message;  // part of the rejection that names the broken rule
};

std::ostream& operator<<(std::ostream& out, const RejectedPlanCase& c) { return out << c.name; }

Plan plan_of(const std::vector<Decision>& decisions) {
  Plan plan;
  for (const Decision& d : decisions) {
    if (d.kind == Decision::Kind::kAllocate)
      plan.allocate(d.job, d.gpus, d.power_limit_watts);
    else
      plan.preempt(d.job);
  }
  return plan;
}

Decision allocate(JobIndex j, std::vector<GpuId> gpus) { return {Decision::Kind::kAllocate, j, std::move(gpus)}; }
Decision preempt(JobIndex j) { return {Decision::Kind::kPreempt, j, {}}; }
Decision limited(JobIndex j, std::vector<GpuId> gpus, double watts) {
  return {Decision::Kind::kAllocate, j, std::move(gpus), watts};
}

// Jobs a (0), b (1) and wide (3) are waiting; nothing runs. In every case an
// earlier decision of the plan is valid on its own and must not be applied.
const RejectedPlanCase kRejectedPlans[] = {
    {"GpuGivenTwiceAcrossDecisions", {allocate(0, {0, 1}), allocate(1, {1, 2})}, "is not free"},
    {"GpuGivenTwiceInOneDecision", {allocate(1, {2, 3}), allocate(0, {0, 0})}, "given to the job twice"},
    {"TooManyGpusAcrossDecisions", {allocate(0, {0}), allocate(0, {1, 2})}, "needs 2"},
    {"NoGpuAtAll", {allocate(1, {2, 3}), allocate(0, {})}, "no GPU"},
    {"TooManyGpus", {allocate(1, {2, 3}), allocate(0, {0, 1, 4})}, "needs 2"},
    {"GpuWithLessMemoryThanRequested", {allocate(0, {0, 1}), allocate(3, {4, 5})}, "less memory"},
    {"GpuThatDoesNotExist", {allocate(1, {2, 3}), allocate(0, {0, 6})}, "does not exist"},
    {"JobThatDoesNotExist", {allocate(1, {2, 3}), allocate(9, {0, 1})}, "no such job"},
    {"PendingJob", {allocate(1, {2, 3}), allocate(2, {0, 1})}, "not waiting"},
    {"SameJobTwice", {allocate(0, {0, 1}), allocate(0, {2, 3})}, "not waiting"},
    {"PreemptingAJobThatIsNotRunning", {allocate(1, {2, 3}), preempt(0)}, "not running"},
    // A job allowing any type runs on one type: big GPU 1 and small GPU 4 together are refused.
    {"GpusOfTwoTypes", {allocate(1, {2, 3}), allocate(0, {1, 4})}, "one GPU type"},
    {"GpuOfAnotherTypeThanTheOnesHeld", {allocate(1, {2, 3}), allocate(0, {1}), allocate(0, {4})}, "one GPU type"},
    {"NegativePowerLimit", {allocate(1, {2, 3}), limited(0, {0, 1}, -100)}, "power limit"},
    {"PowerLimitNotANumber", {allocate(1, {2, 3}), limited(0, {0, 1}, std::nan(""))}, "power limit"},
};

class RejectedPlan : public SchedulerStateTest, public ::testing::WithParamInterface<RejectedPlanCase> {};

TEST_P(RejectedPlan, ThrowsPlanRejected) {
  state_.submit(0);
  state_.submit(1);
  state_.submit(3);
  EXPECT_THROW(state_.apply(plan_of(GetParam().decisions), 1.0), PlanRejected);
}

TEST_P(RejectedPlan, MessageNamesTheOffendingDecisionAndRule) {
  state_.submit(0);
  state_.submit(1);
  state_.submit(3);
  try {
    state_.apply(plan_of(GetParam().decisions), 1.0);
    FAIL() << "plan accepted";
  } catch (const PlanRejected& e) {
    const std::string index = std::to_string(GetParam().decisions.size() - 1);
    EXPECT_TRUE(contains(e.what(), "decision " + index)) << e.what();
    EXPECT_TRUE(contains(e.what(), GetParam().message)) << e.what();
  }
}

TEST_P(RejectedPlan, LeavesTheStateUnchangedEvenForItsValidDecisions) {
  state_.submit(0);
  state_.submit(1);
  state_.submit(3);
  EXPECT_THROW(state_.apply(plan_of(GetParam().decisions), 1.0), PlanRejected);
  expect_untouched_with_waiting({0, 1, 3});
  EXPECT_EQ(state_.runtime(2).state, JobState::kPending);
}

INSTANTIATE_TEST_SUITE_P(InvalidDecisions, RejectedPlan, ::testing::ValuesIn(kRejectedPlans),
                         [](const ::testing::TestParamInfo<RejectedPlanCase>& info) { return info.param.name; });

TEST_F(SchedulerStateTest, AllocatingARunningJobIsRejected) {
  state_.submit(0);
  start(0, {0, 1});
  Plan plan;
  plan.allocate(0, {2, 3});
  EXPECT_THROW(state_.apply(plan, 1.0), PlanRejected);
  EXPECT_EQ(state_.runtime(0).gpus, (Gpus{0, 1}));
  EXPECT_TRUE(state_.is_free(2));
}

TEST_F(SchedulerStateTest, AllocatingAFinishedJobIsRejected) {
  state_.submit(0);
  start(0, {0, 1});
  state_.finish(0, 3.0);
  Plan plan;
  plan.allocate(0, {0, 1});
  EXPECT_THROW(state_.apply(plan, 4.0), PlanRejected);
  EXPECT_EQ(state_.runtime(0).state, JobState::kFinished);
  EXPECT_EQ(state_.free_gpu_count(), 6u);
}

TEST_F(SchedulerStateTest, AllocatingAGpuHeldByARunningJobIsRejectedNamingTheHolder) {
  state_.submit(0);
  state_.submit(1);
  start(0, {0, 1});
  Plan plan;
  plan.allocate(1, {1, 2});
  try {
    state_.apply(plan, 1.0);
    FAIL() << "plan accepted";
  } catch (const PlanRejected& e) {
    EXPECT_TRUE(contains(e.what(), "big-0:1")) << e.what();
    EXPECT_TRUE(contains(e.what(), "'a'")) << e.what();
  }
  EXPECT_EQ(state_.runtime(1).state, JobState::kWaiting);
  EXPECT_TRUE(state_.is_free(2));
}

TEST_F(SchedulerStateTest, EmptyPlanChangesNothing) {
  state_.submit(0);
  const auto applied = state_.apply(Plan{}, 1.0);
  EXPECT_TRUE(applied.started.empty());
  EXPECT_TRUE(applied.preempted.empty());
  expect_untouched_with_waiting({0});
}

// ---- preemption -----------------------------------------------------------------

TEST_F(SchedulerStateTest, PreemptThenAllocateOfTheSameGpusInOnePlanIsAccepted) {
  state_.submit(0);
  state_.submit(1);
  start(0, {0, 1});

  Plan plan;
  plan.preempt(0);
  plan.allocate(1, {0, 1});
  const auto applied = state_.apply(plan, 7.0);

  EXPECT_EQ(applied.preempted, (Jobs{0}));
  EXPECT_EQ(applied.started, (Jobs{1}));
  EXPECT_EQ(state_.owner(0), 1u);
  EXPECT_EQ(state_.owner(1), 1u);
  EXPECT_EQ(state_.running(), (Jobs{1}));
  EXPECT_EQ(state_.waiting(), (Jobs{0}));
  EXPECT_EQ(state_.runtime(0).state, JobState::kWaiting);
  EXPECT_EQ(state_.runtime(0).preemptions, 1u);
  EXPECT_TRUE(state_.runtime(0).gpus.empty());
  EXPECT_EQ(state_.runtime(1).start, 7.0);
  EXPECT_EQ(state_.free_gpu_count(), 4u);
  EXPECT_EQ(state_.free_gpus_on_node(0), 0u);
}

TEST_F(SchedulerStateTest, PreemptedJobCanRestartElsewhereInTheSamePlan) {
  state_.submit(0);
  start(0, {0, 1});
  Plan plan;
  plan.preempt(0);
  plan.allocate(0, {4, 5});
  state_.apply(plan, 2.0);
  EXPECT_EQ(state_.runtime(0).gpus, (Gpus{4, 5}));
  EXPECT_EQ(state_.runtime(0).state, JobState::kRunning);
  EXPECT_EQ(state_.runtime(0).preemptions, 1u);
  EXPECT_TRUE(state_.is_free(0));
  EXPECT_EQ(state_.free_gpu_count(), 4u);
  EXPECT_TRUE(state_.waiting().empty());
}

TEST_F(SchedulerStateTest, AllocationRecordedBeforeThePreemptionThatFreesItsGpusIsRejected) {
  state_.submit(0);
  state_.submit(1);
  start(0, {0, 1});
  Plan plan;
  plan.allocate(1, {0, 1});
  plan.preempt(0);
  EXPECT_THROW(state_.apply(plan, 1.0), PlanRejected);
  EXPECT_EQ(state_.owner(0), 0u);
  EXPECT_EQ(state_.runtime(0).preemptions, 0u);
  EXPECT_EQ(state_.waiting(), (Jobs{1}));
}

// Decisions take effect in order, so a job started by the plan and then
// preempted by it gives its GPUs back for a later decision of the same plan.
TEST_F(SchedulerStateTest, PreemptingAJobStartedEarlierInThePlanFreesItsGpusForLaterDecisions) {
  state_.submit(0);
  state_.submit(1);
  Plan plan;
  plan.allocate(1, {2, 3});
  plan.preempt(1);
  plan.allocate(0, {2, 3});
  const auto applied = state_.apply(plan, 1.0);
  // Job 1 never ran: the engine has nothing to start or stop for it.
  EXPECT_EQ(applied.started, (Jobs{0}));
  EXPECT_TRUE(applied.preempted.empty());
  EXPECT_EQ(state_.runtime(1).preemptions, 0u);
  EXPECT_EQ(state_.owner(2), 0u);
  EXPECT_EQ(state_.waiting(), (Jobs{1}));
  EXPECT_EQ(state_.free_gpu_count(), 4u);
}

TEST_F(SchedulerStateTest, PartialAllocationHoldsGpusWithoutStarting) {
  state_.submit(0);  // needs 2
  Plan plan;
  plan.allocate(0, {1});
  const auto applied = state_.apply(plan, 1.0);
  EXPECT_TRUE(applied.started.empty());
  EXPECT_EQ(state_.runtime(0).state, JobState::kWaiting);
  EXPECT_EQ(state_.runtime(0).gpus, (Gpus{1}));
  EXPECT_EQ(state_.owner(1), 0u);
  EXPECT_EQ(state_.holding(), (Jobs{0}));
  EXPECT_EQ(state_.allocated_gpus(), 1.0);
  EXPECT_TRUE(state_.running().empty());
}

TEST_F(SchedulerStateTest, CompletingAHeldSetStartsTheJobInTheOrderGiven) {
  state_.submit(0);
  Plan first;
  first.allocate(0, {3});
  state_.apply(first, 1.0);
  Plan second;
  second.allocate(0, {0});
  const auto applied = state_.apply(second, 2.0);
  EXPECT_EQ(applied.started, (Jobs{0}));
  EXPECT_EQ(state_.runtime(0).gpus, (Gpus{3, 0}));
  EXPECT_DOUBLE_EQ(state_.runtime(0).start, 2.0);
  EXPECT_TRUE(state_.holding().empty());
}

TEST_F(SchedulerStateTest, APowerLimitGivenWithTheAllocationLastsForThatRunOnly) {
  state_.submit(0);
  Plan plan;
  plan.allocate(0, {0, 1}, 300);
  state_.apply(plan, 1.0);
  EXPECT_EQ(state_.runtime(0).power_limit_watts, 300);
  Plan stop;
  stop.preempt(0);
  state_.apply(stop, 2.0);
  EXPECT_EQ(state_.runtime(0).power_limit_watts, 0);  // judged afresh at its next start
  start(0, {2, 3}, 3.0);
  EXPECT_EQ(state_.runtime(0).power_limit_watts, 0);
}

TEST_F(SchedulerStateTest, OfTheAllocationsCompletingARunTheLowestPowerLimitHolds) {
  state_.submit(0);
  state_.submit(1);
  Plan first;
  first.allocate(0, {3}, 300);
  first.allocate(1, {0}, 400);
  state_.apply(first, 1.0);
  EXPECT_EQ(state_.runtime(0).power_limit_watts, 300);  // held, waiting
  Plan second;
  second.allocate(0, {2});  // no limit: the one given with GPU 3 stays
  second.allocate(1, {1}, 250);
  state_.apply(second, 2.0);
  EXPECT_EQ(state_.runtime(0).power_limit_watts, 300);
  EXPECT_EQ(state_.runtime(1).power_limit_watts, 250);
  state_.finish(1, 3.0);
  EXPECT_EQ(state_.runtime(1).power_limit_watts, 0);
}

TEST_F(SchedulerStateTest, GivingHeldGpusBackDropsTheirPowerLimit) {
  state_.submit(0);
  Plan hold;
  hold.allocate(0, {2}, 300);
  state_.apply(hold, 1.0);
  Plan release;
  release.release(0);
  state_.apply(release, 2.0);
  EXPECT_EQ(state_.runtime(0).power_limit_watts, 0);
}

TEST_F(SchedulerStateTest, ReleaseGivesBackEveryHeldGpu) {
  hold_then_release(0, 2);
  EXPECT_TRUE(state_.runtime(0).gpus.empty());
  EXPECT_TRUE(state_.is_free(2));
  EXPECT_EQ(state_.free_gpu_count(), 6u);
  EXPECT_EQ(state_.waiting(), (Jobs{0}));
}

TEST_F(SchedulerStateTest, ReleasingARunningJobIsRejected) {
  state_.submit(0);
  start(0, {0, 1});
  Plan plan;
  plan.release(0);
  EXPECT_THROW(state_.apply(plan, 2.0), PlanRejected);
  EXPECT_EQ(state_.runtime(0).state, JobState::kRunning);
}

// A job preempted, restarted elsewhere and preempted again within one plan
// frees the GPUs of its restart, not those it held before the plan, which by
// then belong to another job; those GPUs cannot be given a second time.
TEST_F(SchedulerStateTest, SecondPreemptionInOnePlanDoesNotFreeGpusAlreadyReassigned) {
  state_.submit(1);
  state_.submit(2);
  state_.submit(0);
  start(0, {0, 1});

  Plan plan;
  plan.preempt(0);
  plan.allocate(1, {0, 1});
  plan.allocate(0, {2, 3});
  plan.preempt(0);
  plan.allocate(2, {0, 1});  // GPUs 0 and 1 are job b's by now
  EXPECT_THROW(state_.apply(plan, 1.0), PlanRejected);
  EXPECT_EQ(state_.running(), (Jobs{0}));
  EXPECT_EQ(state_.owner(0), 0u);
  EXPECT_EQ(state_.free_gpu_count(), 4u);
  EXPECT_EQ(state_.free_gpus_on_node(0), 0u);
}

// ---- finishing ------------------------------------------------------------------

TEST_F(SchedulerStateTest, FinishReleasesTheJobsGpus) {
  state_.submit(0);
  start(0, {0, 2}, 1.0);
  state_.finish(0, 9.0);

  EXPECT_EQ(state_.runtime(0).state, JobState::kFinished);
  EXPECT_EQ(state_.runtime(0).start, 1.0);
  EXPECT_EQ(state_.runtime(0).end, 9.0);
  EXPECT_TRUE(state_.runtime(0).gpus.empty());
  EXPECT_TRUE(state_.running().empty());
  EXPECT_TRUE(state_.is_free(0));
  EXPECT_TRUE(state_.is_free(2));
  EXPECT_EQ(state_.owner(0), kNoJob);
  EXPECT_EQ(state_.free_gpus_on_node(0), 2u);
  EXPECT_EQ(state_.free_gpus_on_node(1), 2u);
  EXPECT_EQ(state_.free_gpu_count(), 6u);
}

TEST_F(SchedulerStateTest, FinishedJobsGpusCanBeGivenToTheNextJob) {
  state_.submit(0);
  state_.submit(1);
  start(0, {0, 1});
  state_.finish(0, 2.0);
  start(1, {0, 1}, 2.0);
  EXPECT_EQ(state_.owner(0), 1u);
  EXPECT_EQ(state_.running(), (Jobs{1}));
}

TEST_F(SchedulerStateTest, RunningListKeepsStartOrderWhenAnEarlierJobFinishes) {
  state_.submit(0);
  state_.submit(1);
  state_.submit(2);
  start(2, {4, 5});
  start(0, {0, 1});
  start(1, {2, 3});
  state_.finish(0, 3.0);
  EXPECT_EQ(state_.running(), (Jobs{2, 1}));
}

TEST_F(SchedulerStateTest, RunLogListsEveryStartAndEveryEndInTheOrderTheyHappened) {
  state_.submit(0);
  state_.submit(1);
  start(1, {2, 3});
  start(0, {0, 1});
  state_.finish(1, 3.0);
  Plan preemption;
  preemption.preempt(0);
  state_.apply(preemption, 4.0);
  start(0, {4, 5}, 5.0);  // its second run
  const std::vector<RunEvent>& log = state_.run_log();
  ASSERT_EQ(log.size(), 5u);
  const std::vector<std::pair<JobIndex, bool>> expected{{1, true}, {0, true}, {1, false}, {0, false}, {0, true}};
  for (std::size_t i = 0; i < log.size(); ++i) {
    EXPECT_EQ(log[i].job, expected[i].first) << "entry " << i;
    EXPECT_EQ(log[i].started, expected[i].second) << "entry " << i;
  }
}

TEST_F(SchedulerStateTest, PartialHoldsAndReleasesAreNoRuns) {
  hold_then_release(0, 1);
  EXPECT_TRUE(state_.run_log().empty());
}

// ---- the waiting queue --------------------------------------------------------------

TEST(SchedulerStateQueue, WaitingIsOrderedBySubmitTimeThenWorkloadOrder) {
  const ClusterLayout layout(three_node_cluster());
  const FlatLocality locality;
  const std::vector<JobSpec> jobs{job("j0", 1, 5.0), job("j1", 1, 1.0), job("j2", 1, 5.0), job("j3", 1, 1.0),
                                  job("j4", 1, 3.0)};
  SchedulerState state(layout, locality, jobs);
  for (JobIndex j : {2u, 4u, 0u, 3u, 1u}) state.submit(j);
  EXPECT_EQ(state.waiting(), (Jobs{1, 3, 4, 0, 2}));
}

TEST(SchedulerStateQueue, PreemptedJobReturnsToItsSubmitPosition) {
  const ClusterLayout layout(three_node_cluster());
  const FlatLocality locality;
  const std::vector<JobSpec> jobs{job("early", 2, 0.0), job("late", 2, 4.0), job("middle", 2, 2.0)};
  SchedulerState state(layout, locality, jobs);
  state.submit(0);
  Plan first;
  first.allocate(0, {0, 1});
  state.apply(first, 0.0);
  state.submit(2);
  state.submit(1);
  ASSERT_EQ(state.waiting(), (Jobs{2, 1}));

  Plan second;
  second.preempt(0);
  state.apply(second, 5.0);
  EXPECT_EQ(state.waiting(), (Jobs{0, 2, 1}));
}

TEST_F(SchedulerStateTest, StartedJobLeavesTheQueueOthersKeepTheirOrder) {
  state_.submit(0);
  state_.submit(1);
  state_.submit(2);
  start(1, {0, 1});
  EXPECT_EQ(state_.waiting(), (Jobs{0, 2}));
}

}  // namespace
}  // namespace gcsim

namespace gcsim {
namespace {

// ---- node failures ----------------------------------------------------------------

TEST_F(SchedulerStateTest, ADownNodesGpusAreNeitherFreeNorGivenUntilItIsUp) {
  state_.submit(0);
  state_.take_down(1);  // GPUs 2 and 3
  EXPECT_EQ(state_.free_gpu_count(), 4u);
  EXPECT_EQ(state_.free_gpus_on_node(1), 0u);
  EXPECT_FALSE(state_.is_free(2));
  EXPECT_EQ(state_.free_share(3), 0.0);
  EXPECT_EQ(state_.free_memory(3), 0.0);
  EXPECT_EQ(state_.fullest_node_with_free(2), 0u);
  Plan plan;
  plan.allocate(0, {2, 3});
  EXPECT_THROW(state_.apply(plan, 1.0), PlanRejected);
  state_.bring_up(1);
  EXPECT_EQ(state_.free_gpu_count(), 6u);
  EXPECT_TRUE(state_.is_free(2));
  EXPECT_EQ(state_.apply(plan, 2.0).started, (Jobs{0}));
}

TEST_F(SchedulerStateTest, ANodeTakenDownUpAndDownAgainCountsItsGpusOnce) {
  state_.submit(0);
  start(0, {2, 3});
  Plan stop;
  stop.preempt(0);
  state_.apply(stop, 1.0);
  state_.take_down(1);
  state_.bring_up(1);
  state_.take_down(1);
  EXPECT_EQ(state_.free_gpu_count(), 4u);
  EXPECT_EQ(state_.free_gpus_on_node(1), 0u);
}

}  // namespace
}  // namespace gcsim
