// WaitingChanges: the jobs that joined and left the waiting queue between two
// calls of a policy, whether they arrived, started, were preempted, or left
// the queue in a way the policy did not note.
#include "policies/kit/waiting_changes.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "tests/support/policy_bench.hpp"

namespace gcsim {
namespace {

using testing::crafted_cluster;
using testing::measured_job;
using testing::PolicyBench;
using Jobs = std::vector<JobIndex>;

Jobs sorted(Jobs jobs) {
  std::sort(jobs.begin(), jobs.end());
  return jobs;
}

// Four 2-GPU jobs on one 4-GPU node, submitted at 0, 0, 10 and 20.
PolicyBench four_jobs() {
  return PolicyBench(crafted_cluster(1, 4), {measured_job("a", 2, 0), measured_job("b", 2, 0), measured_job("c", 2, 10),
                                             measured_job("d", 2, 20)});
}

// a and b submitted, and a first call made.
WaitingChanges seen_with_a_and_b_waiting(PolicyBench& bench) {
  bench.submit(0);
  bench.submit(1);
  WaitingChanges changes;
  changes.since_last_call(bench.state());
  return changes;
}

TEST(WaitingChanges, TheFirstCallReportsEveryWaitingJobAsJoined) {
  PolicyBench bench = four_jobs();
  bench.submit(0);
  bench.submit(1);
  WaitingChanges changes;
  const WaitingChanges::Delta delta = changes.since_last_call(bench.state());
  EXPECT_EQ(sorted(delta.joined), (Jobs{0, 1}));
  EXPECT_TRUE(delta.left.empty());
  EXPECT_TRUE(changes.waiting(0));
  EXPECT_FALSE(changes.waiting(2));
}

TEST(WaitingChanges, ArrivalsJoinAndNotedStartsLeave) {
  PolicyBench bench = four_jobs();
  WaitingChanges changes = seen_with_a_and_b_waiting(bench);
  Plan plan;
  plan.allocate(0, {0, 1});
  changes.noted(0);
  bench.apply(plan);
  bench.now = 10;
  bench.submit(2);
  const WaitingChanges::Delta delta = changes.since_last_call(bench.state());
  EXPECT_EQ(delta.joined, (Jobs{2}));
  EXPECT_EQ(delta.left, (Jobs{0}));
  // Nothing happened since.
  const WaitingChanges::Delta none = changes.since_last_call(bench.state());
  EXPECT_TRUE(none.joined.empty());
  EXPECT_TRUE(none.left.empty());
}

TEST(WaitingChanges, ANotedPreemptionJoinsAndAnAllocationNotAppliedChangesNothing) {
  PolicyBench bench = four_jobs();
  WaitingChanges changes = seen_with_a_and_b_waiting(bench);
  Plan first;
  first.allocate(0, {0, 1});
  first.allocate(1, {2, 3});
  changes.noted(0);
  changes.noted(1);
  bench.apply(first);
  EXPECT_EQ(sorted(changes.since_last_call(bench.state()).left), (Jobs{0, 1}));

  bench.now = 10;
  bench.submit(2);
  Plan second;
  second.preempt(0);
  changes.noted(0);
  bench.apply(second);
  changes.noted(2);  // a plan that would have started it, never applied
  const WaitingChanges::Delta delta = changes.since_last_call(bench.state());
  EXPECT_EQ(sorted(delta.joined), (Jobs{0, 2}));
  EXPECT_TRUE(delta.left.empty());
}

TEST(WaitingChanges, AStartTheCallerDidNotNoteIsStillFound) {
  PolicyBench bench = four_jobs();
  WaitingChanges changes = seen_with_a_and_b_waiting(bench);
  Plan plan;
  plan.allocate(1, {0, 1});  // not noted
  bench.apply(plan);
  bench.now = 20;
  bench.submit(3);
  const WaitingChanges::Delta delta = changes.since_last_call(bench.state());
  EXPECT_EQ(delta.joined, (Jobs{3}));
  EXPECT_EQ(delta.left, (Jobs{1}));
  EXPECT_FALSE(changes.waiting(1));
  EXPECT_TRUE(changes.waiting(0));
}

}  // namespace
}  // namespace gcsim
