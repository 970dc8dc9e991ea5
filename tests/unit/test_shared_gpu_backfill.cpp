// fifo-backfill on workloads that share GPUs (shared_gpu_backfill.hpp):
// - its decisions equal those of a reference written from the rules, which
//   gathers every running job's expected release at each call and sorts
//   them, on seeded random workloads whose shares add up inexactly, whose
//   ends tie, whose estimates run out or are unknown;
// - a call reads the running jobs it gives back up to the shadow time, not
//   every running job: a burst of arrivals on a busy cluster costs a call
//   per arrival, and each must not cost O(running jobs).
#include "policies/fifo_backfill/shared_gpu_backfill.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policies/fifo_backfill/fifo_backfill_policy.hpp"
#include "policies/kit/room_left.hpp"
#include "policies/placement/pack_placement.hpp"
#include "sim/core/plan.hpp"
#include "tests/support/policy_bench.hpp"

namespace gcsim {
namespace {

using testing::crafted_cluster;
using testing::measured_job;

// ---- the reference: every running job's release gathered and sorted at each call ----

struct Release {
  Time end;
  JobIndex job;
  std::vector<GpuId> gpus;
};

void reference_backfill(const SchedulingContext& ctx, const PlacementPolicy& placement, Plan& plan) {
  const QueueView& jobs = ctx.jobs;
  const std::vector<bool> none_taken;
  const auto expected_end = [&](JobIndex job, Time start) {
    const Time est = FifoBackfillPolicy::estimate(jobs, job);
    return est == kNever ? kNever : std::max(ctx.now, start + est);
  };
  RoomLeft now(ctx.cluster);
  std::vector<Release> releases;
  for (JobIndex job : jobs.running())
    releases.push_back({expected_end(job, jobs.runtime(job).start), job, jobs.runtime(job).gpus});
  const auto start = [&](JobIndex job, std::vector<GpuId> gpus) {
    now.take(gpus, jobs.spec(job));
    releases.push_back({expected_end(job, ctx.now), job, gpus});
    plan.allocate(job, std::move(gpus));
  };
  // FIFO until the head.
  const std::vector<JobIndex>& waiting = jobs.waiting();
  std::size_t head_at = 0;
  for (; head_at < waiting.size(); ++head_at) {
    auto gpus = placement.place(jobs.spec(waiting[head_at]), now.view(), none_taken);
    if (!gpus) break;
    start(waiting[head_at], std::move(*gpus));
  }
  if (head_at == waiting.size()) return;
  const JobSpec& head = jobs.spec(waiting[head_at]);
  // Shadow time: releases in time order (ties: running jobs in start order,
  // then this call's), the head tried once an instant's are all given back.
  std::stable_sort(releases.begin(), releases.end(), [](const Release& a, const Release& b) { return a.end < b.end; });
  RoomLeft at_shadow = now;
  Time shadow_time = kNever;
  std::optional<std::vector<GpuId>> head_gpus;
  for (std::size_t i = 0; i < releases.size() && releases[i].end != kNever; ++i) {
    at_shadow.release(releases[i].gpus, jobs.spec(releases[i].job));
    if (i + 1 < releases.size() && releases[i + 1].end == releases[i].end) continue;
    if (at_shadow.may_fit(head) && (head_gpus = placement.place(head, at_shadow.view(), none_taken))) {
      shadow_time = releases[i].end;
      break;
    }
  }
  // Later jobs in order: those ending by the shadow time, or leaving the head room at it.
  bool refused_for_reservation = false;
  for (std::size_t i = head_at + 1; i < waiting.size() && !now.none(); ++i) {
    const JobIndex job = waiting[i];
    const JobSpec& spec = jobs.spec(job);
    if (!now.may_fit(spec)) continue;
    const Time est = FifoBackfillPolicy::estimate(jobs, job);
    const bool ends_before_shadow = shadow_time != kNever && est != kNever && ctx.now + est <= shadow_time;
    auto gpus = placement.place(spec, now.view(), none_taken);
    if (!gpus) continue;
    if (!ends_before_shadow) {
      at_shadow.take(*gpus, spec);
      auto moved = placement.place(head, at_shadow.view(), none_taken);
      if (!moved) {
        at_shadow.release(*gpus, spec);
        refused_for_reservation = true;
        continue;
      }
    }
    start(job, std::move(*gpus));
  }
  if (!refused_for_reservation || shadow_time == kNever) return;
  Time next_end = kNever;
  for (const Release& release : releases)
    if (release.end > std::max(ctx.now, shadow_time)) next_end = std::min(next_end, release.end);
  if (next_end != kNever) plan.wake_at(next_end);
}

// Wraps the reference as a policy.
class ReferenceBackfill final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "reference"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override { reference_backfill(ctx, placement_, plan); }

