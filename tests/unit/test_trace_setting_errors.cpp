// The trace library's errors that a setting fixes name the setting and what
// to give it, never a command line's flag: the commands spell settings their
// own way (`--trace-opt memory_unit=GiB`, `--memory-unit GiB`) and word the
// fix themselves (app/trace_setting_flags.hpp, tested in
// test_trace_setting_flags.cpp).
#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>

#include "tests/support/trace_files.hpp"
#include "traces/csv_trace.hpp"
#include "traces/gpu_models.hpp"
#include "traces/machine_cluster.hpp"
#include "traces/trace_formats.hpp"
#include "traces/trace_setting_error.hpp"

namespace gcsim {
namespace {

using testing::TempFolder;

// The TraceSettingError `read` throws; fails the test when it throws none.
TraceSettingError setting_error(const std::function<void()>& read) {
  try {
    read();
  } catch (const TraceSettingError& e) {
    return e;
  }
  ADD_FAILURE() << "no TraceSettingError";
  return TraceSettingError("", "", "", "", {}, "");
}

void read_pods(const std::string& map, const std::string& text) {
  TraceReadOptions options;
  options.columns = parse_csv_column_map(map);
  std::istringstream in(text);
  parse_csv_trace(in, "pods.csv", options);
}

// No "--" anywhere: no flag, long or as `gcsim trace` spells it.
void expect_no_flag(const TraceSettingError& error) {
  EXPECT_EQ(std::string(error.what()).find("--"), std::string::npos) << error.what();
  EXPECT_EQ(std::string(error.what()).find("trace-opt"), std::string::npos) << error.what();
}

TEST(TraceSettingErrors, APlainAmountWithoutItsUnitNamesTheUnitSetting) {
  const TraceSettingError memory =
      setting_error([] { read_pods("submit=t,gpus=g,duration=d,memory=mem", "t,g,d,mem\n0,1,60,2000\n"); });
  EXPECT_EQ(memory.fix().setting, "memory_unit");
  EXPECT_EQ(memory.fix().value, "UNIT");
  EXPECT_EQ(memory.where(), "line 2");
  EXPECT_EQ(memory.field(), "mem");
  EXPECT_NE(memory.problem().find("declare it with setting memory_unit=UNIT or in the mapping, memory=mem:UNIT"),
            std::string::npos)
      << memory.problem();
  expect_no_flag(memory);
  const TraceSettingError gpu_memory =
      setting_error([] { read_pods("submit=t,gpus=g,duration=d,gpu_memory=gm", "t,g,d,gm\n0,1,60,16\n"); });
  EXPECT_EQ(gpu_memory.fix().setting, "gpu_memory_unit");
  expect_no_flag(gpu_memory);
}

TEST(TraceSettingErrors, AMachineOfAModelWithoutFiguresNamesTheGpuTypeMapping) {
  const TraceSettingError error = setting_error([] {
    machine_cluster_json({{"G2", 2, 96, 1e12, 3}}, "c", "nodes.csv", "model", {});
  });
  EXPECT_EQ(error.fix().setting, "gpu_type");
  EXPECT_EQ(error.fix().value, "G2=NAME[:FLOPS]");
  EXPECT_EQ(error.where(), "line 3");
  EXPECT_NE(error.problem().find("map it to a GPU type with setting gpu_type=G2=NAME[:FLOPS]: G2=T4 takes"),
            std::string::npos)
      << error.problem();
  expect_no_flag(error);
}

TEST(TraceSettingErrors, TwoModelsOfOneTypeWithDifferentFiguresNameTheGpuTypeSetting) {
  GpuModelMap models;
  add_gpu_model_mapping(models, parse_gpu_model_mapping("G2=T4:20TFLOPS"));
  const TraceSettingError error = setting_error([&] {
    machine_cluster_json({{"T4", 2, 96, 1e12, 2}, {"G2", 2, 96, 1e12, 3}}, "c", "nodes.csv", "model", models);
  });
  EXPECT_EQ(error.fix().setting, "gpu_type");
  EXPECT_EQ(error.fix().value, "");
  EXPECT_NE(error.problem().find("map them to different names with setting gpu_type"), std::string::npos)
      << error.problem();
  expect_no_flag(error);
}

TEST(TraceSettingErrors, ATraceReadAsANativeWorkloadNamesTheFormatItLooksLike) {
  TempFolder dir;
  const std::string path =
      dir.write("p.csv", "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:00:00,60,1,60,vcA\n");
  const TraceSettingError error = setting_error([&] { read_trace(TraceFormat::kNative, path, {}); });
  EXPECT_EQ(error.fix().setting, "format");
  EXPECT_EQ(error.fix().value, "philly");
  EXPECT_EQ(error.problem(),
            "not a gcsim workload (JSON): it looks like a Philly trace; read it with setting format=philly");
  expect_no_flag(error);
}

}  // namespace
}  // namespace gcsim
