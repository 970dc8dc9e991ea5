// The Helios reader, on crafted rows in the format the HeliosData release
// documents (its cluster_log.csv files are not among the shared traces):
// the documented example rows, CPU jobs, jobs that never ran, and each kind
// of malformed row.
#include <gtest/gtest.h>

#include <sstream>

#include "sim/core/input_error.hpp"
#include "traces/helios_trace.hpp"

namespace gcsim {
namespace {

const std::string kHeader =
    "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n";

TraceReadResult parse(const std::string& text, TraceReadOptions options = {}) {
  std::istringstream in(text);
  return parse_helios_trace(in, "cluster_log.csv", options);
}

const std::string kCrafted =
    kHeader +
    // line 2, 3: the HeliosData README's example rows
    "1425511,uXBbc,vcJkd,1,1,1,COMPLETED,2020-06-09 18:41:01,2020-06-09 18:41:01,2020-06-10 04:55:09,36848,0\n"
    "1425512,uVMrF,vchbv,4,16,1,FAILED,2020-06-09 18:41:27,2020-06-09 18:41:27,2020-06-09 18:45:36,249,0\n"
    // line 4: a CPU job
    "1425513,uzqls,vcpDC,0,1,1,COMPLETED,2020-06-09 18:41:28,2020-06-09 18:41:28,2020-06-09 18:41:30,2,0\n"
    // line 5: cancelled while queued, never started
    "1425514,u1,vc1,2,8,1,CANCELLED,2020-06-09 18:42:00,,2020-06-09 18:50:00,0,480\n"
    // line 6: ends before it starts
    "1425515,u1,vc1,2,8,1,COMPLETED,2020-06-09 18:43:00,2020-06-09 18:44:00,2020-06-09 18:43:30,-30,60\n"
    // line 7: a negative GPU count
    "1425516,u1,vc1,-2,8,1,COMPLETED,2020-06-09 18:43:00,2020-06-09 18:44:00,2020-06-09 18:45:00,60,60\n"
    // line 8: job id 1425511 again
    "1425511,u1,vc1,1,1,1,COMPLETED,2020-06-09 18:43:00,2020-06-09 18:44:00,2020-06-09 18:45:00,60,60\n"
    // line 9: the earliest submission
    "1425517,u1,vc1,8,32,1,TIMEOUT,2020-06-09 18:40:00,2020-06-09 18:40:30,2020-06-09 19:40:30,3600,30\n"
    // line 10: no such date
    "1425518,u1,vc1,1,1,1,COMPLETED,2020-06-31 18:43:00,2020-06-31 18:44:00,2020-06-31 18:45:00,60,60\n"
    // line 11: starts before it is submitted
    "1425519,u2,vc2,1,1,1,COMPLETED,2020-06-09 18:43:00,2020-06-09 18:42:00,2020-06-09 18:45:00,180,-60\n";

TEST(HeliosTrace, DocumentedRowsBecomeJobsWithTheirRecordedRunTimes) {
  const TraceReadResult trace = parse(kCrafted);
  EXPECT_EQ(trace.rows, 10u);
  ASSERT_EQ(trace.jobs.size(), 3u);
  // Sorted by submit, relative to the earliest (18:40:00).
  EXPECT_EQ(trace.jobs[0].id, "1425517");
  EXPECT_EQ(trace.jobs[0].submit, 0);
  EXPECT_EQ(trace.jobs[0].gpus, 8u);
  EXPECT_EQ(trace.jobs[0].cpu_cores, 32u);
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[0].work).seconds, 3600);
  EXPECT_EQ(trace.jobs[1].id, "1425511");
  EXPECT_EQ(trace.jobs[1].submit, 61);
  EXPECT_EQ(trace.jobs[1].user, "uXBbc");
  EXPECT_EQ(trace.jobs[1].queue, "vcJkd");
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[1].work).seconds, 36848);  // the row's own duration column
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[1].work).gpu_type, "V100");
  EXPECT_EQ(trace.jobs[2].id, "1425512");
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[2].work).seconds, 249);
  EXPECT_EQ(trace.job_status, (std::vector<std::string>{"TIMEOUT", "COMPLETED", "FAILED"}));
  EXPECT_TRUE(trace.calendar_clock);
}

