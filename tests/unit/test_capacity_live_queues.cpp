// LiveQueues: the queues' usage and waiting orders kept across calls equal
// those rebuilt from the running and waiting jobs, after every kind of change.
#include "policies/capacity/live_queues.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policies/capacity/queue_allocator.hpp"
#include "policies/capacity/queue_tree.hpp"
#include "tests/support/capacity_bench.hpp"

namespace gcsim {
namespace {

using testing::CapacityBench;
using testing::crafted_cluster;
using testing::queued_job;

const char* const kTwoLeaves = R"({"yarn.scheduler.capacity.root.queues": "a,b",
    "yarn.scheduler.capacity.root.a.capacity": 50, "yarn.scheduler.capacity.root.b.capacity": 50})";

// The jobs' leaves, requests and users, as the capacity policy numbers them.
struct JobTables {
  JobTables(const QueueTree& tree, const std::vector<JobSpec>& jobs) {
    for (const JobSpec& spec : jobs) {
      leaf_of_job.push_back(tree.find_leaf(spec.queue).index);
      request_of_job.push_back(ResourceVector::of(spec));
      auto it = std::find(user_names.begin(), user_names.end(), spec.user);
      user_of_job.push_back(static_cast<std::size_t>(it - user_names.begin()));
      if (it == user_names.end()) user_names.push_back(spec.user);
    }
  }
  std::vector<int> leaf_of_job;
  std::vector<ResourceVector> request_of_job;
  std::vector<std::size_t> user_of_job;
  std::vector<std::string> user_names;
};

// Drives the bench and the live queues together, checking them against a
// rebuild after every change.
class LiveQueuesCheck {
 public:
  LiveQueuesCheck(std::vector<JobSpec> jobs)
      : jobs_(jobs),
        bench_(crafted_cluster(2, 4), jobs_),
        tree_(parse_capacity_config(kTwoLeaves, "test.json")),
        tables_(tree_, jobs_),
        live_(tree_, tables_.leaf_of_job, tables_.request_of_job, tables_.user_of_job, tables_.user_names) {}

  void advance(Time t) {
    bench_.advance(t);
    check("after advancing to " + std::to_string(t));
  }
  void start(const std::string& id, std::vector<GpuId> gpus) {
    Plan plan;
    plan.allocate(bench_.index(id), std::move(gpus));
    apply(plan, "starting " + id);
  }
  void preempt(const std::string& id) {
    Plan plan;
    plan.preempt(bench_.index(id));
    apply(plan, "preempting " + id);
  }
  void finish(const std::string& id) {
    bench_.finish(id);
    check("after " + id + " finished");
  }
  const LiveQueues& live() const { return live_; }
  const QueueTree& tree() const { return tree_; }

 private:
  void apply(const Plan& plan, const std::string& what) {
    bench_.apply(plan);
    for (const Decision& d : plan.decisions()) live_.noted(d.job);
    check("after " + what);
  }

  void check(const std::string& when) {
    live_.update(bench_.state());
    const SchedulerState& state = bench_.state();
    QueueUsage rebuilt(tree_);
    std::vector<QueueUsage::Charge> running;
    for (JobIndex job : state.running())
      running.push_back({tables_.leaf_of_job[job], tables_.user_of_job[job], &tables_.request_of_job[job]});
    rebuilt.start_all(running, tables_.user_names);
    std::vector<std::vector<JobIndex>> waiting(tree_.size());
    for (JobIndex job : state.waiting()) {
      waiting[tables_.leaf_of_job[job]].push_back(job);
      rebuilt.add_waiting(tables_.leaf_of_job[job], jobs_[job].user);
    }
    for (auto& leaf : waiting)
      std::sort(leaf.begin(), leaf.end(), [&](JobIndex a, JobIndex b) { return serves_before(state, a, b); });

    EXPECT_EQ(live_.waiting(), waiting) << when;
    for (std::size_t q = 0; q < tree_.size(); ++q)
      EXPECT_EQ(live_.usage().used(static_cast<int>(q)), rebuilt.used(static_cast<int>(q))) << when << ", queue " << q;
    for (int leaf : tree_.leaves()) {
      const auto& kept = live_.usage().users(leaf);
      const auto& summed = rebuilt.users(leaf);
      ASSERT_EQ(kept.size(), summed.size()) << when << ", users of leaf " << leaf;
      for (const auto& [name, usage] : summed) {
        ASSERT_TRUE(kept.count(name)) << when << ", user " << name;
        EXPECT_EQ(kept.at(name).used, usage.used) << when << ", user " << name;
        EXPECT_EQ(kept.at(name).waiting_jobs, usage.waiting_jobs) << when << ", user " << name;
      }
    }
  }

  std::vector<JobSpec> jobs_;
  CapacityBench bench_;
  QueueTree tree_;
  JobTables tables_;
  LiveQueues live_;
};

std::vector<JobSpec> mixed_jobs(double memory_of_first) {
  std::vector<JobSpec> jobs{queued_job("a0", 2, 0, "a", "ann"),    queued_job("b0", 1, 0, "b", "bob"),
                            queued_job("a1", 2, 0, "a", "ann", 5), queued_job("a2", 1, 1, "a", "amy"),
                            queued_job("b1", 2, 2, "b", "bob"),    queued_job("a3", 1, 3, "a", "amy", 5)};
  jobs[0].memory_bytes = memory_of_first;
  jobs[1].memory_bytes = 3e9;
  jobs[1].cpu_cores = 4;
  jobs[2].cpu_cores = 2;
  return jobs;
}

// Arrivals, starts, a preemption, a restart and ends, in the order a run
// could give them.
void play(LiveQueuesCheck& check) {
  check.advance(0);
  check.start("a1", {0, 1});  // the higher priority serves first
  check.start("b0", {2});
  check.advance(2);
  check.start("a0", {4, 5});
  check.finish("b0");
  check.preempt("a1");  // waits again, at its place
  check.advance(3);
  check.start("a1", {0, 1});
  check.start("a3", {2});
  check.finish("a0");
  check.finish("a1");
  check.finish("a3");
}

TEST(CapacityLiveQueues, KeptUsageAndOrdersEqualARebuildAfterEveryChange) {
  LiveQueuesCheck check(mixed_jobs(8e9));
  play(check);
}

TEST(CapacityLiveQueues, AUserWhoHoldsAndWaitsForNothingIsNoLongerListed) {
  LiveQueuesCheck check(mixed_jobs(8e9));
  play(check);
  const int a = check.tree().find_leaf("a").index;
  // ann's jobs all ended; amy's a2 still waits.
  EXPECT_EQ(check.live().usage().users(a).count("ann"), 0u);
  EXPECT_EQ(check.live().usage().users(a).at("amy").waiting_jobs, 1u);
}

TEST(CapacityLiveQueues, FractionalBytesAreSummedAgainAndStillEqualARebuild) {
  // 0.1 byte is not a whole number: kept sums could drift from rebuilt ones,
  // so the usage is summed again at each call, in the same order.
  LiveQueuesCheck check(mixed_jobs(0.1));
  play(check);
}

}  // namespace
}  // namespace gcsim
