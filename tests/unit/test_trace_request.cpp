// Trace settings as given on the command line (--trace-opt KEY=VALUE, the
// flags of `gcsim trace`) and the --workload argument: each setting on
// crafted values, each read on a crafted four-job Philly log whose jobs are
// known by hand.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/usage_error.hpp"
#include "sim/core/input_error.hpp"
#include "tests/support/trace_files.hpp"
#include "app/trace_request.hpp"

namespace gcsim {
namespace {

using testing::TempFolder;

// Four jobs an hour apart from 07:00; 1, 2, 4 and 8 GPUs; 600 s each.
const std::string kPhilly =
    "timestamp,duration,num_gpus,gpu_time,cluster\n"
    "2017-10-09 07:00:00,600,1,600,vcA\n"
    "2017-10-09 08:00:00,600,2,1200,vcA\n"
    "2017-10-09 09:00:00,600,4,2400,vcB\n"
    "2017-10-09 10:00:00,600,8,4800,vcB\n";

const std::string kNative = R"({"jobs": [
  {"id": "a", "submit": 0, "gpus": 1, "duration": {"seconds": 60, "gpu_type": "V100"}},
  {"id": "b", "submit": 30, "gpus": 2, "duration": {"seconds": 60, "gpu_type": "V100"}}]})";

