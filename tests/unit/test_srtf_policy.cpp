// Specification of srtf: waiting and running jobs ordered by remaining time
// (oracle duration, minus the time run since the last start for a running
// job); the shortest start first; a waiting job preempts the running jobs
// with the longest remaining times, all strictly longer than its own, when
// that makes room, and never otherwise; `preemptive=false` never preempts.
#include "policies/srtf/srtf_policy.hpp"

#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

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
using Kind = Decision::Kind;

// One rack of `nodes` 4-GPU A100 nodes, after an optional 4-GPU V100 node.
ClusterSpec rack(std::uint32_t nodes, bool v100_first = false) {
  ClusterSpec spec;
  spec.name = "rack";
  spec.gpu_types = {GpuType{"A100", 312e12, 80e9}, GpuType{"V100", 125e12, 16e9}};
  if (v100_first) spec.node_groups.push_back(testing::crafted_node_group("v", 1, 4, "V100"));
  spec.node_groups.push_back(testing::crafted_node_group("a", nodes, 4, "A100"));
  spec.fabric.nodes_per_rack = v100_first ? nodes + 1 : nodes;
  return spec;
}

// A job and its oracle duration.
struct TimedJob {
  std::string id;
  std::uint32_t gpus;
  Time submit;
  Time oracle;
  double memory = 0;
};

struct Step {
  Kind kind;
  JobIndex job;
  Gpus gpus = {};
  bool operator==(const Step& o) const { return kind == o.kind && job == o.job && gpus == o.gpus; }
};

std::ostream& operator<<(std::ostream& out, const Step& s) {
  out << (s.kind == Kind::kAllocate ? "allocate " : s.kind == Kind::kPreempt ? "preempt " : "release ") << s.job;
  for (GpuId g : s.gpus) out << " " << g;
  return out;
}

