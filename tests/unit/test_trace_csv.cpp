// The column-mapped CSV reader: the real Philly log read through a mapping
// gives the same jobs as the Philly reader; crafted rows check units,
// start/end columns, fractional GPUs, bad rows and strict mode.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "sim/core/input_error.hpp"
#include "tests/support/trace_files.hpp"
#include "traces/csv_trace.hpp"
#include "traces/philly_trace.hpp"

namespace gcsim {
namespace {

using testing::bundled_excerpt;
using testing::real_trace;

TraceReadResult parse(const std::string& text, const std::string& map, TraceReadOptions options = {}) {
  options.columns = parse_csv_column_map(map);
  std::istringstream in(text);
  return parse_csv_trace(in, "jobs.csv", options);
}

// Reads the Philly log at `path` as a mapped CSV and as Philly; the two agree job by job.
void expect_mapped_philly_matches_philly_reader(const std::string& path) {
  TraceReadOptions options;
  options.columns = parse_csv_column_map("submit=timestamp,gpus=num_gpus,duration=duration,queue=cluster");
  const TraceReadResult mapped = read_csv_trace(path, options);
  const TraceReadResult philly = read_philly_trace(path, {});
  ASSERT_EQ(mapped.jobs.size(), philly.jobs.size());
  EXPECT_EQ(mapped.rows, philly.rows);
  EXPECT_TRUE(mapped.skipped.empty());
  EXPECT_EQ(mapped.time_origin, philly.time_origin);
  for (std::size_t i = 0; i < philly.jobs.size(); ++i) {
    const JobSpec& a = mapped.jobs[i];
    const JobSpec& b = philly.jobs[i];
    ASSERT_EQ(a.id.substr(4), b.id.substr(7)) << i;  // "csv-<line>" and "philly-<line>"
    EXPECT_EQ(a.submit, b.submit);
    EXPECT_EQ(a.gpus, b.gpus);
    EXPECT_EQ(a.queue, b.queue);
    EXPECT_EQ(std::get<MeasuredWork>(a.work).seconds, std::get<MeasuredWork>(b.work).seconds);
  }
}

TEST(CsvTrace, RealPhillyLogThroughAMappingMatchesThePhillyReader) {
  const std::string path = real_trace("philly/philly_jobs_pollux.csv");
  GCSIM_SKIP_UNLESS_PRESENT(path);
  expect_mapped_philly_matches_philly_reader(path);
}

TEST(CsvTrace, BundledPhillyExcerptThroughAMappingMatchesThePhillyReader) {
  const std::string path = bundled_excerpt("philly/philly_jobs_pollux.first400.csv");
  expect_mapped_philly_matches_philly_reader(path);
  TraceReadOptions options;
  options.columns = parse_csv_column_map("submit=timestamp,gpus=num_gpus,duration=duration,queue=cluster");
  EXPECT_EQ(read_csv_trace(path, options).jobs.size(), 400u);  // the excerpt's 400 rows
}

TEST(CsvTrace, NumericTimesAreReadInTheGivenUnitAndRelativeToTheFirstSubmission) {
  TraceReadOptions options;
  options.time_unit_s = 1e-3;
  options.delimiter = ';';
  const TraceReadResult trace = parse(
      "id;submission_time;num_gpu;runtime;owner;gpu\n"
      "j1;1600000005000;0.5;60000;ann;K80\n"
      "j2;1600000000000;3;1500;bob;\n"
      "j3;1600000000000;2.5;1500;bob;\n",
      "id=id,submit=submission_time,gpus=num_gpu,duration=runtime,user=owner,gpu_type=gpu", options);
  ASSERT_EQ(trace.jobs.size(), 3u);
  EXPECT_EQ(trace.jobs[0].id, "j2");
  EXPECT_EQ(trace.jobs[0].submit, 0);
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[0].work).seconds, 1.5);
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[0].work).gpu_type, "V100");  // empty: the default type
  EXPECT_EQ(trace.jobs[0].gpu_share, 1.0);
  EXPECT_EQ(trace.jobs[1].id, "j3");
  EXPECT_EQ(trace.jobs[1].gpus, 3u);  // 2.5 GPUs, rounded up
  EXPECT_EQ(trace.jobs[1].gpu_share, 1.0);
  EXPECT_EQ(trace.jobs[2].id, "j1");
  EXPECT_EQ(trace.jobs[2].submit, 5);
  EXPECT_EQ(trace.jobs[2].gpus, 1u);        // one worker ...
  EXPECT_EQ(trace.jobs[2].gpu_share, 0.5);  // ... on half a GPU
  EXPECT_EQ(trace.jobs[2].user, "ann");
  EXPECT_EQ(trace.jobs[2].queue, "unknown");
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[2].work).gpu_type, "K80");
  std::string notes;
  for (const std::string& note : trace.assumptions) notes += note + "\n";
  EXPECT_NE(notes.find("1 jobs ask less than one GPU: each holds that share of one GPU"), std::string::npos) << notes;
  EXPECT_NE(notes.find("1 jobs ask more than one GPU but not a whole number: rounded up"), std::string::npos) << notes;
}

