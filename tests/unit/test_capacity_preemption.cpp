// Preemption: ideal shares by water-filling, what each leaf gives back, and
// the monitor's rounds: victims youngest first, a per-round cap, the dead
// zone and the grace period before a marked job is preempted.
#include <gtest/gtest.h>

#include "policies/capacity/preemption_planner.hpp"
#include "tests/support/capacity_bench.hpp"

namespace gcsim {
namespace {

using testing::capacity_policy;
using testing::CapacityBench;
using testing::crafted_cluster;
using testing::queued_job;
using Ids = std::vector<std::string>;

// Shares of a 1-node, 8-GPU cluster (32 cores, 256 GB); jobs ask for GPUs only.
const ResourceVector kCluster{8, 32, 256e9};
ResourceVector gpus(double n) { return {n, 0, 0}; }

struct Planned {
  CapacityConfig config;
  std::vector<QueueTargets> targets;
  int index(const std::string& path) const {
    for (std::size_t i = 0; i < config.queues.size(); ++i)
      if (config.queues[i].path == path) return static_cast<int>(i);
    throw std::out_of_range(path);
  }
  const QueueTargets& operator[](const std::string& path) const { return targets[index(path)]; }
};

// Targets for `used` and `pending` GPUs per leaf path, parents summed.
Planned plan_for(const std::string& json, const std::map<std::string, double>& used_gpus,
                 const std::map<std::string, double>& pending_gpus) {
  Planned p{parse_capacity_config(json, "test.json"), {}};
  const QueueTree tree(p.config);
  const DominantResourceCalculator drc(kCluster);
  std::vector<ResourceVector> used(tree.size()), pending(tree.size());
  for (const auto& [path, n] : used_gpus)
    for (int q : tree.path_to_root(p.index(path))) used[q] += gpus(n);
  for (const auto& [path, n] : pending_gpus) pending[p.index(path)] = gpus(n);
  p.targets = PreemptionPlanner(tree, drc, p.config.preemption).compute_targets(used, pending);
  return p;
}

std::string two_leaves(const std::string& extra = "") {
  return R"({"yarn.scheduler.capacity.root.queues": "a,b",
    "yarn.scheduler.capacity.root.a.capacity": 50, "yarn.scheduler.capacity.root.b.capacity": 50,
    "yarn.resourcemanager.scheduler.monitor.enable": true,
    "yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round": 1,
    "yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor": 1)" +
         extra + "}";
}

TEST(PreemptionPlanner, TheOwnerGetsItsGuaranteeBack) {
  // a borrowed all 8 GPUs; b asks for its 4: ideal 50/50, a gives back 4 GPUs (0.5).
  const Planned p = plan_for(two_leaves(), {{"root.a", 8}}, {{"root.b", 4}});
  EXPECT_NEAR(p["root.a"].ideal, 0.5, 1e-9);
  EXPECT_NEAR(p["root.b"].ideal, 0.5, 1e-9);
  EXPECT_NEAR(p["root.a"].to_be_preempted, 0.5, 1e-9);
  EXPECT_NEAR(p["root.a"].to_obtain, 0.5, 1e-9);
  EXPECT_NEAR(p["root.b"].to_obtain, 0, 1e-12);
}

TEST(PreemptionPlanner, OnlyPendingDemandIsTakenBack) {
  // b asks for 2 GPUs only: b's ideal is 0.25; a keeps the rest (0.75) and gives back 2 GPUs.
  const Planned p = plan_for(two_leaves(), {{"root.a", 8}}, {{"root.b", 2}});
  EXPECT_NEAR(p["root.a"].ideal, 0.75, 1e-9);
  EXPECT_NEAR(p["root.b"].ideal, 0.25, 1e-9);
  EXPECT_NEAR(p["root.a"].to_obtain, 0.25, 1e-9);
}

TEST(PreemptionPlanner, DemandAboveTheGuaranteeDoesNotPreempt) {
  // b holds its 4 GPUs and asks for 4 more; a holds its 4: nobody is over its
  // guarantee, nothing is taken back.
  const Planned p = plan_for(two_leaves(), {{"root.a", 4}, {"root.b", 4}}, {{"root.b", 4}});
  EXPECT_NEAR(p["root.a"].to_obtain, 0, 1e-12);
  EXPECT_NEAR(p["root.b"].ideal, 0.5, 1e-9);
}

TEST(PreemptionPlanner, LeftoverIsSharedByCapacityUpToMaximumAndDemand) {
  // a 20%, b 30%, c 50% of 10 shares; c is idle. a and b each want 100%:
  // they start at 0 and are filled in proportion 2:3 to the level where
  // everything is shared out (a 0.4, b 0.6), except that a leaf is lifted by
  // pending demand only up to its guarantee: a 0.2, b 0.3.
  const std::string config = R"({"yarn.scheduler.capacity.root.queues": "a,b,c",
    "yarn.scheduler.capacity.root.a.capacity": 20, "yarn.scheduler.capacity.root.b.capacity": 30,
    "yarn.scheduler.capacity.root.c.capacity": 50})";
  const Planned p = plan_for(config, {}, {{"root.a", 8}, {"root.b", 8}});
  EXPECT_NEAR(p["root.a"].ideal, 0.2, 1e-9);
  EXPECT_NEAR(p["root.b"].ideal, 0.3, 1e-9);
  EXPECT_NEAR(p["root.c"].ideal, 0, 1e-9);
  // Parents are filled up to their maximum and demand: p (50%, maximum 75%)
  // holds 6 of 8 GPUs through its child x and wants 2 more; q (50%) is idle.
  // p's ideal: start at its 0.5, filled alone up to min(maximum 0.75, demand 1.0).
  const std::string nested = R"({"yarn.scheduler.capacity.root.queues": "p,q",
    "yarn.scheduler.capacity.root.p.capacity": 50, "yarn.scheduler.capacity.root.p.maximum-capacity": 75,
    "yarn.scheduler.capacity.root.q.capacity": 50, "yarn.scheduler.capacity.root.p.queues": "x",
    "yarn.scheduler.capacity.root.p.x.capacity": 100})";
  const Planned n = plan_for(nested, {{"root.p.x", 6}}, {{"root.p.x", 2}});
  EXPECT_NEAR(n["root.p"].ideal, 0.75, 1e-9);
  EXPECT_NEAR(n["root.p.x"].ideal, 0.75, 1e-9);
  EXPECT_NEAR(n["root.p.x"].to_obtain, 0, 1e-12);
}