class SrtfTest : public ::testing::Test {
 protected:
  void set_up(ClusterSpec spec, const std::vector<TimedJob>& jobs) {
    layout_ = std::make_unique<ClusterLayout>(std::move(spec));
    graph_ = std::make_unique<ClusterGraph>(*layout_);
    jobs_.clear();
    std::vector<Time> oracle;
    for (const TimedJob& t : jobs) {
      JobSpec job;
      job.id = t.id;
      job.gpus = t.gpus;
      job.submit = t.submit;
      job.gpu_memory_bytes = t.memory;
      job.work = MeasuredWork{t.oracle, "A100"};
      jobs_.push_back(job);
      oracle.push_back(t.oracle);
    }
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

  Plan schedule(bool preemptive = true) {
    SrtfPolicy srtf(std::make_unique<PackPlacement>(), preemptive);
    Plan plan;
    srtf.schedule(SchedulingContext{now_, *state_, *state_}, plan);
    return plan;
  }

  static std::vector<Step> steps(const Plan& plan) {
    std::vector<Step> out;
    for (const Decision& d : plan.decisions()) out.push_back({d.kind, d.job, d.gpus});
    return out;
  }

  Time now_ = 100.0;
  std::unique_ptr<ClusterLayout> layout_;
  std::unique_ptr<ClusterGraph> graph_;
  std::vector<JobSpec> jobs_;
  std::unique_ptr<SchedulerState> state_;
};

// ---- remaining time ---------------------------------------------------------------------

// At now = 100: `waiting` (oracle 70) never ran; `running` (oracle 300)
// started at 40; `overdue` (oracle 50) started at 20 and has outlived it.
TEST_F(SrtfTest, RemainingTimeIsTheOracleMinusTheTimeRunSinceTheLastStart) {
  set_up(rack(2), {{"waiting", 1, 0, 70}, {"running", 1, 0, 300}, {"overdue", 1, 0, 50}});
  submit({0});
  run(1, {0}, 40);
  run(2, {1}, 20);
  EXPECT_EQ(SrtfPolicy::remaining_time(*state_, 0, now_), 70);
  EXPECT_EQ(SrtfPolicy::remaining_time(*state_, 1, now_), 240);  // 300 - (100 - 40)
  EXPECT_EQ(SrtfPolicy::remaining_time(*state_, 2, now_), 0);    // 50 - 80, floored
}

// A job whose checkpoints kept a quarter of its work (oracle 1000, restore
// 20 s) has 750 + 20 = 770 s to run; once it has run 60 s of that, 710.
TEST_F(SrtfTest, RemainingTimeCountsOnlyTheWorkNoCheckpointKept) {
  set_up(rack(2), {{"resumed", 1, 0, 1000}, {"fresh", 1, 0, 1000}});
  jobs_[0].checkpoint = CheckpointSpec{100, 1, 20};
  jobs_[1].checkpoint = CheckpointSpec{100, 1, 20};
  state_->set_saved_fraction(0, 0.25);
  submit({0, 1});
  EXPECT_EQ(SrtfPolicy::remaining_time(*state_, 0, now_), 770);
  EXPECT_EQ(SrtfPolicy::remaining_time(*state_, 1, now_), 1000);  // nothing saved, no restore
  Plan plan;
  plan.allocate(0, {0});
  state_->apply(plan, 40);
  EXPECT_EQ(SrtfPolicy::remaining_time(*state_, 0, now_), 710);
}

// ---- order ---------------------------------------------------------------------------------

struct OrderCase {
  const char* what;
  std::vector<TimedJob> jobs;  // all waiting, on 8 GPUs (two 4-GPU nodes)
  Jobs started;                // in the plan's order
};

TEST_F(SrtfTest, PicksTheShortestWaitingJobFirst) {
  const std::vector<OrderCase> cases = {
      // 4 + 4 GPUs: the two shortest fill the cluster, the longest waits.
      {"shortest first", {{"long", 4, 0, 100}, {"mid", 4, 1, 50}, {"short", 4, 2, 10}}, {2, 1}},
      {"equal remaining: earlier submit first", {{"late", 4, 5, 10}, {"early", 4, 1, 10}, {"x", 4, 0, 20}}, {1, 0}},
      {"equal remaining and submit: workload order", {{"a", 4, 0, 10}, {"b", 4, 0, 10}, {"c", 4, 0, 10}}, {0, 1}},
      // The shortest needs 8 and fits; nothing is left for the others.
      {"a big short job takes everything", {{"small", 1, 0, 20}, {"big", 8, 1, 10}}, {1}},
      // After `six`, 2 GPUs are left: `five` does not fit, `two` does: no
      // head-of-line blocking.
      {"a job that does not fit blocks nobody", {{"six", 6, 0, 10}, {"five", 5, 0, 20}, {"two", 2, 0, 30}}, {0, 2}},
  };
  for (const OrderCase& c : cases) {
    SCOPED_TRACE(c.what);
    set_up(rack(2), c.jobs);
    for (JobIndex j = 0; j < c.jobs.size(); ++j) state_->submit(j);
    Jobs started;
    for (const Step& s : steps(schedule())) {
      EXPECT_EQ(s.kind, Kind::kAllocate);
      started.push_back(s.job);
    }
    EXPECT_EQ(started, c.started);
  }
}

// 8 GPUs. `running` holds 4 with 5 s left; `eight` (remaining 10) needs 8 and
// may not preempt a shorter job; `four` (remaining 50) fits in the 4 free.
TEST_F(SrtfTest, AShorterJobThatCannotStartDoesNotBlockALongerOneThatFits) {
  set_up(rack(2), {{"running", 4, 0, 105}, {"eight", 8, 1, 10}, {"four", 4, 2, 50}});
  run(0, {0, 1, 2, 3}, 0);  // remaining 105 - 100 = 5
  submit({1, 2});
  EXPECT_EQ(steps(schedule()), (std::vector<Step>{{Kind::kAllocate, 2, {4, 5, 6, 7}}}));
}

// ---- preemption -----------------------------------------------------------------------------

// 8 GPUs, full. At now = 100: `long` on node 0 (oracle 1000, started 0:
// remaining 900), `mid` on node 1 (oracle 500: remaining 400). `short`
// (4 GPUs, remaining 10) preempts the longest-remaining job, `long`, and
// takes its GPUs; `mid` keeps running.
TEST_F(SrtfTest, PreemptsTheLongestRemainingRunningJobForAMuchShorterWaitingOne) {
  set_up(rack(2), {{"long", 4, 0, 1000}, {"mid", 4, 0, 500}, {"short", 4, 1, 10}});
  run(0, {0, 1, 2, 3}, 0);
  run(1, {4, 5, 6, 7}, 0);
  submit({2});
  const Plan plan = schedule();
  EXPECT_EQ(steps(plan), (std::vector<Step>{{Kind::kPreempt, 0}, {Kind::kAllocate, 2, {0, 1, 2, 3}}}));
  EXPECT_EQ(plan.wake_time(), kNever);

  const auto applied = state_->apply(plan, now_);
  EXPECT_EQ(applied.preempted, (Jobs{0}));
  EXPECT_EQ(applied.started, (Jobs{2}));
  EXPECT_EQ(state_->runtime(0).preemptions, 1u);
  // It starts over: its remaining time is its whole duration again.
  EXPECT_EQ(SrtfPolicy::remaining_time(*state_, 0, now_), 1000);
}

// Same cluster; the waiting job needs 6: `long` alone frees 4, so `mid` goes
// too, both having more than 10 s left. The 2 GPUs left cannot restart either.
TEST_F(SrtfTest, PreemptsLongestFirstUntilThereIsRoom) {
  set_up(rack(2), {{"long", 4, 0, 1000}, {"mid", 4, 0, 500}, {"six", 6, 1, 10}});
  run(0, {0, 1, 2, 3}, 0);
  run(1, {4, 5, 6, 7}, 0);
  submit({2});
  EXPECT_EQ(steps(schedule()),
            (std::vector<Step>{{Kind::kPreempt, 0}, {Kind::kPreempt, 1}, {Kind::kAllocate, 2, {0, 1, 2, 3, 4, 5}}}));
}

// Node 0: four 16 GB V100 held by `long` (remaining 900); node 1: four A100
// held by `mid` (oracle 950, remaining 850). `big-memory` needs 4 GPUs of
// 40 GB: freeing `long`'s V100 does not help, so `mid` is preempted and
// `long` keeps running. (`mid` restarts with 950 s left, more than `long`'s
// 900: it may not take `long`'s GPUs in turn.)
TEST_F(SrtfTest, AVictimWhoseGpusTheJobCannotUseKeepsRunning) {
  set_up(rack(1, /*v100_first=*/true), {{"long", 4, 0, 1000}, {"mid", 4, 0, 950}, {"big-memory", 4, 1, 10, 40e9}});
  run(0, {0, 1, 2, 3}, 0);
  run(1, {4, 5, 6, 7}, 0);
  submit({2});
  EXPECT_EQ(steps(schedule()), (std::vector<Step>{{Kind::kPreempt, 1}, {Kind::kAllocate, 2, {4, 5, 6, 7}}}));
}

// As above, but `mid` has oracle 500: preempted with 400 s left, it rejoins
// the order with 500, still shorter than `long`'s 900, so in the same call it
// preempts `long` and restarts on the V100.
TEST_F(SrtfTest, APreemptedJobRejoinsTheOrderWithItsWholeDuration) {
  set_up(rack(1, /*v100_first=*/true), {{"long", 4, 0, 1000}, {"mid", 4, 0, 500}, {"big-memory", 4, 1, 10, 40e9}});
  run(0, {0, 1, 2, 3}, 0);
  run(1, {4, 5, 6, 7}, 0);
  submit({2});
  EXPECT_EQ(steps(schedule()), (std::vector<Step>{{Kind::kPreempt, 1},
                                                  {Kind::kAllocate, 2, {4, 5, 6, 7}},
                                                  {Kind::kPreempt, 0},
                                                  {Kind::kAllocate, 1, {0, 1, 2, 3}}}));
}

// Victims must have strictly longer remaining times: `short` (8 GPUs,
// remaining 10) would need both running jobs, but `quick` has 5 s left.
TEST_F(SrtfTest, NeverPreemptsAJobWithLessTimeLeft) {
  set_up(rack(2), {{"long", 4, 0, 1000}, {"quick", 4, 0, 105}, {"short", 8, 1, 10}});
  run(0, {0, 1, 2, 3}, 0);
  run(1, {4, 5, 6, 7}, 0);
  submit({2});
  EXPECT_TRUE(schedule().empty());
}

TEST_F(SrtfTest, DoesNotPreemptWhenTheNonPreemptiveOptionIsSet) {
  set_up(rack(2), {{"long", 4, 0, 1000}, {"mid", 4, 0, 500}, {"short", 4, 1, 10}});
  run(0, {0, 1, 2, 3}, 0);
  run(1, {4, 5, 6, 7}, 0);
  submit({2});
  EXPECT_TRUE(schedule(/*preemptive=*/false).empty());
}

// One 4-GPU node held by `running` (oracle 150, started 50: remaining 100 at
// now = 100). A waiting 4-GPU job preempts it only if its own remaining time
// is strictly shorter.
TEST_F(SrtfTest, NoThrashWhenRemainingTimesAreEqual) {
  struct Case {
    const char* what;
    Time waiting_oracle;
    bool preempts;
  };
  const std::vector<Case> cases = {
      {"equal remaining: no preemption", 100, false},
      {"longer: no preemption", 101, false},
      {"strictly shorter: preemption", 99, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    set_up(rack(1), {{"running", 4, 0, 150}, {"waiting", 4, 1, c.waiting_oracle}});
    run(0, {0, 1, 2, 3}, 50);
    submit({1});
    const Plan plan = schedule();
    if (c.preempts) {
      EXPECT_EQ(steps(plan), (std::vector<Step>{{Kind::kPreempt, 0}, {Kind::kAllocate, 1, {0, 1, 2, 3}}}));
    } else {
      EXPECT_TRUE(plan.empty());
    }
  }
}

// After `short` preempted `long`, neither call at the same time nor later
// ones swap them back: `long` restarts with 1000 s left, `short` has at most 10.
TEST_F(SrtfTest, APreemptedJobNeverPreemptsItsPreemptorBack) {
  set_up(rack(1), {{"long", 4, 0, 1000}, {"short", 4, 1, 10}});
  run(0, {0, 1, 2, 3}, 0);
  submit({1});
  state_->apply(schedule(), now_);
  ASSERT_EQ(state_->runtime(1).state, JobState::kRunning);
  for (Time t : {100.0, 105.0, 110.0}) {
    now_ = t;
    EXPECT_TRUE(schedule().empty()) << "at " << t;
  }
}

// A non-preemptive srtf is shortest-job-first without head-of-line blocking.
TEST_F(SrtfTest, NonPreemptiveStartsTheShortestWaitingJobsThatFit) {
  set_up(rack(2), {{"running", 4, 0, 1000}, {"long", 2, 1, 300}, {"short", 2, 2, 20}, {"too-big", 6, 0, 5}});
  run(0, {0, 1, 2, 3}, 0);
  submit({1, 2, 3});
  EXPECT_EQ(steps(schedule(/*preemptive=*/false)),
            (std::vector<Step>{{Kind::kAllocate, 2, {4, 5}}, {Kind::kAllocate, 1, {6, 7}}}));
}

TEST_F(SrtfTest, NothingWaitingGivesAnEmptyPlan) {
  set_up(rack(1), {{"running", 4, 0, 1000}});
  run(0, {0, 1, 2, 3}, 0);
  EXPECT_TRUE(schedule().empty());
}

// ---- whole runs replayed on the scheduler state -------------------------------------------------

// Jobs run on a scheduler state event by event: each call's time is the next
// submission or end; a job runs `stretch` times its oracle duration and
// starts over when preempted.
class EventByEvent {
 public:
  EventByEvent(SchedulerState& state, const std::vector<JobSpec>& jobs, const std::vector<Time>& oracle, double stretch)
      : state_(state),
        jobs_(jobs),
        oracle_(oracle),
        stretch_(stretch),
        end_(jobs.size(), kNever),
        submitted_(jobs.size(), false) {}

  /// Ends and submits the jobs due at the next event and returns its time
  /// (kNever: nothing left to happen).
  Time next() {
    Time now = kNever;
    for (JobIndex j = 0; j < jobs_.size(); ++j) {
      if (!submitted_[j]) now = std::min(now, jobs_[j].submit);
      if (state_.runtime(j).state == JobState::kRunning) now = std::min(now, end_[j]);
    }
    if (now == kNever) return now;
    for (JobIndex j = 0; j < jobs_.size(); ++j)
      if (state_.runtime(j).state == JobState::kRunning && end_[j] <= now) {
        state_.finish(j, now);
        ++finished_;
      }
    for (JobIndex j = 0; j < jobs_.size(); ++j)
      if (!submitted_[j] && jobs_[j].submit <= now) {
        state_.submit(j);
        submitted_[j] = true;
      }
    return now;
  }
  /// Applies the plan at `now`; returns the number of jobs it preempted.
  std::size_t apply(const Plan& plan, Time now) {
    const auto applied = state_.apply(plan, now);
    for (JobIndex j : applied.preempted) end_[j] = kNever;
    for (JobIndex j : applied.started) end_[j] = now + stretch_ * oracle_[j];
    return applied.preempted.size();
  }
  bool all_finished() const { return finished_ == jobs_.size(); }

 private:
  SchedulerState& state_;
  const std::vector<JobSpec>& jobs_;
  const std::vector<Time>& oracle_;
  double stretch_;
  std::vector<Time> end_;
  std::vector<bool> submitted_;
  std::size_t finished_ = 0;
};

// Random workloads on 8 GPUs, every job running exactly its oracle duration
// and starting over when preempted: every plan applies, every preemption
// serves a job with strictly less time left, and every job finishes.
TEST(SrtfReplay, RandomWorkloadsFinishWithOnlyStrictlyShorterPreemptors) {
  const ClusterLayout layout(rack(2));
  const ClusterGraph graph(layout);
  for (bool preemptive : {true, false}) {
    std::size_t all_preemptions = 0;
    for (unsigned seed = 1; seed <= 30; ++seed) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << (preemptive ? " preemptive" : " non-preemptive"));
      std::mt19937 random(seed);
      std::vector<JobSpec> jobs;
      std::vector<Time> oracle;
      Time submit = 0;
      for (int k = 0; k < 30; ++k) {
        submit += static_cast<Time>(random() % 15);
        JobSpec job;
        job.id = "j" + std::to_string(k);
        job.gpus = 1 + random() % 8;
        job.submit = submit;
        oracle.push_back(static_cast<Time>(1 + random() % 100));
        job.work = MeasuredWork{oracle.back(), "A100"};
        jobs.push_back(job);
      }
      SchedulerState state(layout, graph, jobs, oracle);
      SrtfPolicy srtf(std::make_unique<PackPlacement>(), preemptive);
      EventByEvent run(state, jobs, oracle, 1.0);
      std::size_t preemptions = 0;
      for (int call = 0; !run.all_finished() && call < 10000; ++call) {
        const Time now = run.next();
        ASSERT_NE(now, kNever) << "jobs wait with nothing left to happen";
        Plan plan;
        srtf.schedule(SchedulingContext{now, state, state}, plan);
        EXPECT_EQ(plan.wake_time(), kNever);
        const auto& d = plan.decisions();
        for (std::size_t i = 0; i < d.size(); ++i) {
          if (d[i].kind != Kind::kPreempt) continue;
          ASSERT_TRUE(preemptive);
          const Time victim_left = SrtfPolicy::remaining_time(state, d[i].job, now);
          bool served = false;
          for (std::size_t k = i + 1; k < d.size(); ++k)
            served |= d[k].kind == Kind::kAllocate && d[k].job != d[i].job &&
                      SrtfPolicy::remaining_time(state, d[k].job, now) < victim_left;
          EXPECT_TRUE(served) << "preemption " << i << " of job " << d[i].job << " at " << now;
        }
        preemptions += run.apply(plan, now);
      }
      EXPECT_TRUE(run.all_finished());
      all_preemptions += preemptions;
    }
    if (preemptive) {
      EXPECT_GT(all_preemptions, 0u);
    } else {
      EXPECT_EQ(all_preemptions, 0u);
    }
  }
}

