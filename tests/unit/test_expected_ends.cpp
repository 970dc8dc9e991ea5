// ExpectedEnds (policies/fifo_backfill/expected_ends.hpp): the running jobs in
// order of expected end (start + estimate, or now once passed), ties in the
// order they started, kept from the run log across calls.
#include "policies/fifo_backfill/expected_ends.hpp"

#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace gcsim {
namespace {

// Jobs whose runs the test begins and ends by hand, logging each.
class LoggedRuns final : public QueueView {
 public:
  explicit LoggedRuns(std::size_t count) : specs_(count), runtimes_(count) {}
  void begin(JobIndex job, Time at) {
    runtimes_[job].state = JobState::kRunning;
    runtimes_[job].start = at;
    log_.push_back({job, true});
  }
  void end(JobIndex job) {
    runtimes_[job].state = JobState::kFinished;
    log_.push_back({job, false});
  }

  const std::vector<JobIndex>& waiting() const override { return none_; }
  const std::vector<JobIndex>& running() const override { return none_; }
  const std::vector<RunEvent>& run_log() const override { return log_; }
  const JobSpec& spec(JobIndex job) const override { return specs_[job]; }
  const JobRuntime& runtime(JobIndex job) const override { return runtimes_[job]; }
  std::size_t job_count() const override { return specs_.size(); }
  Time oracle_duration(JobIndex) const override { return kNever; }

 private:
  std::vector<JobSpec> specs_;
  std::vector<JobRuntime> runtimes_;
  std::vector<RunEvent> log_;
  std::vector<JobIndex> none_;
};

using Ends = std::vector<std::pair<Time, JobIndex>>;

Ends all_of(const ExpectedEnds& ends) {
  Ends all;
  ends.visit([&](const ExpectedEnd& e) {
    all.emplace_back(e.end, e.job);
    return true;
  });
  return all;
}

// Estimates by job: 0 -> 50, 1 -> 30, 2 -> 20, 3 -> unknown, 4 -> 40.
Time estimate_of(JobIndex job) {
  const Time estimates[] = {50, 30, 20, kNever, 40};
  return estimates[job];
}

TEST(ExpectedEnds, InOrderOfStartPlusEstimateTiesInStartOrderUnknownLeftOut) {
  LoggedRuns jobs(5);
  jobs.begin(0, 0);   // 50
  jobs.begin(1, 20);  // 50, started after 0
  jobs.begin(2, 10);  // 30
  jobs.begin(3, 0);   // never
  ExpectedEnds ends;
  ends.update(jobs, 25, estimate_of);
  EXPECT_EQ(all_of(ends), (Ends{{30, 2}, {50, 0}, {50, 1}}));
}

TEST(ExpectedEnds, OverdueRunsEndAtNowTogetherInStartOrder) {
  LoggedRuns jobs(5);
  jobs.begin(4, 0);  // 40
  jobs.begin(2, 5);  // 25
  jobs.begin(1, 0);  // 30
  ExpectedEnds ends;
  ends.update(jobs, 10, estimate_of);
  EXPECT_EQ(all_of(ends), (Ends{{25, 2}, {30, 1}, {40, 4}}));
  // At 35, 2 (25) and 1 (30) are overdue: they end at 35, in the order they
  // started, before 4 (40).
  ends.update(jobs, 35, estimate_of);
  EXPECT_EQ(all_of(ends), (Ends{{35, 2}, {35, 1}, {40, 4}}));
  // An end exactly at now counts as overdue too: ordered by start with them.
  ends.update(jobs, 40, estimate_of);
  EXPECT_EQ(all_of(ends), (Ends{{40, 4}, {40, 2}, {40, 1}}));
}

TEST(ExpectedEnds, EndedRunsLeaveARestartCountsFromItsNewStart) {
  LoggedRuns jobs(5);
  jobs.begin(0, 0);  // 50
  jobs.begin(1, 0);  // 30
  ExpectedEnds ends;
  ends.update(jobs, 35, estimate_of);  // 1 is overdue
  jobs.end(0);
  jobs.end(1);
  jobs.begin(0, 60);
  ends.update(jobs, 60, estimate_of);
  EXPECT_EQ(all_of(ends), (Ends{{110, 0}}));
}

TEST(ExpectedEnds, ARestartBetweenCallsIsListedOnce) {
  LoggedRuns jobs(5);
  jobs.begin(1, 0);
  jobs.end(1);
  jobs.begin(1, 5);  // 35
  ExpectedEnds ends;
  ends.update(jobs, 10, estimate_of);
  EXPECT_EQ(all_of(ends), (Ends{{35, 1}}));
}

TEST(ExpectedEnds, VisitStopsWhenAsked) {
  LoggedRuns jobs(5);
  jobs.begin(0, 0);
  jobs.begin(1, 0);
  jobs.begin(2, 0);
  ExpectedEnds ends;
  ends.update(jobs, 0, estimate_of);
  std::vector<JobIndex> seen;
  ends.visit([&](const ExpectedEnd& e) {
    seen.push_back(e.job);
    return seen.size() < 2;
  });
  EXPECT_EQ(seen, (std::vector<JobIndex>{2, 1}));
}

TEST(ExpectedEnds, FirstEndAfterAnInstant) {
  LoggedRuns jobs(5);
  jobs.begin(2, 0);  // 20
  jobs.begin(1, 0);  // 30
  jobs.begin(3, 0);  // never
  ExpectedEnds ends;
  ends.update(jobs, 0, estimate_of);
  EXPECT_EQ(ends.first_after(0), 20);
  EXPECT_EQ(ends.first_after(20), 30);
  EXPECT_EQ(ends.first_after(30), kNever);
  // At 25, 2 is overdue (it ends at 25): after 25 comes 30; before, 25.
  ends.update(jobs, 25, estimate_of);
  EXPECT_EQ(ends.first_after(25), 30);
  EXPECT_EQ(ends.first_after(24), 25);
}

TEST(ExpectedEnds, ACallForAnEarlierTimeMakesOverdueRunsExpectedAgain) {
  LoggedRuns jobs(5);
  jobs.begin(2, 0);  // 20
  jobs.begin(1, 0);  // 30
  ExpectedEnds ends;
  ends.update(jobs, 40, estimate_of);
  EXPECT_EQ(all_of(ends), (Ends{{40, 2}, {40, 1}}));
  ends.update(jobs, 25, estimate_of);
  EXPECT_EQ(all_of(ends), (Ends{{25, 2}, {30, 1}}));
}

}  // namespace
}  // namespace gcsim
