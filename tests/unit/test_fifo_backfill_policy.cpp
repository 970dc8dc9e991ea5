// Specification of fifo-backfill (EASY backfilling): jobs start in order
// until the head blocks; the head's reservation is the shadow time and the
// extra GPUs; a later job starts if it ends by the shadow time or fits in the
// extra GPUs; estimates are runtime_estimate, else the oracle duration; the
// head never starts later than under plain FIFO when estimates are exact.
#include "policies/fifo_backfill/fifo_backfill_policy.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policies/fifo/fifo_policy.hpp"
#include "policies/placement/pack_placement.hpp"
#include "policies/register_builtin.hpp"
#include "sim/core/cluster_layout.hpp"
#include "sim/core/plan.hpp"
#include "sim/state/scheduler_state.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "tests/support/crafted_specs.hpp"

namespace gcsim {
namespace {

using Gpus = std::vector<GpuId>;
using Jobs = std::vector<JobIndex>;

// ---- the reservation, in GPU counts ---------------------------------------------------

struct ReservationCase {
  const char* what;
  Time now;
  std::size_t free_now, need;
  std::vector<ExpectedRelease> releases;
  Time shadow_time;
  std::size_t extra;
  KeptReleases kept = {};
};

void expect_reservations(const std::vector<ReservationCase>& cases) {
  for (const ReservationCase& c : cases) {
    SCOPED_TRACE(c.what);
    const HeadReservation r = reserve_for_head(c.now, c.free_now, c.need, c.releases, c.kept);
    EXPECT_EQ(r.shadow_time, c.shadow_time);
    EXPECT_EQ(r.extra, c.extra);
  }
}

TEST(ReserveForHead, ShadowTimeIsTheFirstExpectedEndThatFreesEnoughGpus) {
  const std::vector<ReservationCase> cases = {
      // 2 free + 6 at 100 = 8 = need: nothing extra.
      {"all released at once", 0, 2, 8, {{100, 6}}, 100, 0},
      // 3 free + 4 at 100 = 7 >= 5: 2 extra; the release at 300 is not needed.
      {"first release suffices", 0, 3, 5, {{100, 4}, {300, 1}}, 100, 2},
      {"releases in any order", 0, 3, 5, {{300, 1}, {100, 4}}, 100, 2},
      // 1 + 2 at 50 = 3 < 4; + 4 at 80 = 7: 3 extra.
      {"several releases needed", 0, 1, 4, {{50, 2}, {80, 4}, {90, 8}}, 80, 3},
      // Both releases at 50 count at the shadow time: 0 + 2 + 4 - 4 = 2.
      {"simultaneous releases all count", 0, 0, 4, {{50, 2}, {50, 4}}, 50, 2},
      // Enough free already (only the placement blocks the head): shadow now.
      {"enough free now", 10, 5, 4, {{100, 4}}, 10, 1},
      // A job with no estimate never releases: no shadow time.
      {"unknown end never releases", 0, 1, 4, {{100, 2}, {kNever, 4}}, kNever, 0},
      {"nothing running", 0, 1, 4, {}, kNever, 0},
      // Simultaneous releases apart in the list, among later and unknown
      // ones: 1 + 1 at 40 = 2 < 6; + 2 + 3 at 60 = 7: 1 extra.
      {"simultaneous releases apart in the list", 0, 1, 6, {{60, 2}, {kNever, 8}, {90, 8}, {40, 1}, {60, 3}}, 60, 1},
      // The known releases do not suffice: the unknown ones never come.
      {"known releases short of the need", 0, 0, 6, {{kNever, 8}, {20, 2}, {kNever, 1}, {30, 3}}, kNever, 0},
  };
  expect_reservations(cases);
}

TEST(ReserveForHead, KeptReleasesCountBesideTheListedOnesAndThosePastCountNow) {
  expect_reservations({
      // 1 free + 2 kept at 50 = 3 < 5; + 1 listed and 3 kept at 80 = 7: 2 extra.
      {"listed and kept at one instant", 0, 1, 5, {{80, 1}}, 80, 2, {{50, 2}, {80, 3}, {120, 8}}},
      // At 100, the kept ends at 40 and 70 have passed: 0 + 1 + 2 at once, with
      // the listed release at 100 (its end is now): 1 + 2 + 1 = 4 >= 4.
      {"past kept ends count now", 100, 0, 4, {{100, 1}}, 100, 0, {{40, 1}, {70, 2}, {300, 5}}},
      // Only the kept unknown ends could do it: never.
      {"kept unknown ends never come", 0, 0, 4, {{20, 1}}, kNever, 0, {{30, 2}, {kNever, 9}}},
      {"kept alone", 10, 2, 6, {}, 25, 0, {{15, 1}, {25, 3}, {35, 3}}},
  });
}

// ---- the policy on a crafted cluster --------------------------------------------------

// One rack of `nodes` nodes with 4 GPUs each, all A100 80 GB, unless a V100
// (16 GB) node comes first.
ClusterSpec rack(std::uint32_t nodes, bool v100_first = false) {
  ClusterSpec spec;
  spec.name = "rack";
  spec.gpu_types = {GpuType{"A100", 312e12, 80e9}, GpuType{"V100", 125e12, 16e9}};
  if (v100_first) spec.node_groups.push_back(testing::crafted_node_group("v", 1, 4, "V100"));
  spec.node_groups.push_back(testing::crafted_node_group("a", nodes, 4, "A100"));
  spec.fabric.nodes_per_rack = v100_first ? nodes + 1 : nodes;
  return spec;
}

JobSpec job(const std::string& id, std::uint32_t gpus, Time submit, Time estimate, double memory = 0) {
  JobSpec spec;
  spec.id = id;
  spec.gpus = gpus;
  spec.submit = submit;
  spec.runtime_estimate = estimate;
  spec.gpu_memory_bytes = memory;
  spec.work = MeasuredWork{estimate > 0 ? estimate : 1.0, "A100"};
  return spec;
}

class BackfillTest : public ::testing::Test {
 protected:
  void set_up(ClusterSpec spec, std::vector<JobSpec> jobs, std::vector<Time> oracle = {}) {
    layout_ = std::make_unique<ClusterLayout>(std::move(spec));
    graph_ = std::make_unique<ClusterGraph>(*layout_);
    jobs_ = std::move(jobs);
    state_ = std::make_unique<SchedulerState>(*layout_, *graph_, jobs_, std::move(oracle));
  }