TEST(PreemptionPlanner, PreemptsInsideTheParentThatIsOverItsShare) {
  // p (50%) = {x 50%, y 50%}, q (50%). x holds p's 4 GPUs, y asks for 2, q
  // holds its 4. p is within its guarantee, so q is untouched; inside p, x
  // gives 2 GPUs back to y.
  const std::string config = R"({"yarn.scheduler.capacity.root.queues": "p,q",
    "yarn.scheduler.capacity.root.p.capacity": 50, "yarn.scheduler.capacity.root.q.capacity": 50,
    "yarn.scheduler.capacity.root.p.queues": "x,y",
    "yarn.scheduler.capacity.root.p.x.capacity": 50, "yarn.scheduler.capacity.root.p.y.capacity": 50,
    "yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round": 1,
    "yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor": 1})";
  const Planned p = plan_for(config, {{"root.p.x", 4}, {"root.q", 4}}, {{"root.p.y", 2}});
  EXPECT_NEAR(p["root.p"].ideal, 0.5, 1e-9);
  EXPECT_NEAR(p["root.p.x"].ideal, 0.25, 1e-9);
  EXPECT_NEAR(p["root.p.y"].ideal, 0.25, 1e-9);
  EXPECT_NEAR(p["root.p.x"].to_obtain, 0.25, 1e-9);
  EXPECT_NEAR(p["root.q"].to_obtain, 0, 1e-12);
}

TEST(PreemptionPlanner, DeadZoneIgnoresSmallExcesses) {
  // a holds 5 GPUs (0.625) against a guarantee of 0.5 while b asks for 2 more
  // than its 3: a should give back 1 GPU, but only does when 0.625 exceeds
  // 0.5 x (1 + max_ignored_over_capacity).
  struct Case {
    double ignored;
    double to_obtain;
  };
  for (const Case& c : {Case{0.3, 0}, Case{0.2, 0.125}, Case{0.1, 0.125}}) {
    const Planned p =
        plan_for(two_leaves(R"(, "yarn.resourcemanager.monitor.capacity.preemption.max_ignored_over_capacity": )" +
                            std::to_string(c.ignored)),
                 {{"root.a", 5}, {"root.b", 3}}, {{"root.b", 2}});
    EXPECT_NEAR(p["root.a"].to_be_preempted, 0.125, 1e-9) << c.ignored;
    EXPECT_NEAR(p["root.a"].to_obtain, c.to_obtain, 1e-9) << c.ignored;
  }
}

