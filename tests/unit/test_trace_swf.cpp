// The SWF reader and writer: the real NASA and LCG logs with counts taken
// from the files independently; crafted bad rows; strict mode; and the
// native -> SWF -> native round trip.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "sim/core/input_error.hpp"
#include "tests/support/trace_files.hpp"
#include "workloads/native_workload.hpp"
#include "traces/swf_trace.hpp"

namespace gcsim {
namespace {

using testing::bundled_excerpt;
using testing::for_each_line;
using testing::real_trace;
using testing::split_spaces;

TraceReadResult parse(const std::string& text, TraceReadOptions options = {}) {
  std::istringstream in(text);
  return parse_swf_trace(in, "log.swf", options);
}

// The job lines of a real log, split into their 18 fields.
std::vector<std::vector<std::string>> job_lines(const std::string& path) {
  std::vector<std::vector<std::string>> lines;
  for_each_line(path, [&](const std::string& line) {
    const auto fields = split_spaces(line);
    if (!fields.empty() && fields[0][0] != ';') lines.push_back(fields);
  });
  return lines;
}

std::map<std::string, const JobSpec*> by_id(const TraceReadResult& trace) {
  std::map<std::string, const JobSpec*> jobs;
  for (const JobSpec& job : trace.jobs) jobs[job.id] = &job;
  return jobs;
}

TEST(SwfTrace, RealNasaLogKeepsEveryJobThatRanWithItsRecordedFields) {
  const std::string path = real_trace("pwa-swf/NASA-iPSC-1993-3.1-cln.swf");
  GCSIM_SKIP_UNLESS_PRESENT(path);
  const auto lines = job_lines(path);
  std::size_t ran = 0, zero = 0;
  std::uint64_t gpus_at_4_per_gpu = 0;
  for (const auto& f : lines) {
    if (std::stod(f[3]) > 0) {
      ++ran;
      gpus_at_4_per_gpu += (std::stoull(f[4]) + 3) / 4;
    } else if (std::stod(f[3]) == 0) {
      ++zero;
    }
  }
  ASSERT_EQ(lines.size(), 18239u);  // the folder's README says so too

  TraceReadOptions options;
  options.procs_per_gpu = 4;
  const TraceReadResult trace = read_swf_trace(path, options);
  EXPECT_EQ(trace.rows, lines.size());
  EXPECT_EQ(trace.jobs.size(), ran);
  EXPECT_EQ(trace.skipped.size(), zero);
  for (const SkippedRow& row : trace.skipped) {
    EXPECT_FALSE(row.malformed);
    EXPECT_EQ(row.field, "run time");
  }
  std::uint64_t gpus = 0;
  for (const JobSpec& job : trace.jobs) gpus += job.gpus;
  EXPECT_EQ(gpus, gpus_at_4_per_gpu);
  ASSERT_TRUE(trace.machine_gpus.has_value());
  EXPECT_EQ(*trace.machine_gpus, 128u / 4);  // "; MaxProcs: 128"

  // Every job keeps its submit time (seconds since UnixStartTime), run time and user.
  const auto jobs = by_id(trace);
  for (const auto& f : lines) {
    if (std::stod(f[3]) <= 0) continue;
    const auto it = jobs.find("swf-" + f[0]);
    ASSERT_NE(it, jobs.end()) << "job " << f[0];
    EXPECT_EQ(it->second->submit, std::stod(f[1]));
    EXPECT_EQ(std::get<MeasuredWork>(it->second->work).seconds, std::stod(f[3]));
    EXPECT_EQ(it->second->user, f[11]);
    EXPECT_EQ(it->second->queue, "unknown");  // field 15 is -1 throughout
  }
  for (const std::string& status : trace.job_status) EXPECT_EQ(status, "unknown");
}

TEST(SwfTrace, RealLcgSliceCarriesRequestedTimesAsEstimates) {
  const std::string path = real_trace("pwa-swf/LCG-2005-1.first20000.swf");
  GCSIM_SKIP_UNLESS_PRESENT(path);
  const auto lines = job_lines(path);
  ASSERT_EQ(lines.size(), 20000u);
  const TraceReadResult trace = read_swf_trace(path, {});
  std::size_t ran = 0;
  for (const auto& f : lines) ran += std::stod(f[3]) > 0 ? 1 : 0;
  EXPECT_EQ(trace.jobs.size(), ran);
  const auto jobs = by_id(trace);
  for (const auto& f : lines) {
    if (std::stod(f[3]) <= 0) continue;
    const JobSpec& job = *jobs.at("swf-" + f[0]);
    EXPECT_EQ(job.gpus, 1u);
    const double requested = std::stod(f[8]);
    EXPECT_EQ(job.runtime_estimate, requested > 0 ? requested : 0);
  }
  ASSERT_TRUE(trace.machine_gpus.has_value());
  EXPECT_EQ(*trace.machine_gpus, 24515u);
}

// The bundled excerpts: each log's header and first 300 job lines, their
// figures counted from the files by hand.
TEST(SwfTrace, BundledNasaExcerptKeepsTheJobsThatRanAndSkipsTheFiveOfZeroSeconds) {
  const std::string path = bundled_excerpt("pwa-swf/NASA-iPSC-1993-3.1-cln.first300.swf");
  TraceReadOptions options;
  options.procs_per_gpu = 4;
  const TraceReadResult trace = read_swf_trace(path, options);
  EXPECT_EQ(trace.rows, 300u);
  EXPECT_EQ(trace.jobs.size(), 295u);
  // Jobs 658, 659, 669, 670 and 671 ran for 0 s.
  std::vector<std::size_t> lines;
  for (const SkippedRow& row : trace.skipped) {
    EXPECT_FALSE(row.malformed);
    EXPECT_EQ(row.field, "run time");
    lines.push_back(row.line);
  }
  EXPECT_EQ(lines, (std::vector<std::size_t>{248, 249, 250, 251, 252}));
  std::uint64_t gpus = 0;
  double run_time = 0;
  std::set<std::string> users;
  for (const JobSpec& job : trace.jobs) {
    gpus += job.gpus;
    run_time += std::get<MeasuredWork>(job.work).seconds;
    users.insert(job.user);
  }
  EXPECT_EQ(gpus, 1831u);  // processors / 4, rounded up, summed over the 295 jobs
  EXPECT_EQ(run_time, 201621);
  EXPECT_EQ(users.size(), 20u);
  ASSERT_TRUE(trace.machine_gpus.has_value());
  EXPECT_EQ(*trace.machine_gpus, 128u / 4);  // "; MaxProcs: 128"
  // Line 33, the first job: submitted at 0, 1451 s on 128 processors, user 1.
  const JobSpec& first = *by_id(trace).at("swf-1");
  EXPECT_EQ(first.submit, 0);
  EXPECT_EQ(std::get<MeasuredWork>(first.work).seconds, 1451);
  EXPECT_EQ(first.gpus, 32u);
  EXPECT_EQ(first.user, "1");
  EXPECT_EQ(trace.jobs.back().submit, 288452);
}

TEST(SwfTrace, BundledLcgExcerptCarriesRequestedTimesAsEstimates) {
  const TraceReadResult trace = read_swf_trace(bundled_excerpt("pwa-swf/LCG-2005-1.first300.swf"), {});
  EXPECT_EQ(trace.rows, 300u);
  ASSERT_EQ(trace.jobs.size(), 300u);
  EXPECT_TRUE(trace.skipped.empty());
  double estimates = 0, run_time = 0;
  for (const JobSpec& job : trace.jobs) {
    EXPECT_EQ(job.gpus, 1u);
    EXPECT_GT(job.runtime_estimate, 0);
    estimates += job.runtime_estimate;
    run_time += std::get<MeasuredWork>(job.work).seconds;
  }
  EXPECT_EQ(estimates, 12760860);
  EXPECT_EQ(run_time, 860834);
  EXPECT_EQ(trace.jobs.back().submit, 1376);
  ASSERT_TRUE(trace.machine_gpus.has_value());
  EXPECT_EQ(*trace.machine_gpus, 24515u);
}

// Fields:                 1   2   3    4   5  6  7  8    9  10 11 12 13 14 15 16 17 18
const std::string kCrafted =
    "; MaxProcs: 64\n"                                              // line 1
    "; Queue: 1 batch\n"                                            // line 2
    "1  0  -1  100  4 -1 -1  4  200 -1  1  7  1 -1  1 -1 -1 -1\n"   // line 3: good
    "2 10  -1   -5  4 -1 -1  4   -1 -1  1  7  1 -1  1 -1 -1 -1\n"   // line 4: negative run time
    "3 20  -1  100  0 -1 -1  0   -1 -1  1  7  1 -1  1 -1 -1 -1\n"   // line 5: zero processors
    "4 30  -1  1x0  4 -1 -1  4   -1 -1  1  7  1 -1  1 -1 -1 -1\n"   // line 6: not a number
    "5 40  -1  100  4 -1 -1  4   -1 -1  1  7  1 -1  1 -1 -1\n"      // line 7: 17 fields
    "6 50  -1   -1  4 -1 -1  4   -1 -1  5  7  1 -1  1 -1 -1 -1\n"   // line 8: run time unknown
    "7 60  -1  100 -1 -1 -1 -1   -1 -1  1  7  1 -1  1 -1 -1 -1\n"   // line 9: processors unknown
    "8 70  -1  100 -1 -1 -1  6   -1 -1  0  9  1 -1  2 -1 -1 -1\n"   // line 10: good, requested 6
    "8 80  -1   50  2 -1 -1  2   -1 -1  3  9  1 -1  2 -1 -1 -1\n"   // line 11: partial execution
    "1 90  -1  100  4 -1 -1  4   -1 -1  1  7  1 -1  1 -1 -1 -1\n"   // line 12: job number 1 again
    "9 100 -1  100  4 -1 -1  4   -1 -1  9  7  1 -1  1 -1 -1 -1\n";  // line 13: unknown status

TEST(SwfTrace, BadRowsAreSkippedWithTheirLineAndReason) {
  TraceReadOptions options;
  options.procs_per_gpu = 4;
  const TraceReadResult trace = parse(kCrafted, options);
  EXPECT_EQ(trace.rows, 11u);
  ASSERT_EQ(trace.jobs.size(), 2u);
  EXPECT_EQ(trace.jobs[0].id, "swf-1");
  EXPECT_EQ(trace.jobs[0].gpus, 1u);
  EXPECT_EQ(trace.jobs[0].user, "7");
  EXPECT_EQ(trace.jobs[0].queue, "batch");  // named by the "; Queue:" line
  EXPECT_EQ(trace.jobs[0].runtime_estimate, 200);
  EXPECT_EQ(trace.job_status[0], "completed");
  EXPECT_EQ(trace.jobs[1].id, "swf-8");
  EXPECT_EQ(trace.jobs[1].gpus, 2u);    // 6 requested processors at 4 per GPU, rounded up
  EXPECT_EQ(trace.jobs[1].queue, "2");  // no name given for queue 2
  EXPECT_EQ(trace.job_status[1], "failed");
  EXPECT_EQ(*trace.machine_gpus, 16u);

  struct Expected {
    std::size_t line;
    const char* field;
    const char* reason;
    bool malformed;
  };
  const Expected expected[] = {
      {4, "run time", "negative run time", true},
      {5, "allocated processors", "zero processors", true},
      {6, "run time", "not a number", true},
      {7, "", "wrong number of fields", true},
      {8, "run time", "run time unknown (-1)", false},
      {9, "allocated processors", "processor count unknown (-1 in fields 5 and 8)", false},
      {11, "status", "partial execution line (status 2, 3 or 4); the job's summary line carries its whole run", false},
      {12, "job number", "duplicate job number", true},
      {13, "status", "unknown status (expected -1, 0, 1, 2, 3, 4 or 5)", true}};
  ASSERT_EQ(trace.skipped.size(), std::size(expected));
  for (std::size_t i = 0; i < std::size(expected); ++i) {
    SCOPED_TRACE("line " + std::to_string(expected[i].line));
    EXPECT_EQ(trace.skipped[i].line, expected[i].line);
    EXPECT_EQ(trace.skipped[i].field, expected[i].field);
    EXPECT_EQ(trace.skipped[i].reason, expected[i].reason);
    EXPECT_EQ(trace.skipped[i].malformed, expected[i].malformed);
  }
  EXPECT_EQ(trace.skipped[7].detail, "1 is also on line 3");
}

TEST(SwfTrace, StrictModeFailsOnTheFirstMalformedRow) {
  TraceReadOptions options;
  options.strict = true;
  try {
    parse(kCrafted, options);
    FAIL() << "strict mode accepted a negative run time";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "log.swf");
    EXPECT_EQ(e.where(), "line 4");
    EXPECT_EQ(e.field(), "run time");
  }
}

TEST(SwfTrace, AJobNumberBeyondAnyIntegerIsMalformedNamingItsLineAndField) {
  TraceReadOptions options;
  options.strict = true;
  try {
    parse("1e300 0 1 100 4 -1 -1 4 100 -1 1 1 -1 -1 -1 -1 -1 -1\n", options);
    FAIL() << "a job number of 1e300 was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "line 1");
    EXPECT_EQ(e.field(), "job number");
  }
}

TEST(SwfTrace, UserAndQueueNumbersBeyondAnyIntegerAreKeptAsNumbersAndNamesOfThemIgnored) {
  const TraceReadResult trace = parse(
      "; Note: user 1e300 = alice\n"
      "; Queue: 1e300 big\n"
      "1 0 1 100 4 -1 -1 4 100 -1 1 1e300 -1 -1 1e300 -1 -1 -1\n");
  ASSERT_EQ(trace.jobs.size(), 1u);
  EXPECT_EQ(trace.jobs[0].user, "1e+300");
  EXPECT_EQ(trace.jobs[0].queue, "1e+300");
}

TEST(SwfTrace, AMachineOfMoreGpusThanAnyCountHoldsIsLeftOut) {
  // 8e25 processors at 3 per GPU: 2.7e25 GPUs, beyond 2^64.
  const std::string row = "1 0 1 100 4 -1 -1 4 100 -1 1 1 -1 -1 -1 -1 -1 -1\n";
  TraceReadOptions options;
  options.procs_per_gpu = 3;
  for (const std::string header : {"; MaxProcs: 8e25\n", "; MaxNodes: 8e25\n", "; MaxProcs: 1e300\n"}) {
    const TraceReadResult trace = parse(header + row, options);
    EXPECT_FALSE(trace.machine_gpus.has_value()) << header;
    EXPECT_EQ(trace.jobs.size(), 1u) << header;
  }
  // The largest machine a count holds is kept.
  options.procs_per_gpu = 1;
  const TraceReadResult largest = parse("; MaxProcs: 1e19\n" + row, options);
  ASSERT_TRUE(largest.machine_gpus.has_value());
  EXPECT_EQ(*largest.machine_gpus, 10000000000000000000u);
}

JobSpec measured(const std::string& id, double submit, std::uint32_t gpus, double seconds, const std::string& user,
                 const std::string& queue, double estimate = 0) {
  JobSpec job;
  job.id = id;
  job.submit = submit;
  job.gpus = gpus;
  job.user = user;
  job.queue = queue;
  job.runtime_estimate = estimate;
  job.work = MeasuredWork{seconds, "V100"};
  return job;
}

TEST(SwfTrace, NativeToSwfToNativeKeepsWhatBothFormatsHold) {
  const std::vector<JobSpec> original = parse_native_workload(
      native_workload_json({measured("a", 0.5, 2, 3600.25, "alice", "research", 7200),
                            measured("b", 10, 8, 60, "bob", "production"), measured("c", 3, 1, 0.1, "17", "research"),
                            measured("d", 3, 4, 1e6 / 3, "alice", "unknown")}),
      "original.json");

  const std::string swf = swf_text(original, {});
  std::istringstream in(swf);
  const TraceReadResult trace = parse_swf_trace(in, "copy.swf", {});
  EXPECT_TRUE(trace.skipped.empty()) << swf;
  const std::vector<JobSpec> back = parse_native_workload(native_workload_json(trace.jobs), "back.json");

  // Submit order: a (0.5), c (3), d (3, after c in file order), b (10).
  const std::vector<std::string> order = {"a", "c", "d", "b"};
  ASSERT_EQ(back.size(), order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    const JobSpec& before =
        *std::find_if(original.begin(), original.end(), [&](const JobSpec& j) { return j.id == order[k]; });
    const JobSpec& after = back[k];
    SCOPED_TRACE(before.id);
    EXPECT_EQ(after.id, "swf-" + std::to_string(k + 1));
    EXPECT_EQ(after.submit, before.submit);
    EXPECT_EQ(after.gpus, before.gpus);
    EXPECT_EQ(std::get<MeasuredWork>(after.work).seconds, std::get<MeasuredWork>(before.work).seconds);
    EXPECT_EQ(std::get<MeasuredWork>(after.work).gpu_type, "V100");
    EXPECT_EQ(after.runtime_estimate, before.runtime_estimate);
    EXPECT_EQ(after.queue, before.queue);  // named by "; Queue: N name" lines
    EXPECT_EQ(after.user, before.user);    // named by "; Note: user N = name" lines
  }

  // Written again, the SWF is the same text: it is a fixed point.
  EXPECT_EQ(swf_text(back, {}), swf);
}

TEST(SwfTrace, WriterRejectsWhatSwfCannotHold) {
  JobSpec training = measured("t", 0, 1, 1, "u", "q");
  training.work = TrainingWork{1e12, 1e6, 10, {}};
  EXPECT_THROW(swf_text({measured("a", 0, 1, 5, "u", "q"), training}, {}), InputError);
  JobSpec k80 = measured("k", 0, 1, 5, "u", "q");
  std::get<MeasuredWork>(k80.work).gpu_type = "K80";
  try {
    swf_text({measured("a", 0, 1, 5, "u", "q"), k80}, {});
    FAIL() << "wrote two GPU types";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "jobs[1] (id 'k')");
    EXPECT_EQ(e.field(), "duration.gpu_type");
  }
  JobSpec cpu = measured("c", 0, 0, 5, "u", "q");  // a CSV row of cores and no GPU
  cpu.cpu_cores = 8;
  cpu.work = CpuWork{5};
  try {
    swf_text({measured("a", 0, 1, 5, "u", "q"), cpu}, {});
    FAIL() << "wrote a CPU job as processors";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "jobs[1] (id 'c')");
    EXPECT_EQ(e.field(), "cpu");
  }
  // Work whose run time the cluster decides is named by its field.
  JobSpec notebook = measured("n", 0, 1, 5, "u", "q");
  notebook.work = NotebookWork{{{10, 5}}, 1};
  try {
    swf_text({measured("a", 0, 1, 5, "u", "q"), notebook}, {});
    FAIL() << "wrote a notebook as a recorded run";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "notebook");
    EXPECT_NE(std::string(e.what()).find("a notebook job's run time depends on the cluster"), std::string::npos);
  }
}

TEST(SwfTrace, WriterScalesGpusToProcessorsAndMapsStatuses) {
  SwfWriteOptions options;
  options.procs_per_gpu = 4;
  options.job_status = {"COMPLETED", "CANCELLED"};
  options.machine_gpus = 16;
  const std::string swf = swf_text({measured("a", 0, 2, 5, "u", "q"), measured("b", 1, 1, 5, "u", "q")}, options);
  std::istringstream in(swf);
  TraceReadOptions read;
  read.procs_per_gpu = 4;
  const TraceReadResult trace = parse_swf_trace(in, "x.swf", read);
  ASSERT_EQ(trace.jobs.size(), 2u);
  EXPECT_EQ(trace.jobs[0].gpus, 2u);
  EXPECT_EQ(trace.job_status, (std::vector<std::string>{"completed", "cancelled"}));
  EXPECT_NE(swf.find("; MaxProcs: 64\n"), std::string::npos) << swf;
  EXPECT_EQ(*trace.machine_gpus, 16u);
}

}  // namespace
}  // namespace gcsim
