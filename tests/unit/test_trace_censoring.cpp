// Censored jobs: rows the trace saw only in part, because they were
// submitted before its window began (no submit time) or still running when
// it ended (no end time). They are kept by default, submitted at the
// window's start (before every other job) and ending at its end, counted
// apart; `censored=drop` skips them as not replayable. The window runs from
// the time origin (the earliest submission, or start where a row has no
// submission) to the latest time the kept rows record.
#include <gtest/gtest.h>

#include <sstream>

#include "sim/core/input_error.hpp"
#include "tests/support/trace_files.hpp"
#include "traces/csv_trace.hpp"
#include "traces/helios_trace.hpp"
#include "traces/pai_trace.hpp"
#include "traces/philly_job_log.hpp"

namespace gcsim {
namespace {

using testing::TempFolder;

const std::string kPodMap = "id=name,submit=created,start=scheduled,end=deleted,gpus=gpus";

TraceReadResult parse(const std::string& text, TraceReadOptions options = {}, const std::string& map = kPodMap) {
  options.columns = parse_csv_column_map(map);
  std::istringstream in(text);
  return parse_csv_trace(in, "pods.csv", options);
}

double run_time(const JobSpec& job) { return std::get<MeasuredWork>(job.work).seconds; }

// Window: from 40 (p2's submission; p1's start, 50, is later) to 200 (p1's end).
const std::string kPods =
    "name,created,scheduled,deleted,gpus\n"
    "p2,40,45,105,2\n"  // line 2: seen whole: submit 0, 60 s
    "p1,,50,200,1\n"    // line 3: running before the window: submit 0, 200 - 50 = 150 s
    "p3,120,130,,2\n";  // line 4: running at its end: submit 80, 200 - 130 = 70 s

TEST(TraceCensoring, RowsBegunBeforeTheWindowOrRunningAtItsEndAreKeptAndCountedApart) {
  for (const bool strict : {false, true}) {
    SCOPED_TRACE(strict ? "strict" : "lenient");
    TraceReadOptions options;
    options.strict = strict;
    const TraceReadResult trace = parse(kPods, options);
    EXPECT_TRUE(trace.skipped.empty());
    EXPECT_EQ(trace.time_origin, 40);
    ASSERT_EQ(trace.jobs.size(), 3u);
    // p1 is submitted at the window's start, before p2 submitted at the same time.
    EXPECT_EQ(trace.jobs[0].id, "p1");
    EXPECT_EQ(trace.jobs[0].submit, 0);
    EXPECT_EQ(run_time(trace.jobs[0]), 150);
    EXPECT_EQ(trace.jobs[1].id, "p2");
    EXPECT_EQ(trace.jobs[1].submit, 0);
    EXPECT_EQ(run_time(trace.jobs[1]), 60);
    EXPECT_EQ(trace.jobs[2].id, "p3");
    EXPECT_EQ(trace.jobs[2].submit, 80);
    EXPECT_EQ(run_time(trace.jobs[2]), 70);
    EXPECT_EQ(trace.censored_at_start, 1u);
    EXPECT_EQ(trace.censored_at_end, 1u);
  }
}

TEST(TraceCensoring, DroppedOnRequestAsNotReplayableWithTheirReason) {
  TraceReadOptions options;
  options.keep_censored = false;
  options.strict = true;  // not malformed: no error
  const TraceReadResult trace = parse(kPods, options);
  ASSERT_EQ(trace.jobs.size(), 1u);
  EXPECT_EQ(trace.jobs[0].id, "p2");
  EXPECT_EQ(trace.jobs[0].submit, 0);  // the same window as when they are kept
  EXPECT_EQ(trace.censored_at_start, 0u);
  EXPECT_EQ(trace.censored_at_end, 0u);
  ASSERT_EQ(trace.skipped.size(), 2u);
  EXPECT_EQ(trace.skipped[0].line, 3u);
  EXPECT_EQ(trace.skipped[0].field, "created");
  EXPECT_EQ(trace.skipped[0].reason, "censored at start");
  EXPECT_FALSE(trace.skipped[0].malformed);
  EXPECT_EQ(trace.skipped[1].line, 4u);
  EXPECT_EQ(trace.skipped[1].field, "deleted");
  EXPECT_EQ(trace.skipped[1].reason, "censored at end");
  EXPECT_FALSE(trace.skipped[1].malformed);
}

TEST(TraceCensoring, ARowWithoutStartOrEndIsCensoredFromTheWindowsBoundsAndOneWithNoTimeIsNotReplayable) {
  const TraceReadResult trace = parse(
      "name,created,scheduled,deleted,gpus\n"
      "a,100,110,170,1\n"    // line 2: the window runs from 100 (the earliest submission or start) ...
      "b,,,160,1\n"          // line 3: ended at 160: 60 s in the window
      "c,,120,,1\n"          // line 4: censored at both ends: 300 - 120 = 180 s
      "d,,,,1\n"             // line 5: no time at all
      "e,,,90,1\n"           // line 6: ended before the window began
      "g,,,100,1\n"          // line 7: ended as it began: 0 s in it
      "f,250,260,300,1\n");  // line 8: ... to 300
  ASSERT_EQ(trace.jobs.size(), 4u);
  EXPECT_EQ(trace.jobs[0].id, "b");
  EXPECT_EQ(trace.jobs[0].submit, 0);
  EXPECT_EQ(run_time(trace.jobs[0]), 60);
  EXPECT_EQ(trace.jobs[1].id, "c");
  EXPECT_EQ(trace.jobs[1].submit, 0);
  EXPECT_EQ(run_time(trace.jobs[1]), 180);
  EXPECT_EQ(trace.jobs[2].id, "a");
  EXPECT_EQ(trace.jobs[3].id, "f");
  EXPECT_EQ(trace.jobs[3].submit, 150);
  EXPECT_EQ(trace.censored_at_start, 2u);
  EXPECT_EQ(trace.censored_at_end, 1u);
  ASSERT_EQ(trace.skipped.size(), 3u);
  EXPECT_EQ(trace.skipped[0].line, 5u);
  EXPECT_EQ(trace.skipped[0].reason, "no submit, start or end time");
  EXPECT_FALSE(trace.skipped[0].malformed);
  EXPECT_EQ(trace.skipped[1].line, 6u);
  EXPECT_EQ(trace.skipped[1].reason, "ended before the time origin");
  EXPECT_FALSE(trace.skipped[1].malformed);
  EXPECT_EQ(trace.skipped[2].line, 7u);
  EXPECT_EQ(trace.skipped[2].reason, "ran for 0 s (gcsim replays positive run times)");
}

TEST(TraceCensoring, WithADurationColumnAnEmptySubmitIsNotReplayable) {
  // A duration says how long the job ran, not when: nothing places it in the window.
  const TraceReadResult trace = parse("t,g,d\n0,1,60\n,1,60\n", {}, "submit=t,gpus=g,duration=d");
  ASSERT_EQ(trace.jobs.size(), 1u);
  ASSERT_EQ(trace.skipped.size(), 1u);
  EXPECT_EQ(trace.skipped[0].line, 3u);
  EXPECT_EQ(trace.skipped[0].reason, "no submit time");
  EXPECT_FALSE(trace.skipped[0].malformed);
  EXPECT_EQ(trace.censored_at_start, 0u);
}

TEST(TraceCensoring, WithAnEpochTheWindowStartsThereAndAStartBeforeItCountsFromIt) {
  TraceReadOptions options;
  options.time_origin = 60;
  const TraceReadResult trace = parse(kPods, options);
  ASSERT_EQ(trace.jobs.size(), 2u);
  EXPECT_EQ(trace.jobs[0].id, "p1");
  EXPECT_EQ(trace.jobs[0].submit, 0);
  EXPECT_EQ(run_time(trace.jobs[0]), 200 - 60);  // started at 50, before the window: counted from 60
  EXPECT_EQ(trace.jobs[1].id, "p3");
  EXPECT_EQ(trace.jobs[1].submit, 60);
  ASSERT_EQ(trace.skipped.size(), 1u);
  EXPECT_EQ(trace.skipped[0].reason, "submitted before the time origin");  // p2, at 40
}

TEST(TraceCensoring, HeliosJobsStillRunningAtTheEndOfTheLogEndWithIt) {
  std::istringstream in(
      "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time\n"
      "1,u,vc,1,1,1,COMPLETED,2020-06-09 18:00:00,2020-06-09 18:00:00,2020-06-09 19:00:00\n"
      "2,u,vc,2,1,1,RUNNING,2020-06-09 18:10:00,2020-06-09 18:30:00,\n"
      "3,u,vc,2,1,1,PENDING,2020-06-09 18:20:00,,\n");
  const TraceReadResult trace = parse_helios_trace(in, "cluster_log.csv", {});
  ASSERT_EQ(trace.jobs.size(), 2u);
  EXPECT_EQ(trace.jobs[1].id, "2");
  EXPECT_EQ(run_time(trace.jobs[1]), 1800);  // 18:30 to 19:00, the log's last time
  EXPECT_EQ(trace.censored_at_end, 1u);
  ASSERT_EQ(trace.skipped.size(), 1u);
  EXPECT_EQ(trace.skipped[0].reason, "never started (no start_time)");
}

TEST(TraceCensoring, PhillyJobLogJobsRunningAtTheEndAddTheirOpenAttemptUpToIt) {
  const std::string log = R"([
{"status": "Pass", "vc": "vc1", "jobid": "a", "user": "u", "submitted_time": "2017-10-03 00:00:00", "attempts": [{"start_time": "2017-10-03 00:00:00", "end_time": "2017-10-03 02:00:00", "detail": [{"ip": "m1", "gpus": ["gpu0"]}]}]},
{"status": "Running", "vc": "vc1", "jobid": "b", "user": "u", "submitted_time": "2017-10-03 00:10:00", "attempts": [{"start_time": "2017-10-03 00:10:00", "end_time": "2017-10-03 00:20:00", "detail": [{"ip": "m2", "gpus": ["gpu0"]}]}, {"start_time": "2017-10-03 01:00:00", "end_time": "None", "detail": [{"ip": "m2", "gpus": ["gpu0", "gpu1"]}]}]}
]
)";
  const TraceReadResult trace = parse_philly_job_log(log, "cluster_job_log", {});
  ASSERT_EQ(trace.jobs.size(), 2u);
  EXPECT_EQ(trace.jobs[1].id, "b");
  EXPECT_EQ(trace.jobs[1].gpus, 2u);
  EXPECT_EQ(run_time(trace.jobs[1]), 600 + 3600);  // 10 min, then 01:00 to 02:00, the log's last time
  EXPECT_EQ(trace.censored_at_end, 1u);
  EXPECT_TRUE(trace.skipped.empty());
}