// The policy keeps its orders from call to call; a policy made anew at each
// call builds them from the state alone. Both must decide the same at every
// call of random runs whose durations are not whole seconds, where remaining
// times reach 0 (the jobs run longer than their oracle) and runs start, end
// and are preempted between calls.
TEST(SrtfReplay, APolicyKeptAcrossCallsDecidesAsOneMadeAnewAtEachCall) {
  const ClusterLayout layout(rack(2));
  const ClusterGraph graph(layout);
  for (bool preemptive : {true, false}) {
    for (unsigned seed = 1; seed <= 20; ++seed) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << (preemptive ? " preemptive" : " non-preemptive"));
      std::mt19937 random(seed);
      std::vector<JobSpec> jobs;
      std::vector<Time> oracle;
      Time submit = 0;
      for (int k = 0; k < 40; ++k) {
        submit += static_cast<Time>(random() % 1500) / 100;
        JobSpec job;
        job.id = "j" + std::to_string(k);
        job.gpus = 1 + random() % 8;
        job.submit = submit;
        oracle.push_back(static_cast<Time>(100 + random() % 9900) / 100);
        job.work = MeasuredWork{oracle.back(), "A100"};
        jobs.push_back(job);
      }
      SchedulerState state(layout, graph, jobs, oracle);
      SrtfPolicy kept(std::make_unique<PackPlacement>(), preemptive);
      // Runs last 1.5 times their oracle: remaining times reach 0 before they end.
      EventByEvent run(state, jobs, oracle, 1.5);
      for (int call = 0; !run.all_finished() && call < 10000; ++call) {
        const Time now = run.next();
        ASSERT_NE(now, kNever) << "jobs wait with nothing left to happen";
        Plan plan, fresh_plan;
        kept.schedule(SchedulingContext{now, state, state}, plan);
        SrtfPolicy fresh(std::make_unique<PackPlacement>(), preemptive);
        fresh.schedule(SchedulingContext{now, state, state}, fresh_plan);
        ASSERT_EQ(plan.decisions().size(), fresh_plan.decisions().size()) << "at " << now;
        for (std::size_t i = 0; i < plan.decisions().size(); ++i) {
          const Decision& a = plan.decisions()[i];
          const Decision& b = fresh_plan.decisions()[i];
          EXPECT_EQ(Step({a.kind, a.job, a.gpus}), Step({b.kind, b.job, b.gpus})) << "decision " << i << " at " << now;
        }
        run.apply(plan, now);
      }
      EXPECT_TRUE(run.all_finished());
    }
  }
}