TEST(PreemptionPlanner, ScaledToTheRoundAndTheNaturalTerminationFactor) {
  // a must give back 0.5; at most 0.1 per round, then x 0.2: 0.02 to obtain.
  const Planned p = plan_for(R"({"yarn.scheduler.capacity.root.queues": "a,b",
    "yarn.scheduler.capacity.root.a.capacity": 50, "yarn.scheduler.capacity.root.b.capacity": 50})",
                             {{"root.a", 8}}, {{"root.b", 4}});
  EXPECT_NEAR(p["root.a"].to_be_preempted, 0.1, 1e-9);
  EXPECT_NEAR(p["root.a"].to_obtain, 0.02, 1e-9);
}

TEST(PreemptionPlanner, NothingIsTakenFromAQueueWithPreemptionDisabled) {
  const Planned p = plan_for(two_leaves(R"(, "yarn.scheduler.capacity.root.a.disable_preemption": true)"),
                             {{"root.a", 8}}, {{"root.b", 4}});
  EXPECT_NEAR(p["root.a"].ideal, 1.0, 1e-9);  // its excess is untouchable
  EXPECT_NEAR(p["root.a"].to_obtain, 0, 1e-12);
}

TEST(PreemptionPlanner, VictimsNeverTakeTheirQueueBelowItsGuarantee) {
  // a holds 6 of 8 GPUs (0.75) against 0.5: 0.25 above its guarantee. Its
  // youngest job (4 GPUs) would take it to 0.25, so it is passed over for
  // the next youngest (2 GPUs).
  const CapacityConfig config = parse_capacity_config(two_leaves(), "test.json");
  const QueueTree tree(config);
  const DominantResourceCalculator drc(kCluster);
  std::vector<ResourceVector> used(tree.size()), pending(tree.size());
  used[0] = used[1] = gpus(6);
  pending[2] = gpus(4);
  const PreemptionPlanner planner(tree, drc, config.preemption);
  const auto targets = planner.compute_targets(used, pending);
  EXPECT_NEAR(targets[1].to_obtain, 0.25, 1e-9);
  std::vector<std::vector<PreemptionCandidate>> candidates(tree.size());
  candidates[1] = {{7, gpus(4)}, {5, gpus(2)}};  // youngest first
  EXPECT_EQ(planner.select_victims(targets, candidates), (std::vector<JobIndex>{5}));
}

TEST(PreemptionPlanner, PendingDemandCountsJobsThatFitTheGuarantee) {
  // A leaf with a guarantee of 0.5 (4 of 8 GPUs) holding 1 GPU: waiting jobs
  // of 2, 4 and 1 GPUs in FIFO order. The 4-GPU job would take the leaf above
  // its guarantee (it would have to borrow), so preemption acts for 2 + 1.
  const DominantResourceCalculator drc(kCluster);
  const std::map<std::string, UserUsage> users{{"u", UserUsage{gpus(1), 3}}};
  const std::vector<WaitingRequest> waiting{{"u", gpus(2)}, {"u", gpus(4)}, {"u", gpus(1)}};
  EXPECT_DOUBLE_EQ(demand_preemption_can_serve(drc, gpus(1), 0.5, kCluster, users, waiting).gpus, 3);
  // A user over the limit has nothing counted: with a limit of 1 GPU the
  // user's first job counts (it holds 1, not more), the others not.
  EXPECT_DOUBLE_EQ(demand_preemption_can_serve(drc, gpus(1), 0.5, gpus(1), users, waiting).gpus, 2);
}

// The monitor on a bench: 1-second rounds, 5-second grace period.
std::string monitored(const std::string& per_round, const std::string& natural = "0.2") {
  return R"({"yarn.scheduler.capacity.root.queues": "a,b",
    "yarn.scheduler.capacity.root.a.capacity": 50, "yarn.scheduler.capacity.root.b.capacity": 50,
    "yarn.scheduler.capacity.root.a.user-limit-factor": 2,
    "yarn.resourcemanager.scheduler.monitor.enable": true,
    "yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval": 1000,
    "yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill": 5000,
    "yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round": )" +
         per_round + R"(, "yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor": )" + natural +
         "}";
}

