// StateAudit (gcsim run --check): a state that plans changed is consistent;
// time going back, a job ending twice, a job ended but not finished, and a
// job still waiting when nothing more can happen are each named.
// One node of 4 GPUs of 16 GB.
#include "sim/engine/state_audit.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/invariant_violation.hpp"
#include "sim/core/plan.hpp"
#include "sim/state/scheduler_state.hpp"
#include "tests/support/crafted_specs.hpp"
#include "tests/support/flat_locality.hpp"

namespace gcsim {
namespace {

ClusterSpec one_node() {
  ClusterSpec spec;
  spec.name = "one-node";
  spec.gpu_types = {GpuType{"g", 1e12, 16e9}};
  spec.node_groups = {testing::crafted_node_group("n", 1, 4, "g")};
  spec.fabric.nodes_per_rack = 1;
  return spec;
}

JobSpec job(const std::string& id, std::uint32_t gpus, double share = 1, double memory = 0) {
  JobSpec spec;
  spec.id = id;
  spec.gpus = gpus;
  spec.gpu_share = share;
  spec.gpu_memory_bytes = memory;
  spec.work = MeasuredWork{100, "g"};
  return spec;
}

class StateAuditTest : public ::testing::Test {
 protected:
  StateAuditTest()
      : layout_(one_node()),
        jobs_{job("whole", 2), job("half-a", 1, 0.5, 8e9), job("half-b", 1, 0.5, 8e9), job("waits", 4)},
        state_(layout_, locality_, jobs_),
        audit_(layout_, jobs_) {
    for (JobIndex j = 0; j < jobs_.size(); ++j) state_.submit(j);
  }

  // The invariant the audit names, or "" when it finds none.
  template <class Check>
  std::string broken(Check check) {
    try {
      check();
    } catch (const InvariantViolation& violation) {
      return violation.invariant() + ": " + violation.what();
    }
    return "";
  }

  ClusterLayout layout_;
  testing::FlatLocality locality_;
  std::vector<JobSpec> jobs_;
  SchedulerState state_;
  StateAudit audit_;
};

TEST_F(StateAuditTest, PlansAppliedLeaveAConsistentState) {
  Plan plan;
  plan.allocate(0, {0, 1});
  plan.allocate(1, {2});
  plan.allocate(2, {2});  // two halves share GPU 2, 8 GB each of its 16
  state_.apply(plan, 0);
  EXPECT_EQ(broken([&] { audit_.check(state_, 0); }), "");
  state_.finish(0, 100);
  audit_.ended(0);
  EXPECT_EQ(broken([&] { audit_.check(state_, 100); }), "");
}

TEST_F(StateAuditTest, TimeGoingBackIsNamed) {
  audit_.check(state_, 10);
  EXPECT_EQ(broken([&] { audit_.check(state_, 9.5); }), "time-monotone: the clock went back from 10 s to 9.5 s");
}

TEST_F(StateAuditTest, AJobEndingTwiceIsNamed) {
  audit_.ended(1);
  EXPECT_EQ(broken([&] { audit_.ended(1); }), "one-end: job 'half-a' ended a second time");
}

TEST_F(StateAuditTest, AJobCountedEndedMustBeFinishedOrFailed) {
  audit_.ended(3);  // "waits" still waits
  EXPECT_EQ(broken([&] { audit_.check_end(state_, false); }),
            "one-end: job 'waits' is waiting, yet its ends counted 1");
}

TEST_F(StateAuditTest, NoJobWaitsWhenNothingMoreCanHappen) {
  Plan plan;
  plan.allocate(0, {0, 1});
  state_.apply(plan, 0);
  // Cut short (--until, a guard), jobs may still wait and run; a run that ran
  // out of events may not leave any.
  EXPECT_EQ(broken([&] { audit_.check_end(state_, false); }), "");
  EXPECT_EQ(broken([&] { audit_.check_end(state_, true); }),
            "one-end: job 'whole' is still running when nothing more could happen");
}

TEST_F(StateAuditTest, WaitingJobsHoldingGpusAreSummedForTheTimeline) {
  Plan plan;
  plan.allocate(3, {0, 1});  // a partial allocation: "waits" holds 2 of its 4 GPUs
  state_.apply(plan, 10);
  audit_.check(state_, 10);
  EXPECT_DOUBLE_EQ(audit_.waiting_hold_gpu_seconds(25), 30);
}

}  // namespace
}  // namespace gcsim
