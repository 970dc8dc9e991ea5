// What every reader checks of a job's submit and start times: a negative
// numeric submit time and a start before the submit are malformed, an error
// under strict mode naming the file, line and column, else skipped with
// their reason. A calendar time before 1970 is a date, not a negative number.
#include <gtest/gtest.h>

#include <sstream>

#include "sim/core/input_error.hpp"
#include "traces/csv_trace.hpp"
#include "traces/helios_trace.hpp"
#include "traces/philly_job_log.hpp"
#include "traces/swf_trace.hpp"

namespace gcsim {
namespace {

TraceReadResult parse_csv(const std::string& text, const std::string& map, bool strict = false) {
  TraceReadOptions options;
  options.strict = strict;
  options.columns = parse_csv_column_map(map);
  std::istringstream in(text);
  return parse_csv_trace(in, "jobs.csv", options);
}

// The InputError `read` throws; fails the test when it throws none.
template <typename Read>
InputError error_of(Read read) {
  try {
    read();
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "read without an error";
  return InputError("", "", "", "");
}

const std::string kStartEnd =
    "id,t,s,e,g\n"
    "a,10,20,80,1\n"   // line 2
    "b,-5,20,80,1\n"   // line 3: a negative submit time
    "c,30,25,80,1\n";  // line 4: starts 5 s before it was submitted
const std::string kStartEndMap = "id=id,submit=t,start=s,end=e,gpus=g";

TEST(TraceSubmitChecks, ANegativeSubmitOrAStartBeforeTheSubmitIsSkippedAsMalformed) {
  const TraceReadResult trace = parse_csv(kStartEnd, kStartEndMap);
  ASSERT_EQ(trace.jobs.size(), 1u);
  EXPECT_EQ(trace.jobs[0].id, "a");
  EXPECT_EQ(trace.time_origin, 10);  // not -5
  ASSERT_EQ(trace.skipped.size(), 2u);
  EXPECT_EQ(trace.skipped[0].line, 3u);
  EXPECT_EQ(trace.skipped[0].field, "t");
  EXPECT_EQ(trace.skipped[0].reason, "negative submit time");
  EXPECT_EQ(trace.skipped[0].detail, "got '-5'");
  EXPECT_TRUE(trace.skipped[0].malformed);
  EXPECT_EQ(trace.skipped[1].line, 4u);
  EXPECT_EQ(trace.skipped[1].field, "s");
  EXPECT_EQ(trace.skipped[1].reason, "starts before it was submitted");
  EXPECT_EQ(trace.skipped[1].detail, "starts 5 s before it is submitted");
  EXPECT_TRUE(trace.skipped[1].malformed);
}

TEST(TraceSubmitChecks, StrictModeFailsOnEachNamingTheFileLineAndColumn) {
  const InputError negative = error_of([] { parse_csv(kStartEnd, kStartEndMap, true); });
  EXPECT_EQ(negative.file(), "jobs.csv");
  EXPECT_EQ(negative.where(), "line 3");
  EXPECT_EQ(negative.field(), "t");
  EXPECT_NE(negative.problem().find("negative submit time"), std::string::npos) << negative.problem();
  const InputError early = error_of([] { parse_csv("id,t,s,e,g\nc,30,25,80,1\n", kStartEndMap, true); });
  EXPECT_EQ(early.where(), "line 2");
  EXPECT_EQ(early.field(), "s");
  EXPECT_NE(early.problem().find("starts before it was submitted"), std::string::npos) << early.problem();
}

TEST(TraceSubmitChecks, ANegativeSubmitIsMalformedWithADurationColumnToo) {
  const InputError error = error_of([] { parse_csv("t,g,d\n0,1,60\n-1,1,60\n", "submit=t,gpus=g,duration=d", true); });
  EXPECT_EQ(error.where(), "line 3");
  EXPECT_EQ(error.field(), "t");
}

TEST(TraceSubmitChecks, ACalendarTimeBefore1970IsADateNotANegativeNumber) {
  const TraceReadResult trace =
      parse_csv("t,g,d\n1969-12-31 23:59:00,1,60\n1970-01-01 00:00:00,1,60\n", "submit=t,gpus=g,duration=d", true);
  ASSERT_EQ(trace.jobs.size(), 2u);
  EXPECT_EQ(trace.jobs[1].submit, 60);
}

TEST(TraceSubmitChecks, HeliosAndThePhillyJobLogCheckTheirStartsAlike) {
  std::istringstream helios(
      "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time\n"
      "1,u,vc,1,1,1,COMPLETED,100,90,200\n"
      "2,u,vc,1,1,1,COMPLETED,-3,10,20\n");
  const TraceReadResult h = parse_helios_trace(helios, "cluster_log.csv", {});
  ASSERT_EQ(h.skipped.size(), 2u);
  EXPECT_EQ(h.skipped[0].field, "start_time");
  EXPECT_EQ(h.skipped[0].reason, "starts before it was submitted");
  EXPECT_EQ(h.skipped[1].field, "submit_time");
  EXPECT_EQ(h.skipped[1].reason, "negative submit time");
  const std::string log = R"([
{"status": "Pass", "jobid": "a", "submitted_time": "2017-10-03 00:10:00", "attempts": [{"start_time": "2017-10-03 00:05:00", "end_time": "2017-10-03 00:20:00", "detail": [{"ip": "m1", "gpus": ["gpu0"]}]}]}
]
)";
  TraceReadOptions strict;
  strict.strict = true;
  const InputError error = error_of([&] { parse_philly_job_log(log, "cluster_job_log", strict); });
  EXPECT_EQ(error.where(), "line 2");
  EXPECT_EQ(error.field(), "attempts.start_time");
  EXPECT_NE(error.problem().find("starts before it was submitted"), std::string::npos) << error.problem();
}

TEST(TraceSubmitChecks, SwfsMinusOneIsAnUnknownSubmitTimeNotANegativeOne) {
  // 18 fields: job, submit, wait, run time, processors, ..., status 1.
  const std::string swf =
      "1 0 0 60 1 -1 -1 1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
      "2 -1 0 60 1 -1 -1 1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n"   // line 2: unknown
      "3 -5 0 60 1 -1 -1 1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n";  // line 3: negative
  std::istringstream in(swf);
  const TraceReadResult trace = parse_swf_trace(in, "log.swf", {});
  ASSERT_EQ(trace.jobs.size(), 1u);
  ASSERT_EQ(trace.skipped.size(), 2u);
  EXPECT_EQ(trace.skipped[0].reason, "submit time unknown (-1)");
  EXPECT_FALSE(trace.skipped[0].malformed);
  EXPECT_EQ(trace.skipped[1].reason, "negative submit time");
  EXPECT_TRUE(trace.skipped[1].malformed);
}

}  // namespace
}  // namespace gcsim