std::vector<std::string> preempted(const CapacityBench& bench, const Plan& plan) {
  std::vector<JobIndex> jobs;
  for (const Decision& d : plan.decisions())
    if (d.kind == Decision::Kind::kPreempt) jobs.push_back(d.job);
  return bench.ids(jobs);
}

TEST(CapacityPreemption, BorrowedGpusReturnYoungestFirstAfterTheGracePeriod) {
  // a borrows all 8 GPUs with four 2-GPU jobs started at 0, 1, 2, 3 s; b asks
  // for 4 GPUs at 10 s. Each round takes back the youngest job of a (to
  // obtain: 0.2 x 0.5, one job); it is preempted when a round selects it 5 s
  // after it was first marked. b's job needs both freed jobs' GPUs: the first
  // two GPUs are kept for it rather than given back to a.
  CapacityBench bench(crafted_cluster(1, 8),
                      {queued_job("a1", 2, 0, "a"), queued_job("a2", 2, 1, "a"), queued_job("a3", 2, 2, "a"),
                       queued_job("a4", 2, 3, "a"), queued_job("b1", 4, 10, "b", "v")});
  CapacityPolicy policy = capacity_policy(monitored("0.5"));
  for (Time t : {0.0, 1.0, 2.0, 3.0}) {
    bench.advance(t);
    EXPECT_EQ(bench.step(policy).started.size(), 1u);
  }
  bench.advance(10);
  Plan plan = bench.schedule(policy);
  EXPECT_TRUE(preempted(bench, plan).empty());
  EXPECT_EQ(policy.monitor().marked_at(bench.index("a4")), 10.0);
  EXPECT_FALSE(policy.monitor().marked_at(bench.index("a3")));
  EXPECT_EQ(plan.wake_time(), 11);  // the next round
  bench.apply(plan);
  for (Time t : {11.0, 12.0, 13.0, 14.0}) {
    bench.advance(t);
    plan = bench.schedule(policy);
    EXPECT_TRUE(preempted(bench, plan).empty()) << t;
    bench.apply(plan);
  }
  bench.advance(15);
  plan = bench.schedule(policy);
  EXPECT_EQ(preempted(bench, plan), (Ids{"a4"}));
  bench.apply(plan);
  EXPECT_EQ(bench.running(), (Ids{"a1", "a2", "a3"}));  // a4 may not take back the GPUs b needs
  bench.advance(16);
  bench.step(policy);
  EXPECT_EQ(policy.monitor().marked_at(bench.index("a3")), 16.0);
  for (Time t : {17.0, 18.0, 19.0, 20.0}) {
    bench.advance(t);
    bench.step(policy);
  }
  bench.advance(21);
  plan = bench.schedule(policy);
  EXPECT_EQ(preempted(bench, plan), (Ids{"a3"}));
  const auto applied = bench.apply(plan);
  EXPECT_EQ(bench.ids(applied.started), (Ids{"b1"}));
  // a is back at its guarantee: no more rounds needed.
  bench.advance(22);
  plan = bench.schedule(policy);
  EXPECT_TRUE(plan.empty());
}

TEST(CapacityPreemption, AtMostTheRoundsShareOfTheClusterIsMarkedPerRound) {
  // 20 GPUs, a holds them all with ten 2-GPU jobs (0.1 of the cluster each);
  // b asks for its 10. With natural_termination_factor 1, a should give back
  // 0.5 but at most total_preemption_per_round is marked in a round.
  struct Case {
    const char* per_round;
    Ids marked;
  };
  for (const Case& c : {Case{"0.1", {"a10"}}, Case{"0.2", {"a10", "a9"}}, Case{"0.3", {"a10", "a9", "a8"}},
                        Case{"1", {"a10", "a9", "a8", "a7", "a6"}}, Case{"0.05", {}}}) {
    std::vector<JobSpec> jobs;
    for (int i = 1; i <= 10; ++i) jobs.push_back(queued_job("a" + std::to_string(i), 2, i - 1, "a"));
    for (int i = 1; i <= 5; ++i) jobs.push_back(queued_job("b" + std::to_string(i), 2, 20, "b", "v"));
    CapacityBench bench(crafted_cluster(5, 4), jobs);
    CapacityPolicy policy = capacity_policy(monitored(c.per_round, "1"));
    for (int t = 0; t < 10; ++t) {
      bench.advance(t);
      bench.step(policy);
    }
    ASSERT_EQ(bench.running().size(), 10u);
    bench.advance(20);
    bench.step(policy);
    Ids marked;
    for (int i = 10; i >= 1; --i)
      if (policy.monitor().marked_at(bench.index("a" + std::to_string(i)))) marked.push_back("a" + std::to_string(i));
    EXPECT_EQ(marked, c.marked) << c.per_round;  // 0.05: a 2-GPU job never fits in 1 GPU a round
  }
}

