// When jobs join the queue (sim/engine/arrivals.hpp), without a simulator:
// submit order, dependants released after their last dependency with their
// delay, and failures passed on to the jobs waiting, directly or not.
#include "sim/engine/arrivals.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <utility>
#include <vector>

namespace gcsim {
namespace {

JobSpec job(Time submit, std::vector<JobIndex> after = {}, Time after_delay = 0) {
  JobSpec spec;
  spec.id = "j";
  spec.submit = submit;
  if (!after.empty()) {
    JobRelations& relations = spec.change_relations();
    relations.after = std::move(after);
    relations.after_delay = after_delay;
  }
  return spec;
}

// Every submission due by `now`, in the order they come.
std::vector<Submission> due(Arrivals& arrivals, Time now) {
  std::vector<Submission> out;
  while (std::optional<Submission> next = arrivals.next_due(now)) out.push_back(*next);
  return out;
}

TEST(Arrivals, ComeBySubmitTimeThenWorkloadOrder) {
  const std::vector<JobSpec> jobs = {job(20), job(5), job(20), job(5)};
  Arrivals arrivals(jobs);
  EXPECT_EQ(arrivals.next_time(), 5);
  EXPECT_TRUE(due(arrivals, 4).empty());
  EXPECT_EQ(due(arrivals, 5), (std::vector<Submission>{{1, 5}, {3, 5}}));
  EXPECT_EQ(arrivals.next_time(), 20);
  // Late, they keep their own submit times.
  EXPECT_EQ(due(arrivals, 30), (std::vector<Submission>{{0, 20}, {2, 20}}));
  EXPECT_FALSE(arrivals.pending());
  EXPECT_EQ(arrivals.next_time(), kNever);
}

TEST(Arrivals, ADependantIsReleasedWhenItsLastDependencyEnds) {
  // 2 waits for 0 and 1; it is no arrival of its own.
  const std::vector<JobSpec> jobs = {job(0), job(0), job(0, {0, 1})};
  Arrivals arrivals(jobs);
  EXPECT_EQ(due(arrivals, 0), (std::vector<Submission>{{0, 0}, {1, 0}}));
  EXPECT_FALSE(arrivals.pending());
  EXPECT_TRUE(arrivals.release(1, 50).empty());  // still waits for 0
  EXPECT_EQ(arrivals.release(0, 80), (std::vector<Submission>{{2, 80}}));
  EXPECT_FALSE(arrivals.pending());
}

TEST(Arrivals, AReleaseWaitsForItsDelayOrItsSubmitTimeWhicheverIsLater) {
  // 1 joins 30 s after 0 ends; 2 after 0 too, but not before its submit time 500.
  const std::vector<JobSpec> jobs = {job(0), job(0, {0}, 30), job(500, {0})};
  Arrivals arrivals(jobs);
  EXPECT_EQ(due(arrivals, 0), (std::vector<Submission>{{0, 0}}));
  EXPECT_TRUE(arrivals.release(0, 100).empty());
  EXPECT_TRUE(arrivals.pending());
  EXPECT_EQ(arrivals.next_time(), 130);
  EXPECT_TRUE(due(arrivals, 129).empty());
  EXPECT_EQ(due(arrivals, 130), (std::vector<Submission>{{1, 130}}));
  EXPECT_EQ(arrivals.next_time(), 500);
  EXPECT_EQ(due(arrivals, 600), (std::vector<Submission>{{2, 500}}));
}

TEST(Arrivals, HeldReleasesComeInOrderOfTimeThenJob) {
  const std::vector<JobSpec> jobs = {job(0), job(0, {0}, 20), job(0, {0}, 10), job(0, {0}, 10)};
  Arrivals arrivals(jobs);
  due(arrivals, 0);
  EXPECT_TRUE(arrivals.release(0, 0).empty());
  EXPECT_EQ(due(arrivals, 100), (std::vector<Submission>{{2, 10}, {3, 10}, {1, 20}}));
}

TEST(Arrivals, ArrivalsDueComeBeforeReleasesDue) {
  const std::vector<JobSpec> jobs = {job(0), job(0, {0}, 5), job(10)};
  Arrivals arrivals(jobs);
  EXPECT_EQ(due(arrivals, 0), (std::vector<Submission>{{0, 0}}));
  arrivals.release(0, 0);
  EXPECT_EQ(due(arrivals, 10), (std::vector<Submission>{{2, 10}, {1, 5}}));
}

TEST(Arrivals, AFailureFailsEveryJobWaitingForItDirectlyOrNot) {
  // 0 <- 1 <- 3, 0 <- 2 <- 3 (a diamond), and 4 waits for 5 alone.
  const std::vector<JobSpec> jobs = {job(0), job(0, {0}), job(0, {0}), job(0, {1, 2}), job(0, {5}), job(0)};
  Arrivals arrivals(jobs);
  std::vector<bool> pending(jobs.size(), true);
  std::vector<std::pair<JobIndex, JobIndex>> failed;  // (job, cause)
  arrivals.fail_dependants(
      0, [&](JobIndex j) { return static_cast<bool>(pending[j]); },
      [&](JobIndex j, JobIndex cause) {
        pending[j] = false;
        failed.emplace_back(j, cause);
      });
  // Depth first from the last failed: 1 and 2 for 0, then 3 for 2; 3 fails once.
  EXPECT_EQ(failed, (std::vector<std::pair<JobIndex, JobIndex>>{{1, 0}, {2, 0}, {3, 2}}));
  EXPECT_TRUE(pending[4]);
}

TEST(Arrivals, AFailureLeavesJobsAlreadySubmittedAlone) {
  const std::vector<JobSpec> jobs = {job(0), job(0, {0}), job(0, {1})};
  Arrivals arrivals(jobs);
  std::vector<JobIndex> failed;
  // 1 was submitted (not pending): it neither fails nor passes the failure on.
  arrivals.fail_dependants(
      0, [](JobIndex j) { return j != 1; }, [&](JobIndex j, JobIndex) { failed.push_back(j); });
  EXPECT_TRUE(failed.empty());
}

}  // namespace
}  // namespace gcsim
