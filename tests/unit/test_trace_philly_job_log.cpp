// The raw Philly job log (cluster_job_log JSON), read from jobs crafted in the
// format msr-fiddle/philly-traces documents (the raw file is not on these
// machines): attempts summed, GPUs of the last attempt, statuses kept, bad and
// unreplayable jobs located by the line their object starts on.
#include <gtest/gtest.h>

#include <fstream>

#include "sim/core/input_error.hpp"
#include "traces/philly_job_log.hpp"
#include "traces/philly_trace.hpp"
#include "traces/trace_stats.hpp"

namespace gcsim {
namespace {

// One job per line after the opening bracket: job k starts on line k + 1.
const std::string kLog = R"([
{"status": "Pass", "vc": "vc1", "jobid": "app_1", "user": "u1", "submitted_time": "2017-10-03 00:00:00", "attempts": [{"start_time": "2017-10-03 00:00:10", "end_time": "2017-10-03 01:00:10", "detail": [{"ip": "m1", "gpus": ["gpu0", "gpu1"]}, {"ip": "m2", "gpus": ["gpu0", "gpu1"]}]}]},
{"status": "Failed", "vc": "vc2", "jobid": "app_2", "user": "u2", "submitted_time": "2017-10-03 00:10:00", "attempts": [{"start_time": "2017-10-03 00:10:05", "end_time": "2017-10-03 00:20:05", "detail": [{"ip": "m3", "gpus": ["gpu0"]}]}, {"start_time": "2017-10-03 00:30:00", "end_time": "2017-10-03 00:35:00", "detail": [{"ip": "m4", "gpus": ["gpu2", "gpu3"]}]}]},
{"status": "Killed", "vc": "vc1", "jobid": "app_3", "user": "u1", "submitted_time": "2017-10-03 00:20:00", "attempts": []},
{"status": "Running", "vc": "vc1", "jobid": "app_4", "user": "u3", "submitted_time": "2017-10-03 00:30:00", "attempts": [{"start_time": "2017-10-03 00:31:00", "end_time": "None", "detail": [{"ip": "m5", "gpus": ["gpu0"]}]}]},
{"status": "Pass", "vc": "vc1", "jobid": "app_5", "user": "u3", "submitted_time": "yesterday", "attempts": []},
{"status": "Pass", "vc": "vc3", "jobid": "app_6", "user": "u4", "submitted_time": "2017-10-03 00:40:00", "attempts": [{"start_time": "2017-10-03 00:50:00", "end_time": "2017-10-03 00:45:00", "detail": [{"ip": "m6", "gpus": ["gpu0"]}]}]},
{"status": "Pass", "vc": "vc3", "jobid": "app_7", "user": "u4", "submitted_time": "2017-10-03 00:50:00", "attempts": [{"start_time": "2017-10-03 00:50:00", "end_time": "2017-10-03 00:51:00", "detail": []}]},
{"status": "Pass", "vc": "vc3", "jobid": "app_1", "user": "u4", "submitted_time": "2017-10-03 00:55:00", "attempts": [{"start_time": "2017-10-03 00:55:00", "end_time": "2017-10-03 00:56:00", "detail": [{"ip": "m7", "gpus": ["gpu0"]}]}]}
]
)";

TEST(PhillyJobLog, ReplayableJobsWithAttemptsSummedAndTheLastAttemptsGpus) {
  const TraceReadResult trace = parse_philly_job_log(kLog, "cluster_job_log", {});
  EXPECT_EQ(trace.rows, 8u);
  ASSERT_EQ(trace.jobs.size(), 3u);
  // app_1: one attempt of 1 h on 2 machines x 2 GPUs.
  EXPECT_EQ(trace.jobs[0].id, "app_1");
  EXPECT_EQ(trace.jobs[0].gpus, 4u);
  EXPECT_DOUBLE_EQ(std::get<MeasuredWork>(trace.jobs[0].work).seconds, 3600);
  EXPECT_EQ(trace.jobs[0].user, "u1");
  EXPECT_EQ(trace.jobs[0].queue, "vc1");
  EXPECT_EQ(trace.job_status[0], "Pass");
  EXPECT_DOUBLE_EQ(trace.jobs[0].submit, 0);
  // app_2: 10 min + 5 min over two attempts, 2 GPUs in the last one; submitted 10 min after app_1.
  EXPECT_EQ(trace.jobs[1].id, "app_2");
  EXPECT_EQ(trace.jobs[1].gpus, 2u);
  EXPECT_DOUBLE_EQ(std::get<MeasuredWork>(trace.jobs[1].work).seconds, 900);
  EXPECT_DOUBLE_EQ(trace.jobs[1].submit, 600);
  EXPECT_EQ(trace.job_status[1], "Failed");
  // app_4: running when the log was cut (censored), from 00:31:00 to the log's last time, 01:00:10.
  EXPECT_EQ(trace.jobs[2].id, "app_4");
  EXPECT_EQ(trace.jobs[2].gpus, 1u);
  EXPECT_DOUBLE_EQ(std::get<MeasuredWork>(trace.jobs[2].work).seconds, 1750);
  EXPECT_DOUBLE_EQ(trace.jobs[2].submit, 1800);
  EXPECT_EQ(trace.censored_at_end, 1u);
}