// ---- options and registry ---------------------------------------------------------------

TEST(SrtfPolicy, PreemptiveOptionIsTrueFalseOrAbsent) {
  struct Case {
    PolicyOptions options;
    bool preemptive;
  };
  const std::vector<Case> cases = {
      {{}, true},
      {{{"seed", "7"}}, true},
      {{{"preemptive", "true"}}, true},
      {{{"preemptive", "false"}}, false},
  };
  for (const Case& c : cases) {
    const auto policy = SrtfPolicy::create(c.options, std::make_unique<PackPlacement>());
    EXPECT_EQ(dynamic_cast<const SrtfPolicy&>(*policy).preemptive(), c.preemptive);
  }
}

TEST(SrtfPolicy, RejectsAnyOtherPreemptiveValueNamingIt) {
  for (const char* bad : {"", "yes", "0", "False", "maybe"}) {
    SCOPED_TRACE(bad);
    try {
      SrtfPolicy::create({{"preemptive", bad}}, std::make_unique<PackPlacement>());
      ADD_FAILURE() << "accepted preemptive=" << bad;
    } catch (const std::invalid_argument& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("preemptive"), std::string::npos) << message;
      EXPECT_NE(message.find("'" + std::string(bad) + "'"), std::string::npos) << message;
    }
  }
}

