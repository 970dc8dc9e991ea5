// Specification of the run metrics: percentiles interpolated linearly
// between order statistics, JCT and waiting time over finished jobs, job
// outcomes counted, and utilization integrated over time by hand-checkable
// step functions.
#include "sim/report/run_metrics.hpp"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/report/qos_metrics.hpp"

namespace gcsim {
namespace {

// ---- run records ------------------------------------------------------------------------

JobSpec submitted_at(Time submit) {
  JobSpec job;
  job.id = "j";
  job.submit = submit;
  return job;
}

JobOutcome outcome(JobState state, Time start, Time end) {
  JobOutcome o;
  o.state = state;
  o.start = start;
  o.end = end;
  return o;
}

// Three finished jobs:
//   job  submit  start  end    wait  JCT
//   0    0       2      10     2     10
//   1    1       5      20     4     19
//   2    4       4      31     0     27
struct ThreeFinishedJobs {
  std::vector<JobSpec> jobs{submitted_at(0), submitted_at(1), submitted_at(4)};
  RunRecord record;
  ThreeFinishedJobs() {
    record.total_gpus = 4;
    record.outcomes = {outcome(JobState::kFinished, 2, 10), outcome(JobState::kFinished, 5, 20),
                       outcome(JobState::kFinished, 4, 31)};
    record.simulated_time = 31;
  }
};

TEST(RunMetrics, JobCompletionTimeIsEndMinusSubmit) {
  const ThreeFinishedJobs run;
  const RunMetrics m = compute_run_metrics(run.jobs, run.record);
  EXPECT_EQ(m.jct.count, 3u);
  EXPECT_DOUBLE_EQ(m.jct.mean, (10 + 19 + 27) / 3.0);
  EXPECT_DOUBLE_EQ(m.jct.p50, 19);
  EXPECT_DOUBLE_EQ(m.jct.max, 27);
}

// Stopped at 50: job 0 finished (0 -> 20, started at 5); job 1 runs since
// 30 (submitted 10); job 2 waits since 40; job 3 is submitted at 60, after
// the stop; job 4 waits for a dependency (never joined the queue).
TEST(RunMetrics, CensoredFiguresCountTheJobsCutByTheStopAtTheStop) {
  std::vector<JobSpec> jobs{submitted_at(0), submitted_at(10), submitted_at(40), submitted_at(60), submitted_at(0)};
  RunRecord record;
  record.simulated_time = 50;
  record.outcomes = {outcome(JobState::kFinished, 5, 20), outcome(JobState::kRunning, 30, kNever),
                     outcome(JobState::kWaiting, kNever, kNever), outcome(JobState::kPending, kNever, kNever),
                     outcome(JobState::kPending, kNever, kNever)};
  record.outcomes[0].submitted = 0;
  record.outcomes[1].submitted = 10;
  record.outcomes[2].submitted = 40;
  const RunMetrics m = compute_run_metrics(jobs, record);
  EXPECT_EQ(m.jct.count, 1u);
  EXPECT_EQ(m.censored, 2u);
  EXPECT_EQ(m.jct_censored.count, 3u);
  EXPECT_DOUBLE_EQ(m.jct_censored.mean, (20 + 40 + 10) / 3.0);  // 20; 50 - 10; 50 - 40
  EXPECT_DOUBLE_EQ(m.jct_censored.max, 40);
  EXPECT_DOUBLE_EQ(m.wait_censored.mean, (5 + 20 + 10) / 3.0);  // 5; 30 - 10; 50 - 40
}

TEST(RunMetrics, CensoredFiguresEqualTheFinishedOnesWhenNothingIsCut) {
  const ThreeFinishedJobs run;
  const RunMetrics m = compute_run_metrics(run.jobs, run.record);
  EXPECT_EQ(m.censored, 0u);
  EXPECT_EQ(m.jct_censored.count, m.jct.count);
  EXPECT_DOUBLE_EQ(m.jct_censored.mean, m.jct.mean);
  EXPECT_DOUBLE_EQ(m.wait_censored.p95, m.wait.p95);
}

// The same three jobs, job 1 a serving replica (spot): it held GPUs from 5
// to 20 s but completes nothing, so the QoS classes' means leave it out, as
// the JCT figures do; it still counts among the spot jobs and finished ones.
TEST(QosMetrics, MeansLeaveServingReplicasOutAsTheJctFiguresDo) {
  ThreeFinishedJobs run;
  run.jobs[1].work = ServingWork{std::make_shared<ServingSpec>(), 1};
  run.jobs[1].qos = QosClass::kSpot;
  run.jobs[2].qos = QosClass::kSpot;
  const QosMetrics m = compute_qos_metrics(run.jobs, run.record);
  EXPECT_EQ(m.spot.jobs, 2u);
  EXPECT_EQ(m.spot.finished, 2u);
  EXPECT_DOUBLE_EQ(m.spot.jct_mean_s, 27);  // job 2's alone
  EXPECT_DOUBLE_EQ(m.spot.queueing_delay_mean_s, 0);
  EXPECT_DOUBLE_EQ(compute_run_metrics(run.jobs, run.record).jct.mean, (10 + 27) / 2.0);
}

TEST(RunMetrics, WaitIsStartMinusSubmit) {
  const ThreeFinishedJobs run;
  const RunMetrics m = compute_run_metrics(run.jobs, run.record);
  EXPECT_EQ(m.wait.count, 3u);
  EXPECT_DOUBLE_EQ(m.wait.mean, 2);
  EXPECT_DOUBLE_EQ(m.wait.p50, 2);
  EXPECT_DOUBLE_EQ(m.wait.max, 4);
}

TEST(RunMetrics, MakespanRunsFromFirstSubmitToLastEnd) {
  ThreeFinishedJobs run;
  run.jobs[0].submit = 0.5;
  const RunMetrics m = compute_run_metrics(run.jobs, run.record);
  EXPECT_DOUBLE_EQ(m.first_submit, 0.5);
  EXPECT_DOUBLE_EQ(m.last_end, 31);
  EXPECT_DOUBLE_EQ(m.makespan, 30.5);
}

TEST(RunMetrics, CountsFinishedFailedAndUnfinishedJobs) {
  const std::vector<JobSpec> jobs{submitted_at(0), submitted_at(0), submitted_at(0), submitted_at(0), submitted_at(0)};
  RunRecord record;
  record.total_gpus = 4;
  record.outcomes = {outcome(JobState::kFinished, 1, 5), outcome(JobState::kFailed, 2, 3),
                     outcome(JobState::kRunning, 4, kNever), outcome(JobState::kWaiting, kNever, kNever),
                     outcome(JobState::kPending, kNever, kNever)};
  record.simulated_time = 50;
  const RunMetrics m = compute_run_metrics(jobs, record);
  EXPECT_EQ(m.jobs, 5u);
  EXPECT_EQ(m.finished, 1u);
  EXPECT_EQ(m.failed, 1u);
  EXPECT_EQ(m.unfinished, 3u);
  // Only the finished job has a JCT and a wait.
  EXPECT_EQ(m.jct.count, 1u);
  EXPECT_DOUBLE_EQ(m.jct.mean, 5);
  EXPECT_EQ(m.wait.count, 1u);
  EXPECT_DOUBLE_EQ(m.wait.mean, 1);
}

TEST(RunMetrics, FailedJobsEndExtendsTheMakespan) {
  const std::vector<JobSpec> jobs{submitted_at(0), submitted_at(0)};
  RunRecord record;
  record.outcomes = {outcome(JobState::kFinished, 0, 5), outcome(JobState::kFailed, 1, 12)};
  record.simulated_time = 40;
  const RunMetrics m = compute_run_metrics(jobs, record);
  EXPECT_DOUBLE_EQ(m.last_end, 12);
  EXPECT_DOUBLE_EQ(m.makespan, 12);
}

TEST(RunMetrics, WithoutAnyEndTheMakespanRunsToTheEndOfTheSimulation) {
  const std::vector<JobSpec> jobs{submitted_at(2)};
  RunRecord record;
  record.outcomes = {outcome(JobState::kRunning, 3, kNever)};
  record.simulated_time = 40;
  const RunMetrics m = compute_run_metrics(jobs, record);
  EXPECT_DOUBLE_EQ(m.last_end, 40);
  EXPECT_DOUBLE_EQ(m.makespan, 38);
  EXPECT_EQ(m.jct.count, 0u);
}

TEST(RunMetrics, NoJobsGiveZeroMetrics) {
  const RunMetrics m = compute_run_metrics({}, RunRecord{});
  EXPECT_EQ(m.jobs, 0u);
  EXPECT_EQ(m.makespan, 0);
  EXPECT_EQ(m.allocated_share, 0);
  EXPECT_EQ(m.busy_share, 0);
}

// ---- utilization -------------------------------------------------------------------------

// 4 GPUs over a 20 s makespan: 2 allocated (1 busy) for 10 s, then 4
// allocated (3 busy) for 10 s.
//   allocated: (2*10 + 4*10) / (4*20) = 60/80 = 0.75
//   busy:      (1*10 + 3*10) / (4*20) = 40/80 = 0.5
RunRecord two_phase_record() {
  RunRecord record;
  record.total_gpus = 4;
  record.outcomes = {outcome(JobState::kFinished, 0, 20)};
  record.timeline = {{0, 2, 1}, {10, 4, 3}, {20, 0, 0}};
  record.simulated_time = 20;
  return record;
}

TEST(Utilization, AllocatedShareIsTimeWeighted) {
  const RunMetrics m = compute_run_metrics({submitted_at(0)}, two_phase_record());
  EXPECT_DOUBLE_EQ(m.allocated_share, 0.75);
}

TEST(Utilization, BusyShareIsTimeWeighted) {
  const RunMetrics m = compute_run_metrics({submitted_at(0)}, two_phase_record());
  EXPECT_DOUBLE_EQ(m.busy_share, 0.5);
}

TEST(Utilization, GpuHoursAreGpuSecondsOver3600) {
  const RunMetrics m = compute_run_metrics({submitted_at(0)}, two_phase_record());
  EXPECT_DOUBLE_EQ(m.gpu_hours_allocated, 60.0 / 3600);
  EXPECT_DOUBLE_EQ(m.gpu_hours_busy, 40.0 / 3600);
}

TEST(Utilization, LastPointHoldsUntilTheLastEnd) {
  RunRecord record = two_phase_record();
  record.timeline.pop_back();  // 4 allocated from 10 s on, with no closing point
  const RunMetrics m = compute_run_metrics({submitted_at(0)}, record);
  EXPECT_DOUBLE_EQ(m.allocated_share, 0.75);
}

// Only [first submit, last end] = [10, 30] counts: the 4 GPUs held from 0 s
// to 10 s and after 30 s are outside the window.
//   allocated: (2*10 + 1*10) / (4*20) = 30/80
TEST(Utilization, OnlyTheMakespanWindowCounts) {
  RunRecord record;
  record.total_gpus = 4;
  record.outcomes = {outcome(JobState::kFinished, 10, 30)};
  record.timeline = {{0, 4, 4}, {10, 2, 2}, {20, 1, 1}, {30, 4, 4}, {50, 0, 0}};
  record.simulated_time = 50;
  const RunMetrics m = compute_run_metrics({submitted_at(10)}, record);
  EXPECT_DOUBLE_EQ(m.makespan, 20);
  EXPECT_DOUBLE_EQ(m.allocated_share, 30.0 / 80);
  EXPECT_DOUBLE_EQ(m.busy_share, 30.0 / 80);
}

// ---- preemptions ------------------------------------------------------------------------

// Runs held 1800 GPU-s; preemptions threw 400 of them away, one of the two
// restarting a job from zero: 1400 useful, a lost share of 400 / 1800.
TEST(LostWork, RunsSplitIntoLostAndUsefulGpuTime) {
  RunRecord record;
  record.outcomes = {outcome(JobState::kFinished, 0, 450)};
  record.outcomes[0].preemptions = 2;
  record.run_gpu_seconds = 1800;
  record.lost_gpu_seconds = 400;
  record.restarts_from_zero = 1;
  const RunMetrics m = compute_run_metrics({submitted_at(0)}, record);
  EXPECT_EQ(m.preemptions, 2u);
  EXPECT_EQ(m.restarts_from_zero, 1u);
  EXPECT_DOUBLE_EQ(m.gpu_hours_lost, 400.0 / 3600);
  EXPECT_DOUBLE_EQ(m.gpu_hours_useful, 1400.0 / 3600);
  EXPECT_DOUBLE_EQ(m.lost_share, 400.0 / 1800);
}

TEST(LostWork, WithoutRunsNothingIsLostOrUseful) {
  RunRecord record;
  record.outcomes = {outcome(JobState::kWaiting, kNever, kNever)};
  const RunMetrics m = compute_run_metrics({submitted_at(0)}, record);
  EXPECT_EQ(m.gpu_hours_lost, 0);
  EXPECT_EQ(m.gpu_hours_useful, 0);
  EXPECT_EQ(m.lost_share, 0);
}

}  // namespace
}  // namespace gcsim