TEST(PhillyJobLog, EverySkippedJobHasItsLineAndReason) {
  const TraceReadResult trace = parse_philly_job_log(kLog, "cluster_job_log", {});
  struct Expected {
    std::size_t line;
    std::string field;
    bool malformed;
  };
  const std::vector<Expected> expected{{4, "attempts", false},
                                       {6, "submitted_time", true},
                                       {7, "attempts.end_time", true},
                                       {8, "attempts.detail", false},
                                       {9, "jobid", true}};
  ASSERT_EQ(trace.skipped.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(trace.skipped[i].file, "cluster_job_log");
    EXPECT_EQ(trace.skipped[i].line, expected[i].line);
    EXPECT_EQ(trace.skipped[i].field, expected[i].field);
    EXPECT_EQ(trace.skipped[i].malformed, expected[i].malformed);
  }
  EXPECT_EQ(trace.skipped[2].reason, "an attempt ends before it starts");
  // app_4, running when the log was cut, is censored: skipped only on request.
  TraceReadOptions drop;
  drop.keep_censored = false;
  const TraceReadResult dropped = parse_philly_job_log(kLog, "cluster_job_log", drop);
  ASSERT_EQ(dropped.skipped.size(), expected.size() + 1);
  EXPECT_EQ(dropped.skipped[1].line, 5u);
  EXPECT_EQ(dropped.skipped[1].field, "attempts.end_time");
  EXPECT_EQ(dropped.skipped[1].reason, "censored at end");
  EXPECT_FALSE(dropped.skipped[1].malformed);
}

TEST(PhillyJobLog, StrictModeFailsOnTheFirstMalformedJob) {
  TraceReadOptions strict;
  strict.strict = true;
  try {
    parse_philly_job_log(kLog, "cluster_job_log", strict);
    FAIL() << "a malformed job must fail in strict mode";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cluster_job_log: line 6: field 'submitted_time'"), std::string::npos)
        << e.what();
  }
}

TEST(PhillyJobLog, StatsCountWhatTheTestCountsByHand) {
  const TraceReadResult trace = parse_philly_job_log(kLog, "cluster_job_log", {});
  const TraceStats stats = compute_trace_stats(trace, nullptr);
  EXPECT_EQ(stats.jobs, 3u);
  // 4 GPUs x 1 h + 2 GPUs x 0.25 h + 1 GPU x 1750 s (app_4, censored).
  EXPECT_DOUBLE_EQ(stats.gpu_hours, 4.5 + 1750.0 / 3600);
  EXPECT_EQ(stats.status_counts.at("Pass"), 1u);
  EXPECT_EQ(stats.status_counts.at("Failed"), 1u);
  EXPECT_EQ(stats.status_counts.at("Running"), 1u);
}

TEST(PhillyJobLog, ThePhillyFormatTellsTheRawLogFromTheDerivedCsv) {
  const std::string path = ::testing::TempDir() + "/cluster_job_log";
  std::ofstream(path) << kLog;
  EXPECT_EQ(read_philly_trace(path, {}).jobs.size(), 3u);
  EXPECT_TRUE(looks_like_philly_job_log("  \n[{}]"));
  EXPECT_FALSE(looks_like_philly_job_log("timestamp,duration,num_gpus,gpu_time,cluster\n"));
}

TEST(PhillyJobLog, NotAnArrayIsAnError) {
  EXPECT_THROW(parse_philly_job_log("{\"jobs\": []}", "log", {}), InputError);
  EXPECT_THROW(parse_philly_job_log("[{\"status\": ", "log", {}), InputError);
}

}  // namespace
}  // namespace gcsim
