// Tiresias (discretized 2D-LAS): jobs move down queues as their attained
// GPU-seconds cross thresholds, higher queues preempt lower ones, and a job
// starved long enough is promoted back to the top. Every time and victim
// below is computed by hand on a one-node, four-GPU cluster.
#include <gtest/gtest.h>

#include "policies/placement/pack_placement.hpp"
#include "policies/register_builtin.hpp"
#include "policies/tiresias/tiresias_policy.hpp"
#include "tests/support/policy_bench.hpp"

namespace gcsim {
namespace {

using testing::crafted_cluster;
using testing::measured_job;
using testing::PolicyBench;
using Jobs = std::vector<JobIndex>;

TiresiasPolicy tiresias(const PolicyOptions& options = {}) {
  return TiresiasPolicy(std::make_unique<PackPlacement>(), TiresiasPolicy::parse_settings(options));
}

using Step = testing::PlanStep;
using testing::steps_of;
constexpr auto kPreempt = Decision::Kind::kPreempt;
constexpr auto kAllocate = Decision::Kind::kAllocate;

// Job 0 "long" takes the whole node at t=0; job 1 "fresh" (2 GPUs) waits.
// With thresholds=400, long's 4 GPUs reach 400 GPU-seconds at t=100.
constexpr JobIndex kLong = 0, kFresh = 1;
PolicyBench long_and_fresh() {
  return PolicyBench(crafted_cluster(1, 4), {measured_job("long", 4, 0), measured_job("fresh", 2, 0)});
}

TEST(TiresiasPolicy, ANewJobPreemptsARunningJobThatCrossedTheThreshold) {
  PolicyBench bench = long_and_fresh();
  bench.submit_all();
  TiresiasPolicy policy = tiresias({{"thresholds", "400"}, {"promote_knob", "0"}});
  EXPECT_EQ(bench.step(policy).started, (Jobs{kLong}));

  bench.now = 150;  // long: 600 GPU-seconds, in Q2 since t=100; fresh: Q1
  const Plan plan = bench.schedule(policy);
  EXPECT_EQ(steps_of(plan), (std::vector<Step>{{kPreempt, kLong}, {kAllocate, kFresh}}));
  EXPECT_EQ(policy.queue_of(kLong), 1u);
  EXPECT_EQ(policy.queue_of(kFresh), 0u);
  const auto applied = bench.apply(plan);
  EXPECT_EQ(applied.preempted, (Jobs{kLong}));
  EXPECT_EQ(applied.started, (Jobs{kFresh}));
}

TEST(TiresiasPolicy, JobsBelowTheThresholdAreNotPreemptedByJobsOfTheirQueue) {
  // Long's service at `now` is 4 * now GPU-seconds; it leaves Q1 at 400, t=100.
  const struct {
    Time now;
    bool preempted;
  } cases[] = {{50, false}, {99, false}, {100, true}, {150, true}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.now);
    PolicyBench bench = long_and_fresh();
    bench.submit_all();
    TiresiasPolicy policy = tiresias({{"thresholds", "400"}, {"promote_knob", "0"}});
    bench.step(policy);
    bench.now = c.now;
    const Plan plan = bench.schedule(policy);
    if (c.preempted) {
      EXPECT_EQ(steps_of(plan), (std::vector<Step>{{kPreempt, kLong}, {kAllocate, kFresh}}));
    } else {
      EXPECT_TRUE(plan.decisions().empty());
      EXPECT_DOUBLE_EQ(plan.wake_time(), 100);  // the demotion is due then
    }
  }
}

TEST(TiresiasPolicy, WakesUpWhenARunningJobWillCrossItsQueueThreshold) {
  // A job started at t=0 on g GPUs reaches threshold T at T / g.
  const struct {
    const char* thresholds;  // nullptr: the default (3600)
    std::uint32_t gpus;
    Time wake;
  } cases[] = {{nullptr, 4, 900}, {nullptr, 1, 3600}, {"400,1600", 4, 100}, {"1000", 3, 1000.0 / 3}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.gpus);
    PolicyBench bench(crafted_cluster(1, 4), {measured_job("job", c.gpus, 0)});
    bench.submit_all();
    PolicyOptions options;
    if (c.thresholds) options["thresholds"] = c.thresholds;
    TiresiasPolicy policy = tiresias(options);
    const Plan plan = bench.schedule(policy);
    ASSERT_EQ(plan.decisions().size(), 1u);
    EXPECT_DOUBLE_EQ(plan.wake_time(), c.wake);
  }
}

