// Specification of the run recorder: engine events in, a RunRecord out. The
// timeline counts GPUs held, computing and queued from hand-written events;
// busy intervals may be told ahead and cut short; fractional shares add up
// exactly; outcomes and GPU-time totals follow the jobs' starts, preemptions
// and completions.
#include "sim/report/run_recorder.hpp"

#include <memory>
#include <vector>

#include <gtest/gtest.h>

namespace gcsim {
namespace {

// Jobs as a QueueView with the runtimes a test sets.
class CraftedJobs final : public QueueView {
 public:
  explicit CraftedJobs(std::size_t count) : specs_(count), runtimes_(count), oracle_(count, 0) {}
  JobRuntime& at(JobIndex job) { return runtimes_[job]; }
  JobSpec& spec_at(JobIndex job) { return specs_[job]; }
  void set_oracle(JobIndex job, Time t) { oracle_[job] = t; }

  const std::vector<JobIndex>& waiting() const override { return none_; }
  const std::vector<JobIndex>& running() const override { return none_; }
  const std::vector<RunEvent>& run_log() const override { return no_runs_; }
  const JobSpec& spec(JobIndex job) const override { return specs_[job]; }
  const JobRuntime& runtime(JobIndex job) const override { return runtimes_[job]; }
  std::size_t job_count() const override { return specs_.size(); }
  Time oracle_duration(JobIndex job) const override { return oracle_[job]; }