TEST(CsvTrace, StartAndEndColumnsGiveTheRunTime) {
  const TraceReadResult trace = parse(
      "sub,beg,fin,g\n"
      "2020-01-01 00:00:00,2020-01-01 00:10:00,2020-01-01 01:10:00,2\n",
      "submit=sub,start=beg,end=fin,gpus=g");
  ASSERT_EQ(trace.jobs.size(), 1u);
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[0].work).seconds, 3600);
  EXPECT_TRUE(trace.calendar_clock);
}

TEST(CsvTrace, JobsThatNeverStartedOrHadNotEndedAreNotReplayableEvenInStrictMode) {
  // A Kubernetes-style pod list: pods still pending or running when the log was cut.
  TraceReadOptions options;
  options.strict = true;
  const TraceReadResult trace = parse(
      "name,creation_time,scheduled_time,deletion_time,num_gpu,pod_phase\n"
      "p1,100,110,170,1,Succeeded\n"  // line 2: ran 60 s
      "p2,120,,,1,Pending\n"          // line 3: never scheduled
      "p3,130,140,,2,Running\n",      // line 4: not ended
      "id=name,submit=creation_time,start=scheduled_time,end=deletion_time,gpus=num_gpu,status=pod_phase", options);
  ASSERT_EQ(trace.jobs.size(), 1u);
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[0].work).seconds, 60);
  ASSERT_EQ(trace.skipped.size(), 2u);
  EXPECT_EQ(trace.skipped[0].line, 3u);
  EXPECT_EQ(trace.skipped[0].field, "scheduled_time");
  EXPECT_EQ(trace.skipped[0].reason, "never started (no start time)");
  EXPECT_EQ(trace.skipped[0].detail, "Pending");
  EXPECT_FALSE(trace.skipped[0].malformed);
  EXPECT_EQ(trace.skipped[1].line, 4u);
  EXPECT_EQ(trace.skipped[1].field, "deletion_time");
  EXPECT_EQ(trace.skipped[1].reason, "had not ended when the log was cut (no end time)");
  EXPECT_FALSE(trace.skipped[1].malformed);
}

TEST(CsvTrace, AShareBelowAMillionthOfAGpuIsMalformed) {
  const TraceReadResult trace = parse(
      "t,g,d\n"
      "0,0.000001,10\n"  // line 2: a millionth, the smallest share
      "1,1e-9,10\n",     // line 3: below it
      "submit=t,gpus=g,duration=d");
  ASSERT_EQ(trace.jobs.size(), 1u);
  EXPECT_EQ(trace.jobs[0].gpu_share, 1e-6);
  ASSERT_EQ(trace.skipped.size(), 1u);
  EXPECT_EQ(trace.skipped[0].line, 3u);
  EXPECT_EQ(trace.skipped[0].field, "g");
  EXPECT_EQ(trace.skipped[0].detail, "got 1e-9");
  EXPECT_TRUE(trace.skipped[0].malformed);
}

const std::string kCrafted =
    "id,t,g,d\n"
    "a,0,1,10\n"   // line 2: good
    "b,5,-1,10\n"  // line 3: negative GPUs
    "c,6,0,10\n"   // line 4: a CPU job
    "a,7,1,10\n"   // line 5: id a again
    "e,8,1,-3\n"   // line 6: negative run time
    "f,x,1,3\n"    // line 7: malformed time
    "g,9,1\n";     // line 8: a field missing

TEST(CsvTrace, HostAndPlacementColumnsFillTheJob) {
  const TraceReadResult trace = parse(
      "id,t,g,d,c,m,gm,s,types,one\n"
      "a,0,4,60,10,64GB,16GB,,V100|A100,true\n"
      "b,1,1,60,2.5,1073741824,,0.5,,0\n"
      "c,2,1,60,x,,,,,\n"
      "d,3,1,60,,,,1.5,,\n"
      "e,4,1,60,,,,,,maybe\n",
      "id=id,submit=t,gpus=g,duration=d,cpu=c,memory=m,gpu_memory=gm,share=s,gpu_types=types,single_node=one");
  ASSERT_EQ(trace.jobs.size(), 2u);
  const JobSpec& a = trace.jobs[0];
  EXPECT_EQ(a.cpu_cores, 10u);
  EXPECT_EQ(a.memory_bytes, 64e9);
  EXPECT_EQ(a.gpu_memory_bytes, 16e9);
  EXPECT_EQ(a.gpu_share, 1);
  EXPECT_EQ(a.gpu_types, (std::vector<std::string>{"V100", "A100"}));
  EXPECT_TRUE(a.single_node);
  const JobSpec& b = trace.jobs[1];
  EXPECT_EQ(b.cpu_cores, 3u);  // 2.5 cores rounded up
  EXPECT_EQ(b.memory_bytes, 1073741824);
  EXPECT_EQ(b.gpu_share, 0.5);
  EXPECT_TRUE(b.gpu_types.empty());
  EXPECT_FALSE(b.single_node);
  ASSERT_EQ(trace.skipped.size(), 3u);
  EXPECT_EQ(trace.skipped[0].field, "c");
  EXPECT_EQ(trace.skipped[1].field, "s");
  EXPECT_EQ(trace.skipped[2].field, "one");
  for (const SkippedRow& row : trace.skipped) EXPECT_TRUE(row.malformed);
}