TEST(TiresiasPolicy, AfterADemotionTheNextWakeUpIsTheNextThreshold) {
  PolicyBench bench(crafted_cluster(1, 4), {measured_job("job", 4, 0)});
  bench.submit_all();
  TiresiasPolicy policy = tiresias({{"thresholds", "400,1600"}});
  bench.step(policy);
  bench.now = 100;  // 400 GPU-seconds: into Q2, whose limit 1600 is reached at 1600 / 4 = 400
  const Plan plan = bench.schedule(policy);
  EXPECT_TRUE(plan.decisions().empty());
  EXPECT_EQ(policy.queue_of(0), 1u);
  EXPECT_DOUBLE_EQ(plan.wake_time(), 400);
}

TEST(TiresiasPolicy, ARestartedJobKeepsTheServiceOfItsEarlierRuns) {
  // long runs 0-150 (600 GPU-seconds) and is preempted by fresh, which ends
  // at 200. long restarts at 200 in Q2 and reaches 2000 at 200 + (2000 - 600) / 4 = 550.
  PolicyBench bench = long_and_fresh();
  bench.submit_all();
  TiresiasPolicy policy = tiresias({{"thresholds", "400,2000"}, {"promote_knob", "0"}});
  bench.step(policy);
  bench.now = 150;
  EXPECT_EQ(bench.step(policy).preempted, (Jobs{kLong}));
  EXPECT_DOUBLE_EQ(bench.state().runtime(kLong).attained_gpu_seconds, 600);
  bench.now = 200;
  bench.finish(kFresh);
  const Plan plan = bench.schedule(policy);
  EXPECT_EQ(steps_of(plan), (std::vector<Step>{{kAllocate, kLong}}));
  EXPECT_DOUBLE_EQ(plan.wake_time(), 550);
}

TEST(TiresiasPolicy, PreemptsTheLowestQueueAndMostRecentlyStartedFirstAndOnlyEnoughToFit) {
  // thresholds=100,200 (three queues). Four 1-GPU jobs started by hand at
  // 0, 50, 150 and 200; at t=260 their services are 260, 210, 110 and 60
  // GPU-seconds: j0 and j1 in Q3, j2 in Q2, j3 in Q1 with the waiting job.
  // Victim order: j1 (Q3, started last), j0 (Q3), j2 (Q2); j3 is never one.
  constexpr JobIndex j0 = 0, j1 = 1, j2 = 2, big = 4;
  const struct {
    std::uint32_t gpus;
    std::vector<Step> plan;
  } cases[] = {
      {1, {{kPreempt, j1}, {kAllocate, big}}},
      {2, {{kPreempt, j1}, {kPreempt, j0}, {kAllocate, big}}},
      {3, {{kPreempt, j1}, {kPreempt, j0}, {kPreempt, j2}, {kAllocate, big}}},
      {4, {}},  // even every victim would leave it a GPU short: nothing is preempted
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.gpus);
    PolicyBench bench(crafted_cluster(1, 4),
                      {measured_job("j0", 1, 0), measured_job("j1", 1, 0), measured_job("j2", 1, 0),
                       measured_job("j3", 1, 0), measured_job("big", c.gpus, 0)});
    bench.submit_all();
    const Time starts[] = {0, 50, 150, 200};
    for (JobIndex j = 0; j < 4; ++j) {
      bench.now = starts[j];
      Plan start;
      start.allocate(j, {static_cast<GpuId>(j)});
      bench.apply(start);
    }
    TiresiasPolicy policy = tiresias({{"thresholds", "100,200"}, {"promote_knob", "0"}});
    bench.now = 260;
    const Plan plan = bench.schedule(policy);
    EXPECT_EQ(steps_of(plan), c.plan);
    EXPECT_EQ(policy.queue_of(j0), 2u);
    EXPECT_EQ(policy.queue_of(j2), 1u);
    EXPECT_EQ(policy.queue_of(3), 0u);
    bench.apply(plan);  // a valid plan
  }
}