// The message of the UsageError `call` throws; "" when it throws none.
template <typename Call>
std::string usage_error(Call call) {
  try {
    call();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TraceReadResult read_philly(const TempFolder& dir, const std::vector<std::pair<std::string, std::string>>& settings) {
  return read_trace_request(TraceFormat::kPhilly, dir.write("philly.csv", kPhilly), trace_request(settings));
}

std::vector<double> submits(const TraceReadResult& trace) {
  std::vector<double> times;
  for (const JobSpec& job : trace.jobs) times.push_back(job.submit);
  return times;
}

TEST(TraceRequest, AnUnknownKeyIsAUsageErrorNamingIt) {
  const std::string message = usage_error([] { trace_request({{"colour", "red"}}); });
  EXPECT_NE(message.find("unknown trace setting 'colour'"), std::string::npos) << message;
}

TEST(TraceRequest, ABadValueIsAUsageErrorNamingTheSettingAndTheValue) {
  const std::string message = usage_error([] { trace_request({{"sample", "2"}}); });
  EXPECT_NE(message.find("'sample'"), std::string::npos) << message;
  EXPECT_NE(message.find("got '2'"), std::string::npos) << message;
}

TEST(TraceRequest, ANonPositiveLoadScaleIsRejected) {
  EXPECT_NE(usage_error([] { trace_request({{"load_scale", "0"}}); }).find("'load_scale'"), std::string::npos);
  EXPECT_EQ(trace_request({{"load_scale", "2.5"}}).selection.load_scale, 2.5);
}

TEST(TraceRequest, TheEpochIsTakenInTheTimeUnitWhateverTheOrderGiven) {
  const TraceRequest request = trace_request({{"epoch", "10"}, {"time_unit", "min"}});
  ASSERT_TRUE(request.read.time_origin.has_value());
  EXPECT_EQ(*request.read.time_origin, 600.0);
}

TEST(TraceRequest, AJobTypeRuleWithoutAThroughputTableIsRejected) {
  EXPECT_NE(usage_error([] { trace_request({{"job_type", "uniform"}}); }).find("work=throughput"), std::string::npos);
}

TEST(TraceRequest, QueuesAccumulateFromCommaListsAndRepeats) {
  const TraceRequest request = trace_request({{"queue", "vcA,vcB"}, {"queue", "vcC"}});
  EXPECT_EQ(request.selection.queues, (std::set<std::string>{"vcA", "vcB", "vcC"}));
}

TEST(TraceRequest, ACheckpointIntervalTakesUnits) {
  EXPECT_EQ(trace_request({{"checkpoint_interval", "30min"}}).checkpoint_interval, 1800.0);
  EXPECT_NE(usage_error([] {
              trace_request({{"checkpoint_interval", "0"}});
            }).find("'checkpoint_interval'"),
            std::string::npos);
}

TEST(TraceRequest, QosValuesAndPriorityLevelsAreReadIgnoringCase) {
  const TraceRequest request = trace_request(
      {{"spot_values", "Spot,Low"}, {"guaranteed_values", "High"}, {"priority_levels", "low=0,HIGH=-10"}});
  EXPECT_EQ(request.read.spot_values, (std::vector<std::string>{"spot", "low"}));
  EXPECT_EQ(request.read.guaranteed_values, (std::vector<std::string>{"high"}));
  EXPECT_EQ(request.read.priority_levels, (std::map<std::string, std::int64_t>{{"low", 0}, {"high", -10}}));
  EXPECT_FALSE(trace_request({}).read.spot_values.has_value());  // the defaults
}

TEST(TraceRequest, BadQosValuesOrPriorityLevelsAreUsageErrors) {
  for (const auto& setting : std::vector<std::pair<std::string, std::string>>{{"spot_values", ""},
                                                                              {"spot_values", "a,,b"},
                                                                              {"priority_levels", "high"},
                                                                              {"priority_levels", "high=x"},
                                                                              {"priority_levels", "high=1.5"},
                                                                              {"priority_levels", "=3"}}) {
    // A lambda captures the pair, not structured bindings (C++17 forbids that).
    const std::string& key = setting.first;
    const std::string& value = setting.second;
    const std::string message = usage_error([&] { trace_request({setting}); });
    EXPECT_NE(message.find("'" + key + "'"), std::string::npos) << key << "=" << value << ": " << message;
  }
}

TEST(TraceRequest, SplitSettingNamesTheFlagOfAPairWithoutEquals) {
  EXPECT_EQ(split_setting("from=2h", "trace-opt"), std::make_pair(std::string("from"), std::string("2h")));
  EXPECT_NE(usage_error([] { split_setting("from", "trace-opt"); }).find("'--trace-opt' expects KEY=VALUE"),
            std::string::npos);
}

TEST(ReadTraceRequest, FromAndUntilKeepTheWindowAndCountSubmitTimesFromItsStart) {
  TempFolder dir;
  const TraceReadResult trace = read_philly(dir, {{"from", "1h"}, {"until", "3h"}});
  EXPECT_EQ(submits(trace), (std::vector<double>{0, 3600}));
  EXPECT_EQ(trace.jobs[0].gpus, 2u);
  EXPECT_EQ(trace.jobs[1].gpus, 4u);
}

TEST(ReadTraceRequest, ACalendarWindowEndIsTakenRelativeToTheTracesOrigin) {
  TempFolder dir;
  const TraceReadResult trace = read_philly(dir, {{"until", "2017-10-09 09:00:00"}});
  EXPECT_EQ(submits(trace), (std::vector<double>{0, 3600}));
}

TEST(ReadTraceRequest, AWindowEndThatIsNoTimeIsAUsageError) {
  TempFolder dir;
  EXPECT_NE(usage_error([&] { read_philly(dir, {{"from", "soon"}}); }).find("'from'"), std::string::npos);
}

TEST(ReadTraceRequest, LoadScaleDividesSubmitTimesAndKeepsRunTimes) {
  TempFolder dir;
  const TraceReadResult trace = read_philly(dir, {{"load_scale", "2"}});
  EXPECT_EQ(submits(trace), (std::vector<double>{0, 1800, 3600, 5400}));
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[3].work).seconds, 600.0);
}

TEST(ReadTraceRequest, ACheckpointIntervalIsGivenToEveryJob) {
  TempFolder dir;
  const TraceReadResult trace = read_philly(dir, {{"checkpoint_interval", "2min"}});
  ASSERT_EQ(trace.jobs.size(), 4u);
  for (const JobSpec& job : trace.jobs) EXPECT_EQ(job.checkpoint.interval, 120.0) << job.id;
}