 private:
  PackPlacement placement_;
};

void expect_same_plans(const Plan& got, const Plan& want) {
  ASSERT_EQ(got.decisions().size(), want.decisions().size());
  for (std::size_t i = 0; i < got.decisions().size(); ++i) {
    EXPECT_EQ(got.decisions()[i].kind, want.decisions()[i].kind);
    EXPECT_EQ(got.decisions()[i].job, want.decisions()[i].job);
    EXPECT_EQ(got.decisions()[i].gpus, want.decisions()[i].gpus);
  }
  EXPECT_EQ(got.wake_time(), want.wake_time());
}

// Jobs of shares that add up inexactly (0.1 + 0.2), of few lengths (ends
// tie), some asking GPU memory. A job runs for its MeasuredWork seconds; its
// estimate is the given runtime_estimate (possibly shorter: it runs past it),
// else its oracle duration (possibly unknown).
struct RandomJobs {
  std::vector<JobSpec> jobs;
  std::vector<Time> oracle;
};

RandomJobs random_jobs(unsigned seed, std::size_t count) {
  std::mt19937 random(seed);
  const double shares[] = {0.1, 0.2, 0.3, 0.25, 0.5, 0.7, 1.0};
  RandomJobs r;
  Time submit = 0;
  for (std::size_t k = 0; k < count; ++k) {
    submit += static_cast<Time>(random() % 4);
    const Time seconds = static_cast<Time>(10 * (1 + random() % 6));  // few lengths: ends tie
    JobSpec job = measured_job("j" + std::to_string(k), 1, submit, seconds);
    job.gpu_share = shares[random() % 7];
    job.gpus = static_cast<std::uint32_t>(1 + random() % (job.gpu_share < 1 ? 2 : 4));
    if (random() % 3 == 0) job.gpu_memory_bytes = 8e9 * static_cast<double>(1 + random() % 3);
    const auto estimate_kind = random() % 4;  // 2 and 3: none given, the oracle's (known or not)
    if (estimate_kind == 0) job.runtime_estimate = seconds;
    if (estimate_kind == 1) job.runtime_estimate = seconds / 2;  // runs past its estimate: overdue
    r.oracle.push_back(random() % 5 == 0 ? kNever : seconds);
    r.jobs.push_back(std::move(job));
  }
  return r;
}

// Each call is asked of the policy and of the reference on the same state;
// the policy's plan is applied.
TEST(SharedGpuBackfill, DecidesAsTheReferenceOnRandomWorkloads) {
  const ClusterSpec spec = crafted_cluster(2, 4);
  const ClusterLayout layout(spec);
  const ClusterGraph graph(layout);
  std::size_t calls_with_a_head = 0, wakes = 0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    const RandomJobs r = random_jobs(seed, 60);
    SchedulerState state(layout, graph, r.jobs, r.oracle);
    FifoBackfillPolicy policy(std::make_unique<PackPlacement>());
    ReferenceBackfill reference;
    std::vector<Time> end(r.jobs.size(), kNever);
    std::size_t submitted = 0, finished = 0;
    Time wake = kNever;
    while (finished < r.jobs.size()) {
      Time now = wake;
      if (submitted < r.jobs.size()) now = std::min(now, r.jobs[submitted].submit);
      for (JobIndex j : state.running()) now = std::min(now, end[j]);
      ASSERT_NE(now, kNever) << "nothing left to happen";
      const std::vector<JobIndex> running = state.running();
      for (JobIndex j : running)
        if (end[j] <= now) {
          state.finish(j, now);
          ++finished;
        }
      for (; submitted < r.jobs.size() && r.jobs[submitted].submit <= now; ++submitted) state.submit(submitted);
      Plan plan, want;
      policy.schedule({now, state, state}, plan);
      reference.schedule({now, state, state}, want);
      expect_same_plans(plan, want);
      if (::testing::Test::HasFailure()) return;
      if (plan.decisions().size() < state.waiting().size()) ++calls_with_a_head;
      if (plan.wake_time() != kNever) ++wakes;
      for (JobIndex j : state.apply(plan, now).started) end[j] = now + std::get<MeasuredWork>(r.jobs[j].work).seconds;
      wake = plan.wake_time() > now ? plan.wake_time() : kNever;
    }
  }
  // The workloads do exercise reservations and wake-ups.
  EXPECT_GT(calls_with_a_head, 500u);
  EXPECT_GT(wakes, 10u);
}