TEST(TiresiasPolicy, AStarvedJobIsPromotedAfterTheKnobTimesItsLastRun) {
  // thresholds=400, promote_knob=2, two 4-GPU jobs:
  // t=0   old starts;
  // t=150 old (600 GPU-s, Q2) is preempted by new (Q1) after a 150 s run:
  //       it is due for promotion at 150 + 2 * 150 = 450; new reaches 400 at 250;
  // t=250 new drops to Q2 too: equal queues, nothing changes;
  // t=450 old is promoted to Q1 and preempts new.
  constexpr JobIndex old_job = 0, new_job = 1;
  PolicyBench bench(crafted_cluster(1, 4), {measured_job("old", 4, 0), measured_job("new", 4, 0)});
  bench.submit_all();
  TiresiasPolicy policy = tiresias({{"thresholds", "400"}, {"promote_knob", "2"}});
  bench.step(policy);

  bench.now = 150;
  Plan plan = bench.schedule(policy);
  EXPECT_EQ(steps_of(plan), (std::vector<Step>{{kPreempt, old_job}, {kAllocate, new_job}}));
  EXPECT_DOUBLE_EQ(plan.wake_time(), 250);
  bench.apply(plan);

  bench.now = 250;
  plan = bench.schedule(policy);
  EXPECT_TRUE(plan.decisions().empty());
  EXPECT_EQ(policy.queue_of(new_job), 1u);
  EXPECT_DOUBLE_EQ(plan.wake_time(), 450);

  bench.now = 449;
  EXPECT_TRUE(bench.schedule(policy).decisions().empty());

  bench.now = 450;
  plan = bench.schedule(policy);
  EXPECT_EQ(steps_of(plan), (std::vector<Step>{{kPreempt, new_job}, {kAllocate, old_job}}));
  EXPECT_EQ(policy.queue_of(old_job), 0u);
  // Its service counts from zero again: 400 more GPU-seconds, at 450 + 100.
  // (new, preempted after 300 s, is due at 450 + 600 = 1050.)
  EXPECT_DOUBLE_EQ(plan.wake_time(), 550);
}

TEST(TiresiasPolicy, ARunCutShortAtTheInstantItStartedDoesNotMakeAJobDueAtOnce) {
  // thresholds=400, promote_knob=2, three 4-GPU jobs on the 4-GPU node:
  // t=0   a starts; b (Q1) waits: jobs of one queue never preempt each other;
  // t=100 a reaches 400 GPU-s (Q2) and b preempts it: a ran 100 s since it
  //       entered Q1 and is due at 100 + 2 x 100 = 300;
  // t=150 b ends and a restarts (Q2); in a second call at the same instant
  //       c arrives (Q1) and preempts it, a run of 0 s. a has still run
  //       100 s since it entered Q1: due at 150 + 2 x 100 = 350 (its last
  //       run alone, 0 s, would make it due at once, at 150);
  // t=250 c reaches 400 GPU-s: a and c are both in Q2, nothing changes;
  // t=350 a is promoted and preempts c.
  constexpr JobIndex a = 0, b = 1, c = 2;
  PolicyBench bench(crafted_cluster(1, 4),
                    {measured_job("a", 4, 0), measured_job("b", 4, 0), measured_job("c", 4, 150)});
  bench.submit(a);
  bench.submit(b);
  TiresiasPolicy policy = tiresias({{"thresholds", "400"}, {"promote_knob", "2"}});
  EXPECT_EQ(bench.step(policy).started, (Jobs{a}));
  bench.now = 100;
  EXPECT_EQ(bench.step(policy).preempted, (Jobs{a}));

  bench.now = 150;
  bench.finish(b);
  EXPECT_EQ(bench.step(policy).started, (Jobs{a}));
  bench.submit(c);
  Plan plan = bench.schedule(policy);
  EXPECT_EQ(steps_of(plan), (std::vector<Step>{{kPreempt, a}, {kAllocate, c}}));
  EXPECT_DOUBLE_EQ(plan.wake_time(), 250);  // c's crossing; a is due at 350
  bench.apply(plan);
  plan = bench.schedule(policy);  // a third call at 150
  EXPECT_TRUE(plan.decisions().empty());
  EXPECT_EQ(policy.queue_of(a), 1u);

  bench.now = 250;
  plan = bench.schedule(policy);
  EXPECT_TRUE(plan.decisions().empty());
  EXPECT_DOUBLE_EQ(plan.wake_time(), 350);

  bench.now = 350;
  EXPECT_EQ(steps_of(bench.schedule(policy)), (std::vector<Step>{{kPreempt, c}, {kAllocate, a}}));
}