// A row of 0 GPUs with cores is a CPU job holding its cores and memory for
// its recorded run time; one of 0 GPUs and no cores asks nothing to replay.
TEST(CsvTrace, RowsOfNoGpuWithCoresAreCpuJobs) {
  const TraceReadResult trace = parse(
      "id,t,g,d,c,m\n"
      "gpu,0,2,100,4,\n"
      "etl,5,0,50,6.5,64GB\n"
      "none,6,0,10,,\n"
      "zero,7,0,10,0,\n",
      "id=id,submit=t,gpus=g,duration=d,cpu=c,memory=m");
  ASSERT_EQ(trace.jobs.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<MeasuredWork>(trace.jobs[0].work));
  const JobSpec& etl = trace.jobs[1];
  EXPECT_EQ(etl.id, "etl");
  EXPECT_EQ(etl.gpus, 0u);
  EXPECT_EQ(etl.cpu_cores, 7u);  // 6.5 cores rounded up
  EXPECT_EQ(etl.memory_bytes, 64e9);
  EXPECT_EQ(etl.gpu_share, 1);
  ASSERT_TRUE(std::holds_alternative<CpuWork>(etl.work));
  EXPECT_EQ(std::get<CpuWork>(etl.work).seconds, 50);
  EXPECT_TRUE(runs_on_cpu(etl));
  ASSERT_EQ(trace.skipped.size(), 2u);
  for (const SkippedRow& row : trace.skipped) {
    EXPECT_EQ(row.field, "g");
    EXPECT_EQ(row.reason, "0 GPUs and 0 cores (a CPU job asks cores)");
    EXPECT_FALSE(row.malformed);
  }
  bool said = false;
  for (const std::string& assumption : trace.assumptions)
    said = said || assumption.find("1 jobs ask no GPU but cores") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(CsvTrace, BadRowsAreSkippedWithTheirLineAndReason) {
  const TraceReadResult trace = parse(kCrafted, "id=id,submit=t,gpus=g,duration=d");
  ASSERT_EQ(trace.jobs.size(), 1u);
  struct Expected {
    std::size_t line;
    const char* field;
    const char* reason;
    bool malformed;
  };
  const Expected expected[] = {{3, "g", "not a GPU count (a number >= 0)", true},
                               {4, "g", "0 GPUs and no cpu column (map one to replay CPU jobs)", false},
                               {5, "id", "duplicate job id", true},
                               {6, "d", "negative run time", true},
                               {7, "t", "not a time (YYYY-MM-DD HH:MM:SS or a number)", true},
                               {8, "", "wrong number of fields", true}};
  ASSERT_EQ(trace.skipped.size(), std::size(expected));
  for (std::size_t i = 0; i < std::size(expected); ++i) {
    SCOPED_TRACE("line " + std::to_string(expected[i].line));
    EXPECT_EQ(trace.skipped[i].line, expected[i].line);
    EXPECT_EQ(trace.skipped[i].field, expected[i].field);
    EXPECT_EQ(trace.skipped[i].reason, expected[i].reason);
    EXPECT_EQ(trace.skipped[i].malformed, expected[i].malformed);
  }
}

TEST(CsvTrace, StrictModeFailsOnTheFirstMalformedRow) {
  TraceReadOptions options;
  options.strict = true;
  try {
    parse(kCrafted, "id=id,submit=t,gpus=g,duration=d", options);
    FAIL() << "strict mode accepted a negative GPU count";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "line 3");
    EXPECT_EQ(e.field(), "g");
  }
}

TEST(CsvTrace, MappingMistakesAreNamed) {
  EXPECT_THROW(parse_csv_column_map("submit=t,gpu=g"), std::invalid_argument);  // unknown property
  EXPECT_THROW(parse_csv_column_map("submit"), std::invalid_argument);          // no '='
  EXPECT_THROW(parse_csv_column_map("submit=a,submit=b"), std::invalid_argument);
  EXPECT_THROW(parse("t,g\n0,1\n", "submit=t,gpus=g"), std::invalid_argument);  // no run time
  try {
    parse("t,g,d\n0,1,5\n", "submit=t,gpus=gpus_used,duration=d");
    FAIL() << "accepted a mapping to a column the file lacks";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "line 1");
    EXPECT_EQ(e.field(), "gpus_used");
  }
}

}  // namespace
}  // namespace gcsim
