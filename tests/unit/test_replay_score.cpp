// A replay scored against the recorded schedule, on jobs whose waits are
// counted by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "sim/report/replay_score.hpp"
#include "sim/report/replay_score_outputs.hpp"

namespace gcsim {
namespace {

constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

ReplayJob job(const std::string& id, const std::string& queue, Time submit, double recorded_wait, Time start,
              double gpus = 1, Time run = 0) {
  ReplayJob j;
  j.id = id;
  j.user = "u-" + queue;
  j.queue = queue;
  j.gpus = gpus;
  j.submit = submit;
  j.recorded_wait = recorded_wait;
  j.recorded_run = run;
  j.simulated_start = start;
  return j;
}

TEST(ReplayScore, WaitsMeansMediansErrorsAndKsCountedByHand) {
  // Simulated waits 0, 30, 100, 200; recorded 0, 60, 100, 100.
  const std::vector<ReplayJob> jobs = {job("a", "q1", 0, 0, 0), job("b", "q1", 10, 60, 40),
                                       job("c", "q2", 20, 100, 120), job("d", "q2", 30, 100, 230)};
  const ReplayScore score = score_replay(jobs, {}, 10);
  const WaitScore& s = score.all;
  EXPECT_EQ(s.jobs, 4u);
  EXPECT_DOUBLE_EQ(s.mean_simulated, 82.5);  // 330 / 4
  EXPECT_DOUBLE_EQ(s.mean_recorded, 65);     // 260 / 4
  EXPECT_DOUBLE_EQ(*s.mean_relative_error, 17.5 / 65);
  EXPECT_DOUBLE_EQ(s.median_simulated, 65);  // (30 + 100) / 2
  EXPECT_DOUBLE_EQ(s.median_recorded, 80);   // (60 + 100) / 2
  EXPECT_DOUBLE_EQ(*s.median_relative_error, -15.0 / 80);
  // Absolute errors 0, 30, 0, 100; sorted 0, 0, 30, 100.
  EXPECT_DOUBLE_EQ(s.abs_error_p50, 15);
  EXPECT_DOUBLE_EQ(s.abs_error_p90, 30 + 0.7 * 70);  // rank 2.7
  EXPECT_DOUBLE_EQ(s.within_60s, 0.75);
  // CDFs: at 30 sim 2/4, rec 1/4; at 60 sim 2/4, rec 2/4; at 100 sim 3/4, rec 1. Largest 1/4.
  EXPECT_DOUBLE_EQ(s.ks, 0.25);
  ASSERT_EQ(score.queues.size(), 2u);
  EXPECT_EQ(score.queues[0].name, "q1");
  EXPECT_DOUBLE_EQ(score.queues[0].score.mean_simulated, 15);
  EXPECT_DOUBLE_EQ(score.queues[1].score.mean_recorded, 100);
}

TEST(ReplayScore, JobsWithoutARecordedStartOrNeverStartedAreCountedAndLeftOut) {
  const std::vector<ReplayJob> jobs = {job("a", "q", 0, 10, 10), job("b", "q", 0, kUnknown, 5),
                                       job("c", "q", 0, 20, kNever)};
  const ReplayScore score = score_replay(jobs, {}, 10);
  EXPECT_EQ(score.jobs, 3u);
  EXPECT_EQ(score.without_recorded_start, 1u);
  EXPECT_EQ(score.not_started, 1u);
  EXPECT_EQ(score.all.jobs, 1u);
  EXPECT_EQ(score.all.ks, 0);
}

TEST(ReplayScore, TopGroupsAreThoseOfMostJobs) {
  const std::vector<ReplayJob> jobs = {job("a", "small", 0, 0, 0), job("b", "big", 0, 0, 0), job("c", "big", 0, 0, 0),
                                       job("d", "mid", 0, 0, 0),   job("e", "mid", 0, 0, 0), job("f", "big", 0, 0, 0)};
  const ReplayScore score = score_replay(jobs, {}, 2);
  ASSERT_EQ(score.queues.size(), 2u);
  EXPECT_EQ(score.queues[0].name, "big");
  EXPECT_EQ(score.queues[1].name, "mid");
}

TEST(ReplayScore, RecordedGpusOverTimeBesideTheSimulatedTimeline) {
  // Recorded: a holds 2 GPUs over [10, 30), b 1 GPU over [20, 40). Simulated: 2 GPUs over [0, 40).
  const std::vector<ReplayJob> jobs = {job("a", "q", 0, 10, 0, 2, 20), job("b", "q", 20, 0, 0, 1, 20)};
  const std::vector<TimelinePoint> timeline = {{0, 2, 2, 0}, {40, 0, 0, 0}};
  const ReplayScore score = score_replay(jobs, timeline, 10);
  ASSERT_EQ(score.gpus.size(), 5u);
  const double times[] = {0, 10, 20, 30, 40}, recorded[] = {0, 2, 3, 1, 0}, simulated[] = {2, 2, 2, 2, 0};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(score.gpus[i].time, times[i]) << i;
    EXPECT_EQ(score.gpus[i].recorded, recorded[i]) << i;
    EXPECT_EQ(score.gpus[i].simulated, simulated[i]) << i;
  }
  EXPECT_DOUBLE_EQ(score.mean_gpus_recorded, (2 * 10 + 3 * 10 + 1 * 10) / 40.0);
  EXPECT_DOUBLE_EQ(score.mean_gpus_simulated, 2);
}

TEST(ReplayScoreOutputs, JobsCsvLeavesUnknownWaitsEmpty) {
  std::ostringstream out;
  write_score_jobs_csv(out, {job("a", "q", 5, 10, 25), job("b", "q", 0, kUnknown, 5), job("c", "q", 0, 20, kNever)});
  EXPECT_EQ(out.str(),
            "id,user,queue,gpus,submit,recorded_wait,simulated_wait,abs_error\n"
            "a,u-q,q,1,5,10,20,10\n"
            "b,u-q,q,1,0,,5,\n"
            "c,u-q,q,1,0,20,,\n");
}

TEST(ReplayScoreOutputs, JsonNamesTheRelativeErrorNullWhenTheRecordedFigureIsZero) {
  const ReplayScore score = score_replay({job("a", "q", 0, 0, 30)}, {}, 10);
  const nlohmann::json json = score_json(score, {"csv:t.csv", "c.json", "fifo", ""});
  EXPECT_TRUE(json["waits"]["mean_wait_relative_error"].is_null());
  EXPECT_EQ(json["waits"]["mean_wait_s"]["simulated"], 30);
  EXPECT_EQ(json["waits"]["ks_distance"], 1);
  EXPECT_TRUE(json["startup_latency"].is_null());
}

}  // namespace
}  // namespace gcsim