TEST(TiresiasPolicy, PromotionWeighsEveryRunSinceTheJobLastEnteredTheTopQueue) {
  // thresholds=400, promote_knob=2, three 4-GPU jobs:
  // t=0   a starts; at 100 it reaches Q2 and b (Q1) preempts it: a ran 100 s;
  // t=150 b ends and a restarts (Q2);
  // t=170 c arrives (Q1) and preempts a after a second run of 20 s: a has
  //       run 120 s since it entered Q1, so it is due at 170 + 2 x 120 =
  //       410 (its last run alone would give 170 + 2 x 20 = 210);
  // t=270 c reaches 400 GPU-s (Q2); at 410 a is promoted and preempts c.
  constexpr JobIndex a = 0, b = 1, c = 2;
  PolicyBench bench(crafted_cluster(1, 4),
                    {measured_job("a", 4, 0), measured_job("b", 4, 0), measured_job("c", 4, 170)});
  bench.submit(a);
  bench.submit(b);
  TiresiasPolicy policy = tiresias({{"thresholds", "400"}, {"promote_knob", "2"}});
  bench.step(policy);
  bench.now = 100;
  bench.step(policy);
  bench.now = 150;
  bench.finish(b);
  EXPECT_EQ(bench.step(policy).started, (Jobs{a}));
  bench.now = 170;
  bench.submit(c);
  EXPECT_EQ(bench.step(policy).preempted, (Jobs{a}));

  bench.now = 270;
  Plan plan = bench.schedule(policy);
  EXPECT_TRUE(plan.decisions().empty());
  EXPECT_DOUBLE_EQ(plan.wake_time(), 410);
  bench.now = 409;
  EXPECT_TRUE(bench.schedule(policy).decisions().empty());
  bench.now = 410;
  EXPECT_EQ(steps_of(bench.schedule(policy)), (std::vector<Step>{{kPreempt, c}, {kAllocate, a}}));
}

TEST(TiresiasPolicy, WithoutTheKnobAPreemptedJobWaitsInItsQueue) {
  constexpr JobIndex old_job = 0;
  PolicyBench bench(crafted_cluster(1, 4), {measured_job("old", 4, 0), measured_job("new", 4, 0)});
  bench.submit_all();
  TiresiasPolicy policy = tiresias({{"thresholds", "400"}, {"promote_knob", "0"}});
  bench.step(policy);
  bench.now = 150;
  bench.step(policy);
  bench.now = 250;
  EXPECT_EQ(bench.schedule(policy).wake_time(), kNever);
  bench.now = 10000;
  EXPECT_TRUE(bench.schedule(policy).decisions().empty());
  EXPECT_EQ(policy.queue_of(old_job), 1u);
}

