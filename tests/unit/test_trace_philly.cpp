// The Philly reader: the real derived log read whole, with counts taken from
// the file independently; crafted bad rows reported with their line and
// reason; strict mode failing on the first.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "sim/core/input_error.hpp"
#include "tests/support/trace_files.hpp"
#include "traces/philly_trace.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {

using testing::bundled_excerpt;
using testing::for_each_line;
using testing::real_trace;
using testing::split_on;

const std::string kHeader = "timestamp,duration,num_gpus,gpu_time,cluster\n";

TraceReadResult parse(const std::string& text, TraceReadOptions options = {}) {
  std::istringstream in(text);
  return parse_philly_trace(in, "philly.csv", options);
}

// The jobs read, counted per GPU count and per queue, and their GPU-seconds.
struct JobTally {
  std::map<int, std::size_t> gpus;
  std::map<std::string, std::size_t> queues;
  double gpu_seconds = 0;
};

JobTally tally(const TraceReadResult& trace) {
  JobTally tally;
  for (const JobSpec& job : trace.jobs) {
    ++tally.gpus[static_cast<int>(job.gpus)];
    ++tally.queues[job.queue];
    tally.gpu_seconds += std::get<MeasuredWork>(job.work).seconds * job.gpus;
  }
  return tally;
}

TEST(PhillyTrace, RealLogEveryRowBecomesAJobWithItsRecordedGpusAndQueue) {
  const std::string path = real_trace("philly/philly_jobs_pollux.csv");
  GCSIM_SKIP_UNLESS_PRESENT(path);
  std::size_t rows = 0;
  std::map<int, std::size_t> gpus_in_file;
  std::map<std::string, std::size_t> vcs_in_file;
  double gpu_seconds_in_file = 0;
  std::string earliest;
  for_each_line(path, [&](const std::string& line) {
    if (line.empty() || line.rfind("timestamp", 0) == 0) return;
    const auto f = split_on(line, ',');
    ++rows;
    ++gpus_in_file[std::stoi(f[2])];
    ++vcs_in_file[f[4]];
    gpu_seconds_in_file += std::stod(f[3]);
    if (earliest.empty() || f[0] < earliest) earliest = f[0];  // YYYY-MM-DD HH:MM:SS sorts as text
  });

  const TraceReadResult trace = read_philly_trace(path, {});
  EXPECT_EQ(trace.rows, rows);
  EXPECT_EQ(trace.jobs.size(), rows);
  EXPECT_TRUE(trace.skipped.empty());
  for (const JobSpec& job : trace.jobs) {
    EXPECT_EQ(job.user, "unknown");
    EXPECT_EQ(std::get<MeasuredWork>(job.work).gpu_type, "V100");
  }
  const JobTally read = tally(trace);
  EXPECT_EQ(read.gpus, gpus_in_file);
  EXPECT_EQ(read.queues, vcs_in_file);
  EXPECT_NEAR(read.gpu_seconds, gpu_seconds_in_file, 1e-9 * gpu_seconds_in_file);
  // Sorted by submit time, the earliest at time 0.
  EXPECT_TRUE(std::is_sorted(trace.jobs.begin(), trace.jobs.end(),
                             [](const JobSpec& a, const JobSpec& b) { return a.submit < b.submit; }));
  EXPECT_EQ(trace.jobs.front().submit, 0);
  EXPECT_TRUE(trace.calendar_clock);
  EXPECT_EQ(format_calendar_time(trace.time_origin), earliest);
}

// The bundled excerpt (the log's first 400 rows), its figures counted from
// the file by hand: 393 one-GPU jobs, 2 of 2, 2 of 4, 3 of 8; five VCs;
// 5,511,113 GPU-seconds; submissions from 2017-09-29 07:58:32 (line 4) to
// 2017-10-09 07:01:55 (line 2), 860,603 s apart.
TEST(PhillyTrace, BundledExcerptEveryRowBecomesAJobWithItsRecordedGpusAndQueue) {
  const TraceReadResult trace = read_philly_trace(bundled_excerpt("philly/philly_jobs_pollux.first400.csv"), {});
  EXPECT_EQ(trace.rows, 400u);
  ASSERT_EQ(trace.jobs.size(), 400u);
  EXPECT_TRUE(trace.skipped.empty());
  const JobTally read = tally(trace);
  EXPECT_EQ(read.gpus, (std::map<int, std::size_t>{{1, 393}, {2, 2}, {4, 2}, {8, 3}}));
  EXPECT_EQ(read.queues, (std::map<std::string, std::size_t>{
                             {"6214e9", 379}, {"11cb48", 13}, {"ee9e8c", 5}, {"103959", 2}, {"6c71a0", 1}}));
  EXPECT_EQ(read.gpu_seconds, 5511113);
  EXPECT_EQ(format_calendar_time(trace.time_origin), "2017-09-29 07:58:32");
  EXPECT_EQ(trace.jobs.front().submit, 0);
  EXPECT_EQ(trace.jobs.front().id, "philly-4");
  EXPECT_EQ(trace.jobs.back().submit, 860603);
  EXPECT_EQ(trace.jobs.back().id, "philly-2");
  EXPECT_TRUE(std::is_sorted(trace.jobs.begin(), trace.jobs.end(),
                             [](const JobSpec& a, const JobSpec& b) { return a.submit < b.submit; }));
}

