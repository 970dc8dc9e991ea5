// The units of a mapped CSV's amount columns: a plain number in a memory or
// GPU memory column means nothing without its unit, so it needs one declared
// (--trace-opt memory_unit=GiB, or memory=COLUMN:GiB in the mapping) or the
// read fails naming the file, line, column and both ways; a field with its
// own unit ("16Gi", "16GB") needs none; plain CPU numbers are cores unless
// millicores are declared.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "sim/core/input_error.hpp"
#include "sim/core/usage_error.hpp"
#include "traces/csv_trace.hpp"
#include "app/trace_request.hpp"
#include "app/trace_setting_flags.hpp"

namespace gcsim {
namespace {

constexpr double kGiB = 1073741824.0;

TraceReadResult parse(const std::string& text, const std::string& map, TraceReadOptions options = {}) {
  options.columns = parse_csv_column_map(map);
  std::istringstream in(text);
  return parse_csv_trace(in, "pods.csv", options);
}

// The InputError reading `text` throws, as the commands report it (its fix
// in the command line's words); fails the test when it throws none.
InputError read_error(const std::string& text, const std::string& map, TraceReadOptions options = {}) {
  try {
    parse(text, map, options);
  } catch (const TraceSettingError& e) {
    return command_line_error(e);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "read without an error";
  return InputError("", "", "", "");
}

const std::string kPods =
    "name,created,gpus,ran,mem,gmem,cpu\n"
    "a,0,1,60,2000,16,8\n"        // line 2
    "b,1,1,60,16Gi,16GB,4000m\n"  // line 3
    "c,2,1,60,,,\n";              // line 4

TEST(CsvTraceUnits, APlainMemoryNumberWithoutADeclaredUnitIsAnErrorNamingTheColumnAndBothWaysToDeclareIt) {
  for (const bool strict : {false, true}) {
    TraceReadOptions options;
    options.strict = strict;
    const InputError error = read_error(kPods, "id=name,submit=created,gpus=gpus,duration=ran,memory=mem", options);
    EXPECT_EQ(error.file(), "pods.csv");
    EXPECT_EQ(error.where(), "line 2");
    EXPECT_EQ(error.field(), "mem");
    EXPECT_NE(error.problem().find("got '2000'"), std::string::npos) << error.problem();
    EXPECT_NE(error.problem().find("--trace-opt memory_unit=UNIT"), std::string::npos) << error.problem();
    EXPECT_NE(error.problem().find("memory=mem:UNIT"), std::string::npos) << error.problem();
  }
}

TEST(CsvTraceUnits, APlainGpuMemoryNumberNeedsItsOwnUnit) {
  TraceReadOptions options;
  options.memory_unit_bytes = kGiB;  // host memory only
  const InputError error =
      read_error(kPods, "id=name,submit=created,gpus=gpus,duration=ran,memory=mem,gpu_memory=gmem", options);
  EXPECT_EQ(error.where(), "line 2");
  EXPECT_EQ(error.field(), "gmem");
  EXPECT_NE(error.problem().find("--trace-opt gpu_memory_unit=UNIT"), std::string::npos) << error.problem();
  EXPECT_NE(error.problem().find("gpu_memory=gmem:UNIT"), std::string::npos) << error.problem();
}

TEST(CsvTraceUnits, ADeclaredUnitScalesPlainNumbersAndFieldsWithTheirOwnUnitKeepIt) {
  TraceReadOptions options;
  options.memory_unit_bytes = kGiB;
  const TraceReadResult trace =
      parse(kPods, "id=name,submit=created,gpus=gpus,duration=ran,memory=mem,gpu_memory=gmem:MiB,cpu=cpu", options);
  ASSERT_EQ(trace.jobs.size(), 3u);
  EXPECT_EQ(trace.jobs[0].memory_bytes, 2000 * kGiB);
  EXPECT_EQ(trace.jobs[0].gpu_memory_bytes, 16 * 1048576.0);
  EXPECT_EQ(trace.jobs[0].cpu_cores, 8u);            // plain CPU numbers are cores
  EXPECT_EQ(trace.jobs[1].memory_bytes, 16 * kGiB);  // "16Gi", as Kubernetes writes it
  EXPECT_EQ(trace.jobs[1].gpu_memory_bytes, 16e9);   // "16GB"
  EXPECT_EQ(trace.jobs[1].cpu_cores, 4u);            // "4000m": Kubernetes millicores
  EXPECT_EQ(trace.jobs[2].memory_bytes, 0);          // empty: not asked
}

TEST(CsvTraceUnits, AUnitInTheMappingWinsOverTheDeclaredOne) {
  TraceReadOptions options;
  options.memory_unit_bytes = 1e9;
  const TraceReadResult trace = parse(kPods, "id=name,submit=created,gpus=gpus,duration=ran,memory=mem:MB", options);
  ASSERT_EQ(trace.jobs.size(), 3u);
  EXPECT_EQ(trace.jobs[0].memory_bytes, 2000e6);
}

TEST(CsvTraceUnits, FieldsWithTheirOwnUnitNeedNoDeclaredUnit) {
  const TraceReadResult trace = parse(
      "t,g,d,m\n"
      "0,1,60,16Gi\n"
      "1,1,60,16GB\n"
      "2,1,60,512Mi\n"
      "3,1,60,2G\n"
      "4,1,60,1TiB\n",
      "submit=t,gpus=g,duration=d,memory=m");
  ASSERT_EQ(trace.jobs.size(), 5u);
  EXPECT_EQ(trace.jobs[0].memory_bytes, 16 * kGiB);
  EXPECT_EQ(trace.jobs[1].memory_bytes, 16e9);
  EXPECT_EQ(trace.jobs[2].memory_bytes, 512 * 1048576.0);
  EXPECT_EQ(trace.jobs[3].memory_bytes, 2e9);
  EXPECT_EQ(trace.jobs[4].memory_bytes, 1024 * kGiB);
  EXPECT_TRUE(trace.skipped.empty());
}

TEST(CsvTraceUnits, CpuInMillicoresWhenDeclaredEitherWay) {
  const std::string trace_text = "t,g,d,c\n0,1,60,8000\n1,1,60,2500\n";
  TraceReadOptions options;
  options.cpu_unit_cores = 1e-3;
  const TraceReadResult declared = parse(trace_text, "submit=t,gpus=g,duration=d,cpu=c", options);
  ASSERT_EQ(declared.jobs.size(), 2u);
  EXPECT_EQ(declared.jobs[0].cpu_cores, 8u);
  EXPECT_EQ(declared.jobs[1].cpu_cores, 3u);  // 2.5 cores, rounded up
  const TraceReadResult mapped = parse(trace_text, "submit=t,gpus=g,duration=d,cpu=c:millicores");
  ASSERT_EQ(mapped.jobs.size(), 2u);
  EXPECT_EQ(mapped.jobs[0].cpu_cores, 8u);
  const TraceReadResult cores = parse(trace_text, "submit=t,gpus=g,duration=d,cpu=c");
  ASSERT_EQ(cores.jobs.size(), 2u);
  EXPECT_EQ(cores.jobs[0].cpu_cores, 8000u);  // plain numbers are cores by default
}

TEST(CsvTraceUnits, AMappingTakesAUnitOnlyWherePropertiesHaveOne) {
  const auto message = [](const std::string& map) -> std::string {
    try {
      parse_csv_column_map(map);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(parse_csv_column_map("submit=t,gpus=g,duration=d,memory=m:GiB").at("memory"), "m:GiB");
  const std::string unitless = message("submit=t:GiB,gpus=g,duration=d");
  EXPECT_NE(unitless.find("'submit' takes no unit"), std::string::npos) << unitless;
  EXPECT_NE(unitless.find("cpu, memory, gpu_memory, share and disk"), std::string::npos) << unitless;
  const std::string unknown = message("submit=t,gpus=g,duration=d,memory=m:GBs");
  EXPECT_NE(unknown.find("unknown unit 'GBs' for 'memory'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("GiB"), std::string::npos) << unknown;
  const std::string cpu = message("submit=t,gpus=g,duration=d,cpu=c:GiB");
  EXPECT_NE(cpu.find("unknown unit 'GiB' for 'cpu'"), std::string::npos) << cpu;
  EXPECT_NE(cpu.find("millicores"), std::string::npos) << cpu;
  const std::string share = message("submit=t,gpus=g,duration=d,share=s:GiB");
  EXPECT_NE(share.find("unknown unit 'GiB' for 'share'"), std::string::npos) << share;
  EXPECT_NE(share.find("fraction, percent or milli"), std::string::npos) << share;
}

// A Kubernetes GPU-sharing pod list counts a pod's share of its GPU in
// thousandths (gpu_milli) and its CPU pods' share as 0: 460 is 0.46 of a GPU,
// 1000 a whole one, and a pod of no GPU is a CPU job, not a bad share.
TEST(CsvTraceUnits, AShareInThousandthsOrPercentAndNoneOnARowOfNoGpu) {
  const std::string pods =
      "name,created,num_gpu,gpu_milli,ran,cpu_milli\n"
      "p0,0,1,460,60,6000\n"
      "p1,1,1,1000,60,12000\n"
      "p2,2,0,0,60,20000\n"
      "p3,3,2,500,60,8000\n";
  const TraceReadResult milli =
      parse(pods, "id=name,submit=created,gpus=num_gpu,share=gpu_milli:milli,duration=ran,cpu=cpu_milli:millicores");
  ASSERT_EQ(milli.jobs.size(), 4u) << (milli.skipped.empty() ? "" : milli.skipped[0].reason);
  EXPECT_DOUBLE_EQ(milli.jobs[0].gpu_share, 0.46);
  EXPECT_EQ(milli.jobs[0].gpus, 1u);
  EXPECT_DOUBLE_EQ(milli.jobs[1].gpu_share, 1);
  EXPECT_EQ(milli.jobs[2].gpus, 0u);  // a CPU job of 20 cores
  EXPECT_EQ(milli.jobs[2].cpu_cores, 20u);
  EXPECT_DOUBLE_EQ(milli.jobs[3].gpu_share, 0.5);
  EXPECT_EQ(milli.jobs[3].gpus, 2u);
  const TraceReadResult percent = parse("t,g,s,d\n0,1,50,60\n", "submit=t,gpus=g,share=s:percent,duration=d");
  ASSERT_EQ(percent.jobs.size(), 1u);
  EXPECT_DOUBLE_EQ(percent.jobs[0].gpu_share, 0.5);
  // Without a unit a share is a fraction, and 460 is no share of a GPU.
  const TraceReadResult fraction = parse("t,g,s,d\n0,1,460,60\n", "submit=t,gpus=g,share=s,duration=d");
  EXPECT_TRUE(fraction.jobs.empty());
  ASSERT_EQ(fraction.skipped.size(), 1u);
  EXPECT_EQ(fraction.skipped[0].reason, "not a share of a GPU in (0, 1]");
}

TEST(CsvTraceUnits, TraceSettingsDeclareTheUnits) {
  const TraceRequest request =
      trace_request({{"memory_unit", "GiB"}, {"gpu_memory_unit", "MB"}, {"cpu_unit", "millicores"}});
  EXPECT_EQ(request.read.memory_unit_bytes, kGiB);
  EXPECT_EQ(request.read.gpu_memory_unit_bytes, 1e6);
  EXPECT_EQ(request.read.cpu_unit_cores, 1e-3);
  EXPECT_EQ(trace_request({}).read.cpu_unit_cores, 1);
  EXPECT_FALSE(trace_request({}).read.memory_unit_bytes);
  for (const char* key : {"memory_unit", "gpu_memory_unit", "cpu_unit"}) {
    try {
      trace_request({{key, "GBs"}});
      ADD_FAILURE() << key << " accepted an unknown unit";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("trace setting '") + key + "'"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace gcsim