TEST(TiresiasPolicy, OptionsAreValidated) {
  const TiresiasSettings defaults = TiresiasPolicy::parse_settings({});
  EXPECT_EQ(defaults.thresholds, (std::vector<double>{3600}));
  EXPECT_DOUBLE_EQ(defaults.promote_knob, 8);

  const TiresiasSettings given =
      TiresiasPolicy::parse_settings({{"thresholds", "3200,25600"}, {"promote_knob", "0.5"}});
  EXPECT_EQ(given.thresholds, (std::vector<double>{3200, 25600}));
  EXPECT_DOUBLE_EQ(given.promote_knob, 0.5);
  EXPECT_DOUBLE_EQ(TiresiasPolicy::parse_settings({{"promote_knob", "0"}}).promote_knob, 0);

  const struct {
    const char* key;
    const char* value;
  } invalid[] = {{"thresholds", ""},     {"thresholds", "abc"},     {"thresholds", "0"},
                 {"thresholds", "-5"},   {"thresholds", "400,400"}, {"thresholds", "400,100"},
                 {"thresholds", "400,"}, {"thresholds", "1e400"},   {"thresholds", "400s"},
                 {"promote_knob", "-1"}, {"promote_knob", "often"}, {"promote_knob", "nan"},
                 {"promote_knob", ""}};
  for (const auto& c : invalid) {
    SCOPED_TRACE(std::string(c.key) + "=" + c.value);
    EXPECT_THROW(TiresiasPolicy::create({{c.key, c.value}}, std::make_unique<PackPlacement>()), std::invalid_argument);
  }
  EXPECT_THROW(TiresiasPolicy(nullptr, TiresiasSettings{}), std::invalid_argument);
}

// One policy kept across calls, jobs arriving, starting, being preempted and
// promoted between them, with thresholds=400 and promote_knob=1 on 4 GPUs:
// its order of the waiting jobs and its promotion times must follow.
TEST(TiresiasPolicy, KeepsItsQueuesRightAcrossCalls) {
  constexpr JobIndex a = 0, b = 1, c = 2;
  PolicyBench bench(crafted_cluster(1, 4),
                    {measured_job("a", 4, 0), measured_job("b", 2, 50), measured_job("c", 2, 150)});
  TiresiasPolicy policy = tiresias({{"thresholds", "400"}, {"promote_knob", "1"}});
  bench.submit(a);
  EXPECT_EQ(bench.step(policy).started, (Jobs{a}));

  bench.now = 50;  // b arrives; a (200 GPU-seconds) is in Q1 too: b waits
  bench.submit(b);
  Plan plan = bench.schedule(policy);
  EXPECT_TRUE(plan.decisions().empty());
  EXPECT_EQ(plan.wake_time(), 100);  // a crosses 400 at 400 / 4
  bench.apply(plan);

  bench.now = 100;  // a into Q2: b preempts it; a needs 4 of the 2 left
  plan = bench.schedule(policy);
  EXPECT_EQ(steps_of(plan), (std::vector<Step>{{kPreempt, a}, {kAllocate, b}}));
  EXPECT_EQ(plan.wake_time(), 200);  // a due for promotion at 100 + 1 x 100 run; b crosses at 300
  bench.apply(plan);

  bench.now = 150;  // c arrives and takes the 2 free GPUs
  bench.submit(c);
  plan = bench.schedule(policy);
  EXPECT_EQ(steps_of(plan), (std::vector<Step>{{kAllocate, c}}));
  EXPECT_EQ(plan.wake_time(), 200);  // still a's promotion
  bench.apply(plan);

  bench.now = 200;  // a back in Q1, with b and c: no victim
  plan = bench.schedule(policy);
  EXPECT_TRUE(plan.decisions().empty());
  EXPECT_EQ(policy.queue_of(a), 0u);
  EXPECT_EQ(plan.wake_time(), 300);  // b crosses 400 at 100 + 400 / 2
  bench.apply(plan);

  bench.now = 300;  // b into Q2: its 2 GPUs are not enough for a
  plan = bench.schedule(policy);
  EXPECT_TRUE(plan.decisions().empty());
  EXPECT_EQ(policy.queue_of(b), 1u);
  EXPECT_EQ(plan.wake_time(), 350);  // c crosses at 150 + 400 / 2
  bench.apply(plan);

  bench.now = 350;  // c into Q2: a preempts c (started last), then b
  plan = bench.schedule(policy);
  EXPECT_EQ(steps_of(plan), (std::vector<Step>{{kPreempt, c}, {kPreempt, b}, {kAllocate, a}}));
  EXPECT_EQ(plan.wake_time(), 450);  // a crosses at 350 + 400 / 4; c due at 550, b at 600
  const auto applied = bench.apply(plan);
  EXPECT_EQ(applied.started, (Jobs{a}));
}