TEST(TraceCensoring, PaiJobsWithATaskStillRunningEndAtTheLogsLastTime) {
  TempFolder dir;
  dir.write("pai_task_table.csv",
            "done,worker,1,Terminated,100,400,100,1,100,V100\n"
            "open,worker,1,Running,200,,100,1,100,V100\n"
            "open,ps,1,Terminated,150,300,100,1,,\n");
  TraceReadOptions options;
  const TraceReadResult trace = read_pai_trace(dir.path() + "/pai_task_table.csv", options);
  ASSERT_EQ(trace.jobs.size(), 2u);
  EXPECT_EQ(trace.jobs[1].id, "open");
  EXPECT_EQ(run_time(trace.jobs[1]), 400 - 150);  // its first task's start to the log's last time
  EXPECT_EQ(trace.censored_at_end, 1u);
  options.keep_censored = false;
  const TraceReadResult dropped = read_pai_trace(dir.path() + "/pai_task_table.csv", options);
  ASSERT_EQ(dropped.jobs.size(), 1u);
  ASSERT_EQ(dropped.skipped.size(), 1u);
  EXPECT_EQ(dropped.skipped[0].reason, "censored at end");
  EXPECT_EQ(dropped.skipped[0].field, "end_time");
}

}  // namespace
}  // namespace gcsim