  // Job `j` starts at `at` on these GPUs.
  void run(JobIndex j, Gpus gpus, Time at) {
    state_->submit(j);
    Plan plan;
    plan.allocate(j, std::move(gpus));
    state_->apply(plan, at);
  }

  void submit(const Jobs& jobs) {
    for (JobIndex j : jobs) state_->submit(j);
  }

  Plan schedule() {
    Plan plan;
    backfill_.schedule(SchedulingContext{now_, *state_, *state_}, plan);
    return plan;
  }

  static Jobs jobs_of(const Plan& plan) {
    Jobs jobs;
    for (const Decision& d : plan.decisions()) {
      EXPECT_EQ(d.kind, Decision::Kind::kAllocate);
      jobs.push_back(d.job);
    }
    return jobs;
  }

  Time now_ = 10.0;
  FifoBackfillPolicy backfill_{std::make_unique<PackPlacement>()};
  std::unique_ptr<ClusterLayout> layout_;
  std::unique_ptr<ClusterGraph> graph_;
  std::vector<JobSpec> jobs_;
  std::unique_ptr<SchedulerState> state_;
};

// 8 GPUs. `a` (6 GPUs, estimate 100) started at 0: expected end 100. The head
// needs all 8: shadow time 100, 2 + 6 - 8 = 0 extra. At now = 10 two GPUs
// (6, 7) are free.
class HeadNeedsEverything : public BackfillTest {
 protected:
  void set_up_with(JobSpec later) {
    set_up(rack(2), {job("a", 6, 0, 100), job("head", 8, 1, 50), std::move(later)});
    run(0, {0, 1, 2, 3, 4, 5}, 0);
    submit({1, 2});
  }
};

TEST_F(HeadNeedsEverything, LaterShortJobBackfillsBeforeTheShadowTime) {
  set_up_with(job("short", 2, 2, 50));  // ends at 10 + 50 = 60 <= 100
  const Plan plan = schedule();
  ASSERT_EQ(jobs_of(plan), (Jobs{2}));
  EXPECT_EQ(plan.decisions()[0].gpus, (Gpus{6, 7}));
  EXPECT_EQ(plan.wake_time(), kNever);
}

TEST_F(HeadNeedsEverything, LaterJobEndingExactlyAtTheShadowTimeBackfills) {
  set_up_with(job("exact", 2, 2, 90));  // 10 + 90 = 100
  EXPECT_EQ(jobs_of(schedule()), (Jobs{2}));
}

TEST_F(HeadNeedsEverything, LaterLongJobThatWouldDelayTheHeadWaits) {
  set_up_with(job("long", 2, 2, 200));  // 10 + 200 = 210 > 100, and no extra GPU
  const Plan plan = schedule();
  EXPECT_TRUE(plan.decisions().empty());
  // No running job ends after the shadow time: waiting cannot make room.
  EXPECT_EQ(plan.wake_time(), kNever);
}

// 8 GPUs. Running: `a` 4 GPUs (0-3) until 100, `b` 1 GPU (4) until 300; free
// 5, 6, 7. The head needs 5: 3 free + 4 at 100 = 7, so shadow time 100 and 2
// extra GPUs.
//   long-2  2 GPUs, estimate 1000: ends after 100 but fits in the 2 extra -> starts (5, 6); 0 extra left
//   long-1  1 GPU,  estimate 1000: 1 GPU free but no extra left           -> waits
//   short-1 1 GPU,  estimate 50:   ends at 60 <= 100                      -> starts (7)
TEST_F(BackfillTest, JobUsingOnlyExtraGpusBackfillsEvenIfLong) {
  set_up(rack(2), {job("a", 4, 0, 100), job("b", 1, 0, 300), job("head", 5, 1, 50), job("long-2", 2, 2, 1000),
                   job("long-1", 1, 3, 1000), job("short-1", 1, 4, 50)});
  run(0, {0, 1, 2, 3}, 0);
  run(1, {4}, 0);
  submit({2, 3, 4, 5});
  const Plan plan = schedule();
  ASSERT_EQ(jobs_of(plan), (Jobs{3, 5}));
  EXPECT_EQ(plan.decisions()[0].gpus, (Gpus{5, 6}));
  EXPECT_EQ(plan.decisions()[1].gpus, (Gpus{7}));
  // long-1 was refused for the reservation; b's expected end (300) is the
  // first after the shadow time: if b outlives it, its GPU becomes extra.
  EXPECT_EQ(plan.wake_time(), 300);
}

// The estimate is runtime_estimate when given, else the oracle duration.
// Same cluster as HeadNeedsEverything: a later 2-GPU job backfills iff
// 10 + estimate <= 100.
TEST_F(BackfillTest, EstimateIsTheUserEstimateElseTheOracleDuration) {
  struct Case {
    const char* what;
    Time runtime_estimate, oracle;
    bool backfills;
  };
  const std::vector<Case> cases = {
      {"no estimate, short oracle", 0, 50, true},
      {"no estimate, long oracle", 0, 200, false},
      {"estimate wins over a short oracle", 500, 50, false},
      {"estimate wins over a long oracle", 50, 500, true},
      {"neither: unknown, never before the shadow time", 0, kNever, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    set_up(rack(2), {job("a", 6, 0, 100), job("head", 8, 1, 50), job("later", 2, 2, c.runtime_estimate)},
           {kNever, kNever, c.oracle});
    run(0, {0, 1, 2, 3, 4, 5}, 0);
    submit({1, 2});
    EXPECT_EQ(jobs_of(schedule()), c.backfills ? Jobs{2} : Jobs{});
  }
}

// A running job past its expected end is expected to end now: at now = 150,
// `a` (estimate 100) still runs, so the shadow time is 150 and a 2-GPU job
// of estimate 10 (ends 160) may not start.
TEST_F(BackfillTest, OverdueRunningJobIsExpectedToEndNow) {
  set_up(rack(2), {job("a", 6, 0, 100), job("head", 8, 1, 50), job("short", 2, 2, 10)});
  run(0, {0, 1, 2, 3, 4, 5}, 0);
  submit({1, 2});
  now_ = 150;
  EXPECT_TRUE(schedule().decisions().empty());
}

// Node 0: four 16 GB V100 (0-3); node 1: four 80 GB A100 (4-7), held by `a`
// until 100. The head needs 4 GPUs of 40 GB: only the A100 count, so its
// shadow time is 100 with no extra. A long job without a memory request
// goes to the V100, which the head cannot use: it never delays the head.
TEST_F(BackfillTest, JobOnGpusTheHeadCannotUseBackfillsEvenIfLong) {
  set_up(rack(1, /*v100_first=*/true), {job("a", 4, 0, 100), job("head", 4, 1, 50, 40e9), job("long", 4, 2, 1000)});
  run(0, {4, 5, 6, 7}, 0);
  submit({1, 2});
  const Plan plan = schedule();
  ASSERT_EQ(jobs_of(plan), (Jobs{2}));
  EXPECT_EQ(plan.decisions()[0].gpus, (Gpus{0, 1, 2, 3}));
}

TEST_F(BackfillTest, JobsThatFitStartInSubmissionOrderLikeFifo) {
  set_up(rack(2), {job("c", 2, 3, 10), job("a", 4, 1, 10), job("b", 2, 2, 10)});
  submit({0, 1, 2});
  const Plan plan = schedule();
  EXPECT_EQ(jobs_of(plan), (Jobs{1, 2, 0}));
  EXPECT_EQ(plan.wake_time(), kNever);
}

// Jobs started in the same call count in the reservation: `first` takes 6
// GPUs now (ends 10 + 100 = 110), so the head (8 GPUs) has shadow time 110
// and no extra GPU; a 2-GPU job of estimate 101 would end at 111 and waits,
// the next one, of estimate 100, ends at 110 and starts.
TEST_F(BackfillTest, JobsStartedInTheSameCallCountInTheReservation) {
  set_up(rack(2), {job("first", 6, 0, 100), job("head", 8, 1, 50), job("late", 2, 2, 101), job("fits", 2, 3, 100)});
  submit({0, 1, 2, 3});
  EXPECT_EQ(jobs_of(schedule()), (Jobs{0, 3}));
}

TEST_F(BackfillTest, NeverPreempts) {
  set_up(rack(1), {job("a", 4, 0, 100), job("head", 4, 1, 1), job("tiny", 1, 2, 1)});
  run(0, {0, 1, 2, 3}, 0);
  submit({1, 2});
  const Plan plan = schedule();
  for (const Decision& d : plan.decisions()) EXPECT_NE(d.kind, Decision::Kind::kPreempt);
  EXPECT_TRUE(plan.decisions().empty());
}

// ---- the head is never delayed: whole runs replayed on the scheduler state ------------

// Runs every job for exactly its estimate: submissions, plans applied,
// finishes via state.finish, wake-ups honoured. Returns each job's start.
std::vector<Time> replay(SchedulingPolicy& policy, const ClusterLayout& layout, const Locality& locality,
                         const std::vector<JobSpec>& jobs) {
  SchedulerState state(layout, locality, jobs);
  std::vector<Time> start(jobs.size(), kNever), end(jobs.size(), kNever);
  std::vector<bool> submitted(jobs.size(), false);
  Time wake = kNever;
  for (std::size_t finished = 0; finished < jobs.size();) {
    Time now = wake;
    for (JobIndex j = 0; j < jobs.size(); ++j) {
      if (!submitted[j]) now = std::min(now, jobs[j].submit);
      if (state.runtime(j).state == JobState::kRunning) now = std::min(now, end[j]);
    }
    if (now == kNever) break;  // nothing can happen any more
    for (JobIndex j = 0; j < jobs.size(); ++j)
      if (state.runtime(j).state == JobState::kRunning && end[j] <= now) {
        state.finish(j, now);
        ++finished;
      }
    for (JobIndex j = 0; j < jobs.size(); ++j)
      if (!submitted[j] && jobs[j].submit <= now) {
        state.submit(j);
        submitted[j] = true;
      }
    Plan plan;
    policy.schedule(SchedulingContext{now, state, state}, plan);
    for (JobIndex j : state.apply(plan, now).started) {
      start[j] = now;
      end[j] = now + jobs[j].runtime_estimate;
    }
    wake = plan.wake_time() > now ? plan.wake_time() : kNever;
  }
  return start;
}

// 8 GPUs, exact estimates:
//   a    t=0  4 GPUs, 100 s   starts 0 (ends 100)
//   head t=1  8 GPUs,  50 s   blocked: shadow time 100, no extra GPU
//   s1   t=2  2 GPUs,  90 s   ends 92 <= 100: backfills at 2
//   long t=3  2 GPUs, 200 s   would end 203 > 100: waits
//   s2   t=5  2 GPUs,  95 s   ends 100 <= 100: backfills at 5
// At 92 s1 ends: the head still needs a's GPUs and long still waits. At 100
// a and s2 end: the head starts, as under FIFO; long follows it at 150.
// Under FIFO everything behind the head starts at 150.
TEST(EasyBackfillReplay, HeadIsNeverDelayedAndShortJobsBackfill) {
  ClusterSpec spec = rack(2);
  const ClusterLayout layout(spec);
  const ClusterGraph graph(layout);
  const std::vector<JobSpec> jobs = {job("a", 4, 0, 100), job("head", 8, 1, 50), job("s1", 2, 2, 90),
                                     job("long", 2, 3, 200), job("s2", 2, 5, 95)};
  FifoBackfillPolicy backfill(std::make_unique<PackPlacement>());
  FifoPolicy fifo(std::make_unique<PackPlacement>());
  const std::vector<Time> with_backfill = replay(backfill, layout, graph, jobs);
  const std::vector<Time> with_fifo = replay(fifo, layout, graph, jobs);
  EXPECT_EQ(with_backfill, (std::vector<Time>{0, 100, 2, 150, 5}));
  EXPECT_EQ(with_fifo, (std::vector<Time>{0, 100, 150, 150, 150}));
}

// A stream of short jobs that each fit before the shadow time never pushes
// the head past it: 8 GPUs, `a` holds 6 until 100, the head needs 8; a
// 2-GPU job of 30 s arrives every 10 s from t = 2. The two free GPUs run s0
// (2..32), then s1 (32..62), then s2 (62..92), in queue order; s3 would end
// at 122 > 100 and waits. The head starts at 100, as under FIFO.
TEST(EasyBackfillReplay, StreamOfShortJobsNeverDelaysTheHead) {
  const ClusterLayout layout(rack(2));
  const ClusterGraph graph(layout);
  std::vector<JobSpec> jobs = {job("a", 6, 0, 100), job("head", 8, 1, 50)};
  for (int k = 0; k < 10; ++k) jobs.push_back(job("s" + std::to_string(k), 2, 2 + 10.0 * k, 30));
  FifoBackfillPolicy backfill(std::make_unique<PackPlacement>());
  FifoPolicy fifo(std::make_unique<PackPlacement>());
  const std::vector<Time> with_backfill = replay(backfill, layout, graph, jobs);
  const std::vector<Time> with_fifo = replay(fifo, layout, graph, jobs);
  EXPECT_EQ(with_backfill[1], 100);
  EXPECT_EQ(with_fifo[1], 100);
  EXPECT_EQ(with_backfill[2], 2);
  EXPECT_EQ(with_backfill[3], 32);
  EXPECT_EQ(with_backfill[4], 62);
  EXPECT_EQ(with_backfill[5], 150);  // s3: after the head
  for (JobIndex j = 2; j < jobs.size(); ++j) EXPECT_LE(with_backfill[j], with_fifo[j]) << jobs[j].id;
}

// Records, for every job, the shadow time it got when it first became the
// head (the first waiting job the plan did not start).
class ShadowRecorder final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "shadow-recorder"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override {
    backfill_.schedule(ctx, plan);
    std::vector<bool> starts(ctx.jobs.job_count(), false);
    std::size_t free_after = ctx.cluster.free_gpu_count();
    std::vector<ExpectedRelease> releases;
    for (JobIndex j : ctx.jobs.running())
      releases.push_back({std::max(ctx.now, ctx.jobs.runtime(j).start + ctx.jobs.spec(j).runtime_estimate),
                          ctx.jobs.runtime(j).gpus.size()});
    for (const Decision& d : plan.decisions()) {
      starts[d.job] = true;
      free_after -= d.gpus.size();
      releases.push_back({ctx.now + ctx.jobs.spec(d.job).runtime_estimate, d.gpus.size()});
    }
    for (JobIndex j : ctx.jobs.waiting()) {
      if (starts[j]) continue;
      if (first_shadow.count(j) == 0)
        first_shadow[j] = reserve_for_head(ctx.now, free_after, ctx.jobs.spec(j).gpus, releases).shadow_time;
      break;
    }
  }
  std::map<JobIndex, Time> first_shadow;

 private:
  FifoBackfillPolicy backfill_{std::make_unique<PackPlacement>()};
};

// With exact estimates, every job that becomes the head starts no later than
// the shadow time it was given then, whatever jobs arrive behind it.
TEST(EasyBackfillReplay, RandomWorkloadsNeverStartAHeadAfterItsShadowTime) {
  const ClusterLayout layout(rack(2));
  const ClusterGraph graph(layout);
  for (unsigned seed = 1; seed <= 50; ++seed) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    std::mt19937 random(seed);
    std::vector<JobSpec> jobs;
    Time submit = 0;
    for (int k = 0; k < 40; ++k) {
      submit += static_cast<Time>(random() % 20);
      jobs.push_back(job("j" + std::to_string(k), 1 + random() % 8, submit, static_cast<Time>(1 + random() % 100)));
    }
    ShadowRecorder recorder;
    const std::vector<Time> start = replay(recorder, layout, graph, jobs);
    EXPECT_GT(recorder.first_shadow.size(), 0u);
    for (const auto& [j, shadow] : recorder.first_shadow) EXPECT_LE(start[j], shadow) << jobs[j].id;
    for (JobIndex j = 0; j < jobs.size(); ++j) EXPECT_NE(start[j], kNever) << jobs[j].id;
  }
}

// ---- construction and registry ---------------------------------------------------------

TEST(FifoBackfillPolicy, RequiresAPlacement) { EXPECT_THROW(FifoBackfillPolicy(nullptr), std::invalid_argument); }

TEST(FifoBackfillPolicy, IsRegisteredAsFifoBackfillWithPack) {
  PolicyRegistry registry;
  register_builtin(registry);
  const auto policy = registry.make_policy("fifo-backfill", {});
  ASSERT_NE(policy, nullptr);
  EXPECT_EQ(policy->name(), "fifo-backfill");
}

}  // namespace
}  // namespace gcsim