// ---- a call reads the releases up to the shadow time, not every running job ----------

// The scheduler state, counting the running jobs' records read.
class CountingJobs final : public QueueView {
 public:
  explicit CountingJobs(const QueueView& jobs) : jobs_(jobs) {}
  const std::vector<JobIndex>& waiting() const override { return jobs_.waiting(); }
  const std::vector<JobIndex>& running() const override { return jobs_.running(); }
  const std::vector<RunEvent>& run_log() const override { return jobs_.run_log(); }
  const JobSpec& spec(JobIndex job) const override { return jobs_.spec(job); }
  const JobRuntime& runtime(JobIndex job) const override {
    if (jobs_.runtime(job).state == JobState::kRunning) ++running_read;
    return jobs_.runtime(job);
  }
  std::size_t job_count() const override { return jobs_.job_count(); }
  Time oracle_duration(JobIndex job) const override { return jobs_.oracle_duration(job); }
  mutable std::size_t running_read = 0;

 private:
  const QueueView& jobs_;
};

// 64 GPUs, each shared by four quarter-GPU jobs: 256 running, the k-th
// ending at 100 + k. The head (a whole GPU, at 1) fits once GPU 0's four
// (jobs 0-3) are gone: shadow time 103. A job arriving at 2 finds no room
// left. Its call gives back those four (and looks at the fifth) but reads
// no other running job.
TEST(SharedGpuBackfill, ACallReadsTheRunningJobsUpToTheShadowTimeOnly) {
  std::vector<JobSpec> jobs;
  for (int k = 0; k < 256; ++k) {
    JobSpec job = measured_job("q" + std::to_string(k), 1, 0, 100 + k);
    job.gpu_share = 0.25;
    job.runtime_estimate = 100 + k;
    jobs.push_back(job);
  }
  jobs.push_back(measured_job("head", 1, 1));
  jobs.push_back(measured_job("late", 1, 2));
  const JobIndex head = 256;
  testing::PolicyBench bench(crafted_cluster(8, 8), jobs);
  FifoBackfillPolicy policy(std::make_unique<PackPlacement>());
  for (JobIndex j = 0; j < 256; ++j) bench.submit(j);
  ASSERT_EQ(bench.step(policy).started.size(), 256u);
  EXPECT_EQ(bench.state().runtime(3).gpus, (std::vector<GpuId>{0}));
  bench.now = 1;
  bench.submit(head);
  EXPECT_TRUE(bench.step(policy).started.empty());

  bench.now = 2;
  bench.submit(head + 1);
  CountingJobs counting(bench.state());
  Plan plan;
  policy.schedule({bench.now, bench.state(), counting}, plan);
  EXPECT_TRUE(plan.decisions().empty());
  EXPECT_LE(counting.running_read, 5u);
}

}  // namespace
}  // namespace gcsim