TEST(ReadTraceRequest, RecordedDurationsAreNotRescaledScaledOnesAre) {
  TempFolder dir;
  for (const JobSpec& job : read_philly(dir, {{"duration", "recorded"}}).jobs)
    EXPECT_FALSE(std::get<MeasuredWork>(job.work).rescale) << job.id;
  for (const JobSpec& job : read_philly(dir, {}).jobs) EXPECT_TRUE(std::get<MeasuredWork>(job.work).rescale) << job.id;
}

TEST(ReadTraceRequest, MixedGpuTypesLetsEveryJobSpanTypes) {
  TempFolder dir;
  for (const JobSpec& job : read_philly(dir, {{"mixed_gpu_types", "true"}}).jobs)
    EXPECT_TRUE(job.mixed_gpu_types) << job.id;
  for (const JobSpec& job : read_philly(dir, {}).jobs) EXPECT_FALSE(job.mixed_gpu_types) << job.id;
  EXPECT_NE(usage_error([] {
              trace_request({{"mixed_gpu_types", "yes"}});
            }).find("'mixed_gpu_types'"),
            std::string::npos);
}

TEST(ReadWorkloadArgument, MixedGpuTypesIsSaidInTheNotes) {
  TempFolder dir;
  const std::string path = dir.write("philly.csv", kPhilly);
  std::ostringstream notes;
  read_workload_argument("philly:" + path, {"mixed_gpu_types=true"}, notes);
  EXPECT_NE(notes.str().find("gcsim: GPU types: every job may run on GPUs of several types at once"), std::string::npos)
      << notes.str();
}

TEST(ReadWorkloadArgument, APathWithoutFormatIsANativeWorkloadReadWithoutNotes) {
  TempFolder dir;
  std::ostringstream notes;
  const std::vector<JobSpec> jobs = read_workload_argument(dir.write("w.json", kNative), {}, notes);
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[1].id, "b");
  EXPECT_EQ(jobs[1].submit, 30.0);
  EXPECT_EQ(notes.str(), "");
}

TEST(ReadWorkloadArgument, ANativeWorkloadTakesNoTraceSettings) {
  TempFolder dir;
  const std::string path = dir.write("w.json", kNative);
  std::ostringstream notes;
  EXPECT_NE(usage_error([&] { read_workload_argument(path, {"until=1h"}, notes); }).find("'--trace-opt' applies"),
            std::string::npos);
}

TEST(ReadWorkloadArgument, FormatColonPathReadsTheTraceWithItsSettingsAndSaysWhatItKept) {
  TempFolder dir;
  const std::string path = dir.write("philly.csv", kPhilly);
  std::ostringstream notes;
  const std::vector<JobSpec> jobs = read_workload_argument("philly:" + path, {"min_gpus=4"}, notes);
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].gpus, 4u);
  EXPECT_EQ(jobs[1].gpus, 8u);
  EXPECT_EQ(notes.str().rfind("gcsim: philly trace " + path + ": 4 jobs from 4 rows; 0 rows skipped (0 malformed)", 0),
            0u)
      << notes.str();
}

TEST(ReadWorkloadArgument, ATraceGivenAsNativeIsAnInputErrorSayingHowToGiveIt) {
  TempFolder dir;
  const std::string path = dir.write("philly.csv", kPhilly);
  std::ostringstream notes;
  try {
    read_workload_argument(path, {}, notes);
    FAIL() << "a Philly log was read as a native workload";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("give it as philly:" + path), std::string::npos) << e.what();
  }
}

TEST(ReadWorkloadArgument, ATraceWithNoJobLeftAfterSelectionIsAnInputError) {
  TempFolder dir;
  const std::string path = dir.write("philly.csv", kPhilly);
  std::ostringstream notes;
  EXPECT_THROW(read_workload_argument("philly:" + path, {"min_gpus=16"}, notes), InputError);
}

}  // namespace
}  // namespace gcsim
