// Cutting a trace down and scaling its load: each step on a crafted trace
// whose outcome is known by hand.
#include <gtest/gtest.h>

#include <stdexcept>

#include "traces/trace_selection.hpp"
#include "traces/trace_stats.hpp"

namespace gcsim {
namespace {

JobSpec measured(const std::string& id, double submit, std::uint32_t gpus, const std::string& queue) {
  JobSpec job;
  job.id = id;
  job.submit = submit;
  job.gpus = gpus;
  job.queue = queue;
  job.work = MeasuredWork{100, "V100"};
  return job;
}

// Jobs at 0, 10, ..., 90 s; GPUs 1, 2, 4, 8, 1, 2, 4, 8, 1, 2; queues a, b alternating.
TraceReadResult ten_jobs() {
  TraceReadResult trace;
  const std::uint32_t gpus[] = {1, 2, 4, 8, 1, 2, 4, 8, 1, 2};
  for (int i = 0; i < 10; ++i) {
    trace.jobs.push_back(measured("j" + std::to_string(i), 10.0 * i, gpus[i], i % 2 ? "b" : "a"));
    trace.job_status.push_back("s" + std::to_string(i));
  }
  trace.time_origin = 1000;
  return trace;
}

std::vector<std::string> ids(const TraceReadResult& trace) {
  std::vector<std::string> out;
  for (const JobSpec& job : trace.jobs) out.push_back(job.id);
  return out;
}

TEST(TraceSelection, TheWindowKeepsFromInclusiveToUntilExclusiveAndCountsFromItsStart) {
  TraceReadResult trace = ten_jobs();
  TraceSelection selection;
  selection.from = 20;
  selection.until = 50;
  apply_trace_selection(trace, selection);
  EXPECT_EQ(ids(trace), (std::vector<std::string>{"j2", "j3", "j4"}));
  EXPECT_EQ(trace.jobs[0].submit, 0);
  EXPECT_EQ(trace.jobs[2].submit, 20);
  EXPECT_EQ(trace.job_status, (std::vector<std::string>{"s2", "s3", "s4"}));
  EXPECT_EQ(trace.time_origin, 1020);
  EXPECT_EQ(*trace.jobs_before_selection, 10u);
  ASSERT_EQ(trace.selection.size(), 1u);
  EXPECT_EQ(trace.selection[0], "window [20 s, 50 s): 3 of 10 jobs kept");
}

TEST(TraceSelection, QueueAndGpuFiltersKeepOnlyMatchingJobs) {
  TraceReadResult trace = ten_jobs();
  TraceSelection selection;
  selection.queues = {"b"};
  selection.min_gpus = 2;
  selection.max_gpus = 4;
  apply_trace_selection(trace, selection);
  // Queue b: j1 (2), j3 (8), j5 (2), j7 (8), j9 (2); of these 2..4 GPUs: j1, j5, j9.
  EXPECT_EQ(ids(trace), (std::vector<std::string>{"j1", "j5", "j9"}));
  EXPECT_EQ(trace.jobs[1].submit, 50);  // filters do not move submit times
}

TEST(TraceSelection, SamplingIsReproducibleFromItsSeed) {
  TraceReadResult big;
  for (int i = 0; i < 10000; ++i) {
    big.jobs.push_back(measured("j" + std::to_string(i), i, 1, "a"));
    big.job_status.push_back("");
  }
  TraceSelection selection;
  selection.sample = 0.3;
  selection.seed = 7;
  TraceReadResult first = big, second = big, other = big;
  apply_trace_selection(first, selection);
  apply_trace_selection(second, selection);
  selection.seed = 8;
  apply_trace_selection(other, selection);
  EXPECT_EQ(ids(first), ids(second));
  EXPECT_NE(ids(first), ids(other));
  // 3000 expected; a binomial standard deviation is about 46.
  EXPECT_NEAR(static_cast<double>(first.jobs.size()), 3000, 250);

  TraceReadResult all = ten_jobs();
  selection.sample = 1;
  apply_trace_selection(all, selection);
  EXPECT_EQ(all.jobs.size(), 10u);
}

TEST(TraceSelection, LoadScaleCompressesArrivalsAndMultipliesTheOfferedLoad) {
  TraceReadResult trace = ten_jobs();
  trace.machine_gpus = 16;
  trace.calendar_clock = true;
  const TraceStats before = compute_trace_stats(trace, nullptr);
  TraceSelection selection;
  selection.load_scale = 2;
  apply_trace_selection(trace, selection);
  EXPECT_EQ(trace.jobs[9].submit, 45);
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[9].work).seconds, 100);
  EXPECT_FALSE(trace.calendar_clock);  // scaled times are no longer calendar times
  const TraceStats after = compute_trace_stats(trace, nullptr);
  EXPECT_DOUBLE_EQ(*after.capacity->offered_load, 2 * *before.capacity->offered_load);
}

TEST(TraceSelection, InconsistentSelectionsAreRejected) {
  TraceReadResult trace = ten_jobs();
  TraceSelection empty_window;
  empty_window.from = 50;
  empty_window.until = 50;
  EXPECT_THROW(apply_trace_selection(trace, empty_window), std::invalid_argument);
  TraceSelection gpus;
  gpus.min_gpus = 8;
  gpus.max_gpus = 4;
  EXPECT_THROW(apply_trace_selection(trace, gpus), std::invalid_argument);
  TraceSelection sample;
  sample.sample = 0;
  EXPECT_THROW(apply_trace_selection(trace, sample), std::invalid_argument);
  TraceSelection scale;
  scale.load_scale = 0;
  EXPECT_THROW(apply_trace_selection(trace, scale), std::invalid_argument);
  EXPECT_EQ(trace.jobs.size(), 10u);
}

}  // namespace
}  // namespace gcsim