TEST(CapacityPreemption, AMarkedJobIsSparedWhenTheDemandIsMetOtherwise) {
  // b asks for 2 GPUs at 10 s: a4 is marked. At 12 s a1 ends and b's job
  // starts on its GPUs: a is no longer over its ideal share, the later rounds
  // do not select a4 again, and it is never preempted.
  CapacityBench bench(crafted_cluster(1, 8),
                      {queued_job("a1", 2, 0, "a"), queued_job("a2", 2, 1, "a"), queued_job("a3", 2, 2, "a"),
                       queued_job("a4", 2, 3, "a"), queued_job("b1", 2, 10, "b", "v")});
  CapacityPolicy policy = capacity_policy(monitored("0.5"));
  for (Time t : {0.0, 1.0, 2.0, 3.0, 10.0, 11.0}) {
    bench.advance(t);
    bench.step(policy);
  }
  EXPECT_EQ(policy.monitor().marked_at(bench.index("a4")), 10.0);
  bench.advance(12);
  bench.finish("a1");
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"b1"}));
  for (Time t : {13.0, 14.0, 15.0, 16.0, 20.0, 21.0}) {
    bench.advance(t);
    const Plan plan = bench.schedule(policy);
    EXPECT_TRUE(preempted(bench, plan).empty()) << t;
    bench.apply(plan);
  }
  // The stale mark (older than 2 x 5 s) is forgotten.
  EXPECT_FALSE(policy.monitor().marked_at(bench.index("a4")));
}

TEST(CapacityPreemption, RoundsRunOnlyAtMultiplesOfTheMonitoringInterval) {
  // With 3-second rounds, demand arriving at 10 s is first seen by the round at 12 s.
  const std::string config = R"({"yarn.scheduler.capacity.root.queues": "a,b",
    "yarn.scheduler.capacity.root.a.capacity": 50, "yarn.scheduler.capacity.root.b.capacity": 50,
    "yarn.scheduler.capacity.root.a.user-limit-factor": 2,
    "yarn.resourcemanager.scheduler.monitor.enable": true,
    "yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round": 0.5})";
  CapacityBench bench(crafted_cluster(1, 8),
                      {queued_job("a1", 4, 0, "a"), queued_job("a2", 4, 0, "a"), queued_job("b1", 4, 10, "b", "v")});
  CapacityPolicy policy = capacity_policy(config);
  bench.advance(0);
  bench.step(policy);
  bench.advance(10);
  Plan plan = bench.schedule(policy);
  EXPECT_EQ(plan.wake_time(), 12);
  EXPECT_FALSE(policy.monitor().marked_at(bench.index("a2")));
  bench.apply(plan);
  bench.advance(12);
  plan = bench.schedule(policy);
  EXPECT_EQ(policy.monitor().marked_at(bench.index("a2")), 12.0);
  EXPECT_EQ(plan.wake_time(), 15);
  // YARN's default grace period: preempted by the round at 12 + 15 = 27 s.
  bench.apply(plan);
  for (Time t = 15; t < 27; t += 3) {
    bench.advance(t);
    bench.step(policy);
  }
  bench.advance(27);
  EXPECT_EQ(preempted(bench, bench.schedule(policy)), (Ids{"a2"}));
}

TEST(CapacityPreemption, NeverWithoutTheMonitor) {
  CapacityBench bench(crafted_cluster(1, 8),
                      {queued_job("a1", 4, 0, "a"), queued_job("a2", 4, 0, "a"), queued_job("b1", 4, 10, "b", "v")});
  CapacityPolicy policy = capacity_policy(R"({"yarn.scheduler.capacity.root.queues": "a,b",
    "yarn.scheduler.capacity.root.a.capacity": 50, "yarn.scheduler.capacity.root.b.capacity": 50,
    "yarn.scheduler.capacity.root.a.user-limit-factor": 2})");
  bench.advance(0);
  bench.step(policy);
  bench.advance(10);
  const Plan plan = bench.schedule(policy);
  EXPECT_TRUE(plan.empty());
}

}  // namespace
}  // namespace gcsim