 private:
  std::vector<JobSpec> specs_;
  std::vector<JobRuntime> runtimes_;
  std::vector<Time> oracle_;
  std::vector<JobIndex> none_;
  std::vector<RunEvent> no_runs_;
};

void expect_point(const TimelinePoint& p, Time time, double allocated, double busy, std::uint32_t queued) {
  EXPECT_EQ(p.time, time);
  EXPECT_EQ(p.allocated, allocated);
  EXPECT_EQ(p.busy, busy);
  EXPECT_EQ(p.queued, queued);
}

TEST(RunRecorder, OneJobQueuedThenRunThenDoneMakesThreePoints) {
  RunRecorder recorder(1, 8);
  recorder.job_submitted(0);
  recorder.allocation_changed(2, 4.0, -1);  // a plan starts the job at t=2
  recorder.job_started(0, 2, {0, 1, 2, 3});
  recorder.busy(2, 12, 4, 1.0);
  recorder.job_finished(0, 12, 4, 1.0, 40);
  const RunRecord record = recorder.finish(12, CraftedJobs(1));
  ASSERT_EQ(record.timeline.size(), 3u);
  expect_point(record.timeline[0], 0, 0, 0, 1);
  expect_point(record.timeline[1], 2, 4, 4, 0);
  expect_point(record.timeline[2], 12, 0, 0, 0);
  EXPECT_EQ(record.total_gpus, 8u);
  EXPECT_EQ(record.simulated_time, 12);
  EXPECT_EQ(record.run_gpu_seconds, 40);
  EXPECT_EQ(record.events, 1u);  // the arrival
}

TEST(RunRecorder, ChangesAtOneInstantMakeOnePointAndNoChangeMakesNone) {
  RunRecorder recorder(2, 8);
  recorder.job_submitted(0);
  recorder.job_submitted(0);
  recorder.allocation_changed(0, 2.0, -1);
  recorder.allocation_changed(5, 0.0, 0);  // a plan that changed nothing
  const RunRecord record = recorder.finish(5, CraftedJobs(2));
  ASSERT_EQ(record.timeline.size(), 1u);
  expect_point(record.timeline[0], 0, 2, 0, 1);
}

TEST(RunRecorder, BusyIntervalsToldAheadLandInTimeOrder) {
  RunRecorder recorder(1, 4);
  recorder.allocation_changed(0, 2.0, 0);
  recorder.busy(6, 9, 2, 1.0);  // a later step told first
  recorder.busy(0, 3, 2, 1.0);
  const RunRecord record = recorder.finish(9, CraftedJobs(1));
  ASSERT_EQ(record.timeline.size(), 4u);
  expect_point(record.timeline[0], 0, 2, 2, 0);
  expect_point(record.timeline[1], 3, 2, 0, 0);
  expect_point(record.timeline[2], 6, 2, 2, 0);
  expect_point(record.timeline[3], 9, 2, 0, 0);
}

TEST(RunRecorder, APreemptionCutsABusyIntervalShort) {
  RunRecorder recorder(1, 4);
  recorder.allocation_changed(0, 4.0, 0);
  recorder.busy(0, 10, 3, 1.0);  // three GPUs until 10
  recorder.busy(0, 6, 1, 1.0);   // the fourth, of a faster type, until 6
  recorder.busy_cut(10, 4, 3, 1.0);
  recorder.busy_cut(6, 4, 1, 1.0);
  recorder.busy_cut(3, 4, 2, 1.0);  // an interval already over: nothing to cut
  recorder.allocation_changed(4, -4.0, 1);
  const RunRecord record = recorder.finish(10, CraftedJobs(1));
  ASSERT_EQ(record.timeline.size(), 2u);
  expect_point(record.timeline[0], 0, 4, 4, 0);
  expect_point(record.timeline[1], 4, 0, 0, 1);
}

TEST(RunRecorder, FractionalSharesAddUpExactly) {
  RunRecorder recorder(3, 1);
  for (int job = 0; job < 3; ++job) {
    recorder.allocation_changed(0, 0.1, 0);
    recorder.busy(0, 5, 1, 0.1);
  }
  recorder.job_finished(0, 5, 1, 0.1, 0.5);
  recorder.job_finished(1, 5, 1, 0.1, 0.5);
  const RunRecord record = recorder.finish(5, CraftedJobs(3));
  ASSERT_EQ(record.timeline.size(), 2u);
  expect_point(record.timeline[0], 0, 0.3, 0.3, 0);  // 0.1 + 0.1 + 0.1 in doubles is 0.30000000000000004
  expect_point(record.timeline[1], 5, 0.1, 0, 0);
}

TEST(RunRecorder, OutcomesKeepTheFirstStartAndTheLastPlacement) {
  RunRecorder recorder(2, 8);
  recorder.allocation_changed(1, 2, 0);  // the plans that start, preempt and restart job 0
  recorder.job_started(0, 1, {0, 1});
  recorder.allocation_changed(7, -2, 0);
  recorder.job_preempted(6, 2, false);
  recorder.allocation_changed(9, 2, 0);
  recorder.job_started(0, 9, {4, 5});
  recorder.job_finished(0, 20, 2, 1.0, 22);
  CraftedJobs jobs(2);
  jobs.at(0).state = JobState::kFinished;
  jobs.at(0).preemptions = 1;
  jobs.at(1).gpus = {7};  // job 1 holds a GPU while waiting, never started
  jobs.set_oracle(0, 8);
  const RunRecord record = recorder.finish(20, jobs);
  const JobOutcome& done = record.outcomes[0];
  EXPECT_EQ(done.start, 1);
  EXPECT_EQ(done.end, 20);
  EXPECT_EQ(done.gpus, (std::vector<GpuId>{4, 5}));
  EXPECT_EQ(done.state, JobState::kFinished);
  EXPECT_EQ(done.preemptions, 1u);
  EXPECT_EQ(done.uncontended, 8);
  const JobOutcome& waiting = record.outcomes[1];
  EXPECT_EQ(waiting.start, kNever);
  EXPECT_EQ(waiting.gpus, (std::vector<GpuId>{7}));
}

TEST(RunRecorder, GpuTimeTotalsFollowPreemptionsCompletionsAndCutRuns) {
  RunRecorder recorder(3, 8);
  recorder.allocation_changed(10, 2, 0);  // the plan that started job 1
  recorder.job_preempted(30, 10, true);
  recorder.job_preempted(5, 0, false);
  recorder.job_finished(1, 50, 2, 1.0, 40);
  recorder.run_cut(7);
  recorder.job_rescaled();
  recorder.event_handled();
  const RunRecord record = recorder.finish(50, CraftedJobs(3));
  EXPECT_EQ(record.run_gpu_seconds, 82);
  EXPECT_EQ(record.lost_gpu_seconds, 10);
  EXPECT_EQ(record.restarts_from_zero, 1u);
  EXPECT_EQ(record.rescaled_jobs, 1u);
  EXPECT_EQ(record.events, 1u);
}

// Four replica slots of one deployment (slot 0 the deployment's own job),
// their engine states as its end at 100 s leaves them (retired: finished).
CraftedJobs replica_slots() {
  CraftedJobs jobs(4);
  const auto deployment = std::make_shared<ServingSpec>();
  for (JobIndex j = 0; j < 4; ++j) {
    jobs.spec_at(j).work = ServingWork{deployment, j};
    jobs.at(j).state = JobState::kFinished;
    jobs.set_oracle(j, 100);  // the deployment's length
  }
  return jobs;
}

TEST(RunRecorder, AReplicaIsTimedByItsOwnRunsFromItsFirstSubmissionToItsLastExit) {
  RunRecorder recorder(4, 8);
  recorder.replica_submitted(1, 10);
  recorder.allocation_changed(12, 1.0, 0);  // the plan that starts it holds its GPU
  recorder.job_started(1, 12, {1});
  recorder.replica_run_started(1, 12);
  recorder.replica_run_ended(1, 40);  // let go at 40 s
  recorder.replica_left(1, 40);
  recorder.allocation_changed(40, -1.0, 0);
  recorder.replica_submitted(1, 60);  // asked for again
  recorder.allocation_changed(65, 1.0, 0);
  recorder.job_started(1, 65, {2});
  recorder.replica_run_started(1, 65);
  recorder.job_finished(1, 100, 1, 1.0, 35);  // its deployment ended
  recorder.replica_run_ended(1, 100);
  const RunRecord record = recorder.finish(100, replica_slots());
  const JobOutcome& o = record.outcomes[1];
  EXPECT_EQ(o.state, JobState::kFinished);
  EXPECT_EQ(o.submitted, 10);
  EXPECT_EQ(o.start, 12);
  EXPECT_EQ(o.end, 100);
  EXPECT_EQ(o.uncontended, 28 + 35);  // not the deployment's 100 s
}

TEST(RunRecorder, AReplicaThatNeverStartedIsWaitingIfAskedForAndPendingIfNot) {
  RunRecorder recorder(4, 8);
  recorder.replica_submitted(2, 30);
  recorder.replica_left(2, 50);  // let go while waiting for GPUs
  const RunRecord record = recorder.finish(100, replica_slots());
  const JobOutcome& asked = record.outcomes[2];
  EXPECT_EQ(asked.state, JobState::kWaiting);
  EXPECT_EQ(asked.submitted, 30);
  EXPECT_EQ(asked.start, kNever);
  EXPECT_EQ(asked.end, 50);
  EXPECT_EQ(asked.uncontended, 0);
  const JobOutcome& never = record.outcomes[3];
  EXPECT_EQ(never.state, JobState::kPending);
  EXPECT_EQ(never.submitted, kNever);
  EXPECT_EQ(never.end, kNever);
  EXPECT_EQ(never.uncontended, 0);
}

TEST(RunRecorder, AReplicaRunningWhenTheRunStopsKeepsItsStateAndRunsToTheStop) {
  RunRecorder recorder(4, 8);
  recorder.replica_submitted(0, 0);
  recorder.job_started(0, 5, {0});
  recorder.replica_run_started(0, 5);
  CraftedJobs jobs = replica_slots();
  jobs.at(0).state = JobState::kRunning;
  const RunRecord record = recorder.finish(70, jobs);
  const JobOutcome& o = record.outcomes[0];
  EXPECT_EQ(o.state, JobState::kRunning);
  EXPECT_EQ(o.end, kNever);
  EXPECT_EQ(o.uncontended, 65);
}

TEST(RunRecorder, StopReportsReachTheRecord) {
  RunRecorder recorder(2, 4);
  recorder.deadlocked(DeadlockReport{3, {0, 1}});
  const RunRecord record = recorder.finish(3, CraftedJobs(2));
  ASSERT_TRUE(record.deadlock.has_value());
  EXPECT_EQ(record.deadlock->at, 3);
  EXPECT_EQ(record.deadlock->jobs, (std::vector<JobIndex>{0, 1}));
  EXPECT_FALSE(record.livelock.has_value());
  EXPECT_FALSE(record.thrashing.has_value());
}

}  // namespace
}  // namespace gcsim