TEST(HeliosTrace, BadRowsAreSkippedWithTheirLineAndReason) {
  const TraceReadResult trace = parse(kCrafted);
  struct Expected {
    std::size_t line;
    const char* field;
    const char* reason;
    bool malformed;
  };
  const Expected expected[] = {{4, "gpu_num", "CPU job (gpu_num 0)", false},
                               {5, "start_time", "never started (no start_time)", false},
                               {6, "end_time", "end before start", true},
                               {7, "gpu_num", "not a GPU count (an integer >= 0)", true},
                               {8, "job_id", "duplicate job id", true},
                               {10, "submit_time", "not a time (YYYY-MM-DD HH:MM:SS or seconds)", true},
                               {11, "start_time", "starts before it was submitted", true}};
  ASSERT_EQ(trace.skipped.size(), std::size(expected));
  for (std::size_t i = 0; i < std::size(expected); ++i) {
    SCOPED_TRACE("line " + std::to_string(expected[i].line));
    EXPECT_EQ(trace.skipped[i].line, expected[i].line);
    EXPECT_EQ(trace.skipped[i].field, expected[i].field);
    EXPECT_EQ(trace.skipped[i].reason, expected[i].reason);
    EXPECT_EQ(trace.skipped[i].malformed, expected[i].malformed);
  }
  EXPECT_EQ(trace.skipped[2].detail, "ends 30 s before it starts");
  EXPECT_EQ(trace.skipped[4].detail, "'1425511' is also on line 2");
}

TEST(HeliosTrace, StrictModeFailsOnTheFirstMalformedRowNotOnCpuJobs) {
  TraceReadOptions options;
  options.strict = true;
  try {
    parse(kCrafted, options);
    FAIL() << "strict mode accepted a job ending before it starts";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "line 6");
    EXPECT_EQ(e.field(), "end_time");
    EXPECT_EQ(e.problem(), "end before start (ends 30 s before it starts)");
  }
}

TEST(HeliosTrace, CalendarTimesAndNumbersInOneColumnAreMixedTimeFormats) {
  const TraceReadResult trace = parse(
      "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time\n"
      "1,u,vc,1,1,1,COMPLETED,2020-06-09 18:41:01,2020-06-09 18:42:01,2020-06-09 18:52:01\n"
      "2,u,vc,1,1,1,COMPLETED,30,2020-06-09 18:42:01,2020-06-09 18:52:01\n");
  ASSERT_EQ(trace.jobs.size(), 1u);
  ASSERT_EQ(trace.skipped.size(), 1u);
  EXPECT_EQ(trace.skipped[0].line, 3u);
  EXPECT_EQ(trace.skipped[0].field, "submit_time");
  EXPECT_EQ(trace.skipped[0].reason, "mixed time formats in one column");
  EXPECT_EQ(trace.skipped[0].detail, "got '30': a number here, a calendar time on line 2");
}

TEST(HeliosTrace, TheTenColumnLayoutWithoutDurationAndQueueIsRead) {
  const TraceReadResult trace = parse(
      "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time\n"
      "7,u,vc,2,4,1,COMPLETED,2020-06-09 18:41:01,2020-06-09 18:42:01,2020-06-09 18:52:01\n");
  ASSERT_EQ(trace.jobs.size(), 1u);
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[0].work).seconds, 600);
}

TEST(HeliosTrace, AMissingColumnIsNamed) {
  try {
    parse("job_id,user,vc,cpu_num,state,submit_time,start_time,end_time\n");
    FAIL() << "accepted a log without gpu_num";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "gpu_num");
    EXPECT_EQ(e.where(), "line 1");
  }
}

}  // namespace
}  // namespace gcsim