// One good row, then one of each mistake, a blank line, the earliest job,
// and a job that ran for 0 s.
const std::string kCrafted = kHeader +
                             "2017-10-09 07:01:55,66.0,1,66.0,vcA\n"  // line 2
                             "2017-10-09 07:00:00,-5,1,-5,vcA\n"      // line 3: negative run time
                             "2017-10-09 07:02:00,10,0,0,vcA\n"       // line 4: zero GPUs
                             "yesterday,10,1,10,vcA\n"                // line 5: not a date
                             "2017-10-09 07:03:00,1O,1,10,vcA\n"      // line 6: malformed number
                             "2017-10-09 07:04:00,10,2,10,vcB\n"      // line 7: gpu_time != duration x gpus
                             "2017-10-09 07:05:00,10,1,10\n"          // line 8: a field missing
                             "\n"                                     // line 9: blank, not a row
                             "2017-10-09 06:59:00,30,4,120,vcB\n"     // line 10: the earliest
                             "2017-10-09 07:06:00,0,1,0,vcB\n";       // line 11: ran for 0 s

TEST(PhillyTrace, BadRowsAreSkippedWithTheirLineAndReason) {
  const TraceReadResult trace = parse(kCrafted);
  EXPECT_EQ(trace.rows, 9u);
  ASSERT_EQ(trace.jobs.size(), 2u);
  EXPECT_EQ(trace.jobs[0].id, "philly-10");
  EXPECT_EQ(trace.jobs[0].submit, 0);
  EXPECT_EQ(trace.jobs[0].gpus, 4u);
  EXPECT_EQ(trace.jobs[0].queue, "vcB");
  EXPECT_EQ(trace.jobs[1].id, "philly-2");
  EXPECT_EQ(trace.jobs[1].submit, 2 * 60 + 55);
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[1].work).seconds, 66);

  struct Expected {
    std::size_t line;
    const char* field;
    const char* reason;
    bool malformed;
  };
  const Expected expected[] = {{3, "duration", "negative run time", true},
                               {4, "num_gpus", "zero GPUs", true},
                               {5, "timestamp", "not a date and time YYYY-MM-DD HH:MM:SS", true},
                               {6, "duration", "not a number", true},
                               {7, "gpu_time", "gpu_time is not duration x num_gpus", true},
                               {8, "", "wrong number of fields", true},
                               {11, "duration", "ran for 0 s (gcsim replays positive run times)", false}};
  ASSERT_EQ(trace.skipped.size(), std::size(expected));
  for (std::size_t i = 0; i < std::size(expected); ++i) {
    SCOPED_TRACE("line " + std::to_string(expected[i].line));
    EXPECT_EQ(trace.skipped[i].file, "philly.csv");
    EXPECT_EQ(trace.skipped[i].line, expected[i].line);
    EXPECT_EQ(trace.skipped[i].field, expected[i].field);
    EXPECT_EQ(trace.skipped[i].reason, expected[i].reason);
    EXPECT_EQ(trace.skipped[i].malformed, expected[i].malformed);
  }
  EXPECT_EQ(trace.skipped[0].detail, "got -5");
}

TEST(PhillyTrace, StrictModeFailsOnTheFirstMalformedRow) {
  TraceReadOptions options;
  options.strict = true;
  try {
    parse(kCrafted, options);
    FAIL() << "strict mode accepted a negative run time";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "philly.csv");
    EXPECT_EQ(e.where(), "line 3");
    EXPECT_EQ(e.field(), "duration");
    EXPECT_EQ(e.problem(), "negative run time (got -5)");
  }
}

TEST(PhillyTrace, StrictModeAcceptsWellFormedRowsItCannotReplay) {
  TraceReadOptions options;
  options.strict = true;
  const TraceReadResult trace =
      parse(kHeader + "2017-10-09 07:06:00,0,1,0,vcB\n2017-10-09 07:07:00,5,1,5,vcB\n", options);
  EXPECT_EQ(trace.jobs.size(), 1u);
  ASSERT_EQ(trace.skipped.size(), 1u);
  EXPECT_FALSE(trace.skipped[0].malformed);
}

TEST(PhillyTrace, ColumnsAreFoundByNameAndAMissingOneIsNamed) {
  const TraceReadResult reordered =
      parse("cluster,num_gpus,timestamp,gpu_time,duration\nvcC,2,2017-10-09 07:00:00,20,10\n");
  ASSERT_EQ(reordered.jobs.size(), 1u);
  EXPECT_EQ(reordered.jobs[0].gpus, 2u);
  EXPECT_EQ(reordered.jobs[0].queue, "vcC");
  try {
    parse("timestamp,duration,gpu_time,cluster\n");
    FAIL() << "accepted a header without num_gpus";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "line 1");
    EXPECT_EQ(e.field(), "num_gpus");
  }
}

TEST(PhillyTrace, AGivenTimeOriginSkipsEarlierJobsAndShiftsTheRest) {
  TraceReadOptions options;
  options.time_origin = *parse_calendar_time("2017-10-09 07:00:00");
  const TraceReadResult trace =
      parse(kHeader + "2017-10-09 06:59:00,30,4,120,vcB\n2017-10-09 07:01:00,5,1,5,vcB\n", options);
  ASSERT_EQ(trace.jobs.size(), 1u);
  EXPECT_EQ(trace.jobs[0].submit, 60);
  ASSERT_EQ(trace.skipped.size(), 1u);
  EXPECT_EQ(trace.skipped[0].line, 2u);
  EXPECT_EQ(trace.skipped[0].reason, "submitted before the time origin");
}

TEST(PhillyTrace, AJobLargerThanAnyClusterIsKeptWhole) {
  const TraceReadResult trace = parse(kHeader + "2017-10-09 07:00:00,10,4096,40960,vcA\n");
  ASSERT_EQ(trace.jobs.size(), 1u);
  EXPECT_EQ(trace.jobs[0].gpus, 4096u);
}

}  // namespace
}  // namespace gcsim