// A job that finished is neither a victim nor a wake-up, whatever the
// policy remembered of its run. `a` (2 GPUs) and `b` (1 GPU) start at 0:
// with thresholds=400, a crosses at 200 and b at 400; a finishes at 150.
TEST(TiresiasPolicy, AFinishedJobIsNoWakeUp) {
  constexpr JobIndex a = 0;  // b is job 1
  PolicyBench bench(crafted_cluster(1, 4), {measured_job("a", 2, 0), measured_job("b", 1, 0)});
  TiresiasPolicy policy = tiresias({{"thresholds", "400"}, {"promote_knob", "0"}});
  bench.submit_all();
  Plan plan = bench.schedule(policy);
  EXPECT_EQ(plan.wake_time(), 200);
  bench.apply(plan);
  bench.now = 150;
  bench.finish(a);
  plan = bench.schedule(policy);
  EXPECT_TRUE(plan.decisions().empty());
  EXPECT_EQ(plan.wake_time(), 400);  // b's crossing, not a's
}

// `b` and `d` (1 GPU each) start at 0, `a` (2 GPUs) at 10; with
// thresholds=400 a moves to Q2 at 210 and finishes at 250; b and d move to Q2
// at 400, when `c` (4 GPUs, Q1) arrives: it preempts d, then b (the most
// recently started first; equal starts: later in the workload first), never
// the finished a, though a started last.
TEST(TiresiasPolicy, AFinishedJobIsNoVictim) {
  constexpr JobIndex b = 0, d = 1, a = 2, c = 3;
  PolicyBench bench(crafted_cluster(1, 4), {measured_job("b", 1, 0), measured_job("d", 1, 0), measured_job("a", 2, 10),
                                            measured_job("c", 4, 400)});
  TiresiasPolicy policy = tiresias({{"thresholds", "400"}, {"promote_knob", "0"}});
  bench.submit(b);
  bench.submit(d);
  EXPECT_EQ(bench.step(policy).started, (Jobs{b, d}));
  bench.now = 10;
  bench.submit(a);
  Plan plan = bench.schedule(policy);
  EXPECT_EQ(plan.wake_time(), 210);
  bench.apply(plan);
  bench.now = 210;
  plan = bench.schedule(policy);
  EXPECT_EQ(policy.queue_of(a), 1u);
  EXPECT_EQ(plan.wake_time(), 400);
  bench.apply(plan);
  bench.now = 250;
  bench.finish(a);
  plan = bench.schedule(policy);
  EXPECT_EQ(plan.wake_time(), 400);
  bench.apply(plan);
  bench.now = 400;
  bench.submit(c);
  plan = bench.schedule(policy);
  EXPECT_EQ(policy.queue_of(b), 1u);
  EXPECT_EQ(policy.queue_of(d), 1u);
  EXPECT_EQ(steps_of(plan), (std::vector<Step>{{kPreempt, d}, {kPreempt, b}, {kAllocate, c}}));
  EXPECT_EQ(bench.apply(plan).started, (Jobs{c}));
}

TEST(TiresiasPolicy, IsRegisteredUnderItsName) {
  PolicyRegistry registry;
  register_builtin(registry);
  EXPECT_EQ(registry.make_policy("tiresias", {{"thresholds", "3200,25600"}})->name(), "tiresias");
  EXPECT_THROW(registry.make_policy("tiresias", {{"promote_knob", "-1"}}), std::invalid_argument);
}

}  // namespace
}  // namespace gcsim
