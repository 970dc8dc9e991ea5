// Each reader that knows when the traced cluster scheduled a job keeps how
// long the job waited (TraceReadResult::recorded_waits, start - submit):
// crafted rows whose waits are counted by hand, jobs without a start left NaN,
// and the waits following the jobs through sorting and selection.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "traces/csv_trace.hpp"
#include "traces/helios_trace.hpp"
#include "traces/philly_job_log.hpp"
#include "traces/swf_trace.hpp"
#include "traces/trace_selection.hpp"

namespace gcsim {
namespace {

TraceReadResult csv(const std::string& text, const std::string& map) {
  TraceReadOptions options;
  options.columns = parse_csv_column_map(map);
  std::istringstream in(text);
  return parse_csv_trace(in, "jobs.csv", options);
}

TEST(RecordedWaits, CsvStartColumnGivesEachJobsWaitInSubmitOrder) {
  // Rows out of submit order: the waits follow their jobs when they are sorted.
  const TraceReadResult trace =
      csv("id,submit,start,end,gpus\n"
          "b,100,130,200,1\n"
          "a,10,10,50,2\n"
          "c,40,100,160,1\n",
          "id=id,submit=submit,start=start,end=end,gpus=gpus");
  ASSERT_EQ(trace.jobs.size(), 3u);
  ASSERT_EQ(trace.recorded_waits.size(), 3u);
  EXPECT_EQ(trace.jobs[0].id, "a");
  EXPECT_EQ(trace.recorded_waits[0], 0);
  EXPECT_EQ(trace.jobs[1].id, "c");
  EXPECT_EQ(trace.recorded_waits[1], 60);
  EXPECT_EQ(trace.jobs[2].id, "b");
  EXPECT_EQ(trace.recorded_waits[2], 30);
}

TEST(RecordedWaits, CsvByDurationRecordsNoStartAndKeepsNoWaits) {
  const TraceReadResult trace =
      csv("submit,duration,gpus\n0,10,1\n5,10,1\n", "submit=submit,duration=duration,gpus=gpus");
  ASSERT_EQ(trace.jobs.size(), 2u);
  EXPECT_TRUE(trace.recorded_waits.empty());
}

TEST(RecordedWaits, CsvJobSubmittedBeforeTheWindowHasNoRecordedWait) {
  // Job x has no submit time (censored at start): its wait is unknown.
  const TraceReadResult trace =
      csv("id,submit,start,end,gpus\n"
          "x,,5,50,1\n"
          "y,10,25,60,1\n",
          "id=id,submit=submit,start=start,end=end,gpus=gpus");
  ASSERT_EQ(trace.jobs.size(), 2u);
  ASSERT_EQ(trace.recorded_waits.size(), 2u);
  EXPECT_EQ(trace.jobs[0].id, "x");
  EXPECT_TRUE(std::isnan(trace.recorded_waits[0]));
  EXPECT_EQ(trace.recorded_waits[1], 15);
}

TEST(RecordedWaits, SwfWaitFieldIsTheWaitAndMinusOneIsUnknown) {
  // Fields: number submit wait run procs cpu mem req_procs req_time req_mem status user group exe queue partition
  // preceding think.
  std::istringstream in(
      "1 0 30 100 1 -1 -1 1 200 -1 1 1 -1 -1 1 -1 -1 -1\n"
      "2 10 -1 100 1 -1 -1 1 200 -1 1 1 -1 -1 1 -1 -1 -1\n"
      "3 20 0 100 1 -1 -1 1 200 -1 1 1 -1 -1 1 -1 -1 -1\n");
  const TraceReadResult trace = parse_swf_trace(in, "log.swf", {});
  ASSERT_EQ(trace.jobs.size(), 3u);
  ASSERT_EQ(trace.recorded_waits.size(), 3u);
  EXPECT_EQ(trace.recorded_waits[0], 30);
  EXPECT_TRUE(std::isnan(trace.recorded_waits[1]));
  EXPECT_EQ(trace.recorded_waits[2], 0);
}

TEST(RecordedWaits, HeliosStartTimeMinusSubmitTime) {
  std::istringstream in(
      "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n"
      "1,u,vc,1,1,1,COMPLETED,2020-06-09 18:41:01,2020-06-09 18:43:01,2020-06-09 19:00:00,1000,120\n"
      "2,u,vc,1,1,1,COMPLETED,2020-06-09 18:42:00,2020-06-09 18:42:00,2020-06-09 19:00:00,1080,0\n");
  const TraceReadResult trace = parse_helios_trace(in, "cluster_log.csv", {});
  ASSERT_EQ(trace.recorded_waits.size(), 2u);
  EXPECT_EQ(trace.recorded_waits[0], 120);
  EXPECT_EQ(trace.recorded_waits[1], 0);
}

TEST(RecordedWaits, PhillyJobLogCountsTheWaitToTheFirstAttempt) {
  // Submitted 00:10:00; first attempt 00:10:05, second 00:30:00: it waited 5 s.
  const std::string log = R"([
{"status": "Failed", "vc": "vc2", "jobid": "app_2", "user": "u2", "submitted_time": "2017-10-03 00:10:00", "attempts": [{"start_time": "2017-10-03 00:10:05", "end_time": "2017-10-03 00:20:05", "detail": [{"ip": "m3", "gpus": ["gpu0"]}]}, {"start_time": "2017-10-03 00:30:00", "end_time": "2017-10-03 00:35:00", "detail": [{"ip": "m4", "gpus": ["gpu2", "gpu3"]}]}]}
]
)";
  const TraceReadResult trace = parse_philly_job_log(log, "cluster_job_log", {});
  ASSERT_EQ(trace.recorded_waits.size(), 1u);
  EXPECT_EQ(trace.recorded_waits[0], 5);
}

TEST(RecordedWaits, SelectionKeepsEachKeptJobsWait) {
  TraceReadResult trace =
      csv("id,submit,start,end,gpus\n"
          "a,0,7,50,1\n"
          "b,10,12,60,4\n"
          "c,20,29,80,1\n",
          "id=id,submit=submit,start=start,end=end,gpus=gpus");
  TraceSelection selection;
  selection.max_gpus = 1;
  selection.load_scale = 2;  // submit times halve; the recorded waits stay
  apply_trace_selection(trace, selection);
  ASSERT_EQ(trace.jobs.size(), 2u);
  ASSERT_EQ(trace.recorded_waits.size(), 2u);
  EXPECT_EQ(trace.jobs[1].id, "c");
  EXPECT_EQ(trace.jobs[1].submit, 10);
  EXPECT_EQ(trace.recorded_waits[0], 7);
  EXPECT_EQ(trace.recorded_waits[1], 9);
}

}  // namespace
}  // namespace gcsim
