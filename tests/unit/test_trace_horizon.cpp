// Times beyond the horizon gcsim simulates (1e9 s after the trace's time 0,
// work_horizon.hpp) are malformed rows in every trace reader, named by line
// and by the reader's own column; with --strict the first is an error.
#include <gtest/gtest.h>

#include <functional>
#include <sstream>

#include "sim/core/input_error.hpp"
#include "tests/support/trace_files.hpp"
#include "traces/csv_trace.hpp"
#include "traces/helios_trace.hpp"
#include "traces/pai_trace.hpp"
#include "traces/philly_trace.hpp"
#include "traces/swf_trace.hpp"
#include "traces/trace_selection.hpp"

namespace gcsim {
namespace {

using testing::TempFolder;

struct Expected {
  std::size_t line;
  std::string field;
  std::string reason;
};

void expect_skipped(const TraceReadResult& trace, std::size_t jobs, const std::vector<Expected>& expected) {
  EXPECT_EQ(trace.jobs.size(), jobs);
  ASSERT_EQ(trace.skipped.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE("line " + std::to_string(expected[i].line));
    EXPECT_EQ(trace.skipped[i].line, expected[i].line);
    EXPECT_EQ(trace.skipped[i].field, expected[i].field);
    EXPECT_EQ(trace.skipped[i].reason, expected[i].reason);
    EXPECT_TRUE(trace.skipped[i].malformed);
  }
}

const std::string kPhilly =
    "timestamp,duration,num_gpus,gpu_time,cluster\n"
    "2017-10-09 07:00:00,60,1,60,vcA\n"        // line 2: kept
    "2017-10-09 07:01:00,1e300,1,1e300,vcA\n"  // line 3: 1e300 s x FLOP/s would overflow
    "2100-01-01 00:00:00,60,1,60,vcA\n"        // line 4: 82 years after the first submission
    "2049-06-10 07:00:00,60,1,60,vcA\n";       // line 5: 999,388,800 s after it, within 1e9 s

TEST(TraceHorizon, PhillyRowsBeyondItAreMalformedByColumn) {
  std::istringstream in(kPhilly);
  const TraceReadResult trace = parse_philly_trace(in, "p.csv", {});
  expect_skipped(trace, 2,
                 {{3, "duration", "run time beyond the horizon"}, {4, "timestamp", "submitted beyond the horizon"}});
  EXPECT_EQ(trace.jobs[1].submit, 999388800);  // 11,567 days of 86,400 s
}

TEST(TraceHorizon, StrictModeFailsOnTheFirstRowBeyondIt) {
  std::istringstream in(kPhilly);
  TraceReadOptions options;
  options.strict = true;
  try {
    parse_philly_trace(in, "p.csv", options);
    FAIL() << "strict mode accepted a run time of 1e300 s";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "p.csv");
    EXPECT_EQ(e.where(), "line 3");
    EXPECT_EQ(e.field(), "duration");
    EXPECT_NE(e.problem().find("got 1e300 s"), std::string::npos) << e.what();
  }
}

TEST(TraceHorizon, SwfRowsBeyondItAreMalformedByField) {
  std::istringstream in(
      "; MaxProcs: 8\n"
      "1 0 0 60 4 -1 -1 4 -1 -1 1 1 -1 -1 1 -1 -1 -1\n"      // line 2: kept
      "2 1e300 0 60 4 -1 -1 4 -1 -1 1 1 -1 -1 1 -1 -1 -1\n"  // line 3: submitted beyond
      "3 5 0 1e300 4 -1 -1 4 -1 -1 1 1 -1 -1 1 -1 -1 -1\n"   // line 4: runs beyond
      "4 6 0 60 4 -1 -1 4 2e9 -1 1 1 -1 -1 1 -1 -1 -1\n");   // line 5: estimated beyond
  const TraceReadResult trace = parse_swf_trace(in, "log.swf", {});
  expect_skipped(trace, 1,
                 {{3, "submit time", "submitted beyond the horizon"},
                  {4, "run time", "run time beyond the horizon"},
                  {5, "requested time", "run-time estimate beyond the horizon"}});
}

TEST(TraceHorizon, HeliosAndCsvRowsBeyondItAreMalformedByColumn) {
  std::istringstream helios(
      "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time\n"
      "j1,u,vc1,1,1,1,COMPLETED,0,10,70\n"       // line 2: kept
      "j2,u,vc1,1,1,1,COMPLETED,5,10,1e300\n");  // line 3: runs beyond
  expect_skipped(parse_helios_trace(helios, "h.csv", {}), 1, {{3, "end_time", "run time beyond the horizon"}});

  TraceReadOptions options;
  options.columns = parse_csv_column_map("submit=created,gpus=g,duration=ran,estimate=asked");
  std::istringstream csv(
      "created,g,ran,asked\n"
      "0,1,60,\n"            // line 2: kept
      "3e9,1,60,\n"          // line 3: submitted 3e9 s after the first
      "10,1,60,1e10\n"       // line 4: estimated beyond
      "1000000000,1,1e9,\n"  // line 5: at the horizon: kept
      "20,1,1.5e9,\n");      // line 6: runs beyond
  expect_skipped(parse_csv_trace(csv, "c.csv", options), 2,
                 {{3, "created", "submitted beyond the horizon"},
                  {4, "asked", "run-time estimate beyond the horizon"},
                  {6, "ran", "run time beyond the horizon"}});
}

TEST(TraceHorizon, PaiJobsBeyondItAreMalformedAtTheirFirstTaskRow) {
  TempFolder dir;
  dir.write("pai_task_table.csv",
            "a,worker,1,Terminated,100,400,600,1,100,T4\n"      // line 1: kept
            "b,worker,1,Terminated,100,1e300,600,1,100,T4\n");  // line 2: runs beyond
  const TraceReadResult trace = read_pai_trace(dir / "pai_task_table.csv", {});
  expect_skipped(trace, 1, {{2, "end_time", "run time beyond the horizon"}});
}

TEST(TraceHorizon, ALoadScaleThatSubmitsAJobBeyondItIsRefused) {
  std::istringstream in(kPhilly);
  TraceReadResult trace = parse_philly_trace(in, "p.csv", {});  // jobs at 0 and 999,388,800 s
  TraceSelection selection;
  selection.load_scale = 0.5;  // the second job at 1,998,777,600 s
  try {
    apply_trace_selection(trace, selection);
    FAIL() << "a load scale submitted a job beyond the horizon";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("philly-5"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gcsim
