// The fix a trace error names, in the words of the command line
// (app/trace_setting_flags.hpp): the library's errors name the setting
// (test_trace_setting_errors.cpp); the message the user reads names the
// flag, word for word as it always has.
#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>

#include "app/trace_setting_flags.hpp"
#include "tests/support/trace_files.hpp"
#include "traces/csv_trace.hpp"
#include "traces/gpu_models.hpp"
#include "traces/machine_cluster.hpp"
#include "traces/trace_formats.hpp"

namespace gcsim {
namespace {

using testing::TempFolder;

// What the user reads of the TraceSettingError `read` throws.
std::string reported(const std::function<void()>& read) {
  try {
    read();
  } catch (const TraceSettingError& e) {
    return command_line_error(e).what();
  }
  ADD_FAILURE() << "no TraceSettingError";
  return "";
}

TEST(TraceSettingFlags, EachFixIsSpelledAsGcsimTraceTakesIt) {
  EXPECT_EQ(trace_command_flag({"gpu_memory_unit", "UNIT"}), "--gpu-memory-unit UNIT");
  EXPECT_EQ(trace_command_flag({"gpu_type", ""}), "--gpu-type");
  EXPECT_EQ(trace_command_flag({"format", "swf"}), "--format swf");
}

TEST(TraceSettingFlags, AColumnsUnitIsNamedAsBothCommandsTakeIt) {
  EXPECT_EQ(command_line_fix({"cpu_unit", "UNIT"}), "--trace-opt cpu_unit=UNIT (gcsim trace: --cpu-unit UNIT)");
  EXPECT_EQ(reported([] {
              TraceReadOptions options;
              options.columns = parse_csv_column_map("submit=t,gpus=g,duration=d,memory=mem");
              std::istringstream in("t,g,d,mem\n0,1,60,2000\n");
              parse_csv_trace(in, "pods.csv", options);
            }),
            "pods.csv: line 2: field 'mem': a plain number (got '2000') needs the column's unit: declare it with "
            "--trace-opt memory_unit=UNIT (gcsim trace: --memory-unit UNIT) or in the mapping, memory=mem:UNIT (UNIT "
            "one of B, KB, MB, GB, TB, KiB, MiB, GiB, TiB); or write the unit in the field (16Gi, 16GB)");
  EXPECT_EQ(reported([] {
              TraceReadOptions options;
              options.columns = parse_csv_column_map("submit=t,gpus=g,duration=d,gpu_memory=gm");
              std::istringstream in("t,g,d,gm\n0,1,60,16\n");
              parse_csv_trace(in, "pods.csv", options);
            }),
            "pods.csv: line 2: field 'gm': a plain number (got '16') needs the column's unit: declare it with "
            "--trace-opt gpu_memory_unit=UNIT (gcsim trace: --gpu-memory-unit UNIT) or in the mapping, "
            "gpu_memory=gm:UNIT (UNIT one of B, KB, MB, GB, TB, KiB, MiB, GiB, TiB); or write the unit in the field "
            "(16Gi, 16GB)");
}

TEST(TraceSettingFlags, AGpuModelsMappingIsNamedAsGcsimTracesGpuTypeFlag) {
  EXPECT_EQ(reported([] {
              machine_cluster_json({{"G2", 2, 96, 1e12, 3}}, "c", "nodes.csv", "model", {});
            }),
            "nodes.csv: line 3: field 'model': gcsim has no figures for GPU model 'G2' (it knows A10, MISC, P100, T4, "
            "V100, V100M16, V100M32); map it to a GPU type with --gpu-type G2=NAME[:FLOPS]: G2=T4 takes a known "
            "model's figures, G2=G2:20TFLOPS gives its own FLOP/s");
  GpuModelMap models;
  add_gpu_model_mapping(models, parse_gpu_model_mapping("G2=T4:20TFLOPS"));
  EXPECT_EQ(reported([&] {
              machine_cluster_json({{"T4", 2, 96, 1e12, 2}, {"G2", 2, 96, 1e12, 3}}, "c", "nodes.csv", "model", models);
            }),
            "nodes.csv: field 'model': GPU models 'T4' and 'G2' both become GPU type 'T4', with different figures "
            "(8.1 TFLOP/s 16 GB and 20 TFLOP/s 16 GB); map them to different names with --gpu-type");
}

TEST(TraceSettingFlags, AFormatIsNamedAsGcsimTracesFormatFlag) {
  TempFolder dir;
  const std::string path =
      dir.write("p.csv", "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:00:00,60,1,60,vcA\n");
  EXPECT_EQ(reported([&] { read_trace(TraceFormat::kNative, path, {}); }),
            path + ": not a gcsim workload (JSON): it looks like a Philly trace; read it with --format philly");
}

}  // namespace
}  // namespace gcsim