// ---- across calls ------------------------------------------------------------------------

// One policy kept across calls on one 4-GPU node, so that its order of the
// waiting jobs must follow the arrivals, starts, preemptions and finishes
// between calls. a: 4 GPUs, 100 s; b: 2 GPUs, 50 s; c: 2 GPUs, 300 s, all
// submitted at 0; d: 2 GPUs, 20 s, submitted at 10.
TEST_F(SrtfTest, KeepsItsOrderRightAcrossCalls) {
  set_up(rack(1), {{"a", 4, 0, 100}, {"b", 2, 0, 50}, {"c", 2, 0, 300}, {"d", 2, 10, 20}});
  SrtfPolicy srtf(std::make_unique<PackPlacement>(), true);
  auto call = [&](Time now) {
    now_ = now;
    Plan plan;
    srtf.schedule(SchedulingContext{now_, *state_, *state_}, plan);
    state_->apply(plan, now_);
    return steps(plan);
  };
  submit({0, 1, 2});
  // t=0: b (50) starts; a (100) needs 4 of the 2 left and no running job is
  // longer; c (300) takes the last 2.
  EXPECT_EQ(call(0), (std::vector<Step>{{Kind::kAllocate, 1, {0, 1}}, {Kind::kAllocate, 2, {2, 3}}}));
  // t=10: d (20) arrives and preempts c (290 left), the longest of b (40)
  // and c; b is kept, a still cannot get 4 GPUs.
  submit({3});
  EXPECT_EQ(call(10), (std::vector<Step>{{Kind::kPreempt, 2}, {Kind::kAllocate, 3, {2, 3}}}));
  // t=30: d ends. Waiting: a (100), c (300 again, no checkpoint): a does not
  // fit in 2 and b (20 left) is shorter; c does.
  state_->finish(3, 30);
  EXPECT_EQ(call(30), (std::vector<Step>{{Kind::kAllocate, 2, {2, 3}}}));
  // t=50: b ends; a (100) preempts c (280 left) to take the whole node.
  state_->finish(1, 50);
  EXPECT_EQ(call(50), (std::vector<Step>{{Kind::kPreempt, 2}, {Kind::kAllocate, 0, {0, 1, 2, 3}}}));
  // t=60: nothing changed but the time: nothing to do.
  EXPECT_TRUE(call(60).empty());
}

TEST(SrtfPolicy, RequiresAPlacement) { EXPECT_THROW(SrtfPolicy(nullptr, true), std::invalid_argument); }

TEST(SrtfPolicy, IsRegisteredAsSrtfAndValidatesItsOptions) {
  PolicyRegistry registry;
  register_builtin(registry);
  const auto policy = registry.make_policy("srtf", {{"preemptive", "false"}});
  ASSERT_NE(policy, nullptr);
  EXPECT_EQ(policy->name(), "srtf");
  EXPECT_THROW(registry.make_policy("srtf", {{"preemptive", "maybe"}}), std::invalid_argument);
}

}  // namespace
}  // namespace gcsim
