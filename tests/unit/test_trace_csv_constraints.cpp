// The CSV reader's Kubernetes placement constraints, mapped as Alibaba's
// 2025 GPU-disaggregated DLRM trace writes them: rdma_request (whole percent
// of an RNIC), disk_request (GiB), role (CN, HN), app_name and
// max_instance_per_node (-1: no limit); bad values are malformed rows,
// errors naming line and column under strict mode.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "sim/core/input_error.hpp"
#include "traces/csv_trace.hpp"

namespace gcsim {
namespace {

const char* kMap =
    "id=instance_sn,submit=creation_time,gpus=gpu_request,duration=run,cpu=cpu_request,memory=memory_request:GiB,"
    "rdma=rdma_request,disk=disk_request:GiB,role=role,application=app_name,max_per_node=max_instance_per_node";
const char* kHeader =
    "instance_sn,role,app_name,cpu_request,gpu_request,rdma_request,memory_request,disk_request,"
    "max_instance_per_node,creation_time,run\n";

TraceReadResult parse(const std::string& rows, bool strict = false) {
  TraceReadOptions options;
  options.columns = parse_csv_column_map(kMap);
  options.strict = strict;
  std::istringstream in(kHeader + rows);
  return parse_csv_trace(in, "dlrm.csv", options);
}

TEST(CsvTraceConstraints, ReadsTheDisaggregatedTracesColumns) {
  const TraceReadResult trace = parse(
      "instance_7185,HN,app_0,12,1,25,120.0,680.0,8,0,100\n"
      "instance_13574,CN,app_130,64,0,1,320.0,255.0,-1,10,131\n"
      "instance_1,,,4,1,,16,,,20,50\n");
  ASSERT_EQ(trace.jobs.size(), 3u);
  const JobSpec& hn = trace.jobs[0];
  EXPECT_EQ(hn.id, "instance_7185");
  EXPECT_EQ(hn.role, NodeRole::kGpuNode);
  EXPECT_EQ(hn.rdma_percent, 25u);
  EXPECT_EQ(hn.disk_bytes, 680.0 * 1073741824.0);
  EXPECT_EQ(hn.memory_bytes, 120.0 * 1073741824.0);
  ASSERT_TRUE(hn.application);
  EXPECT_EQ(hn.application->name, "app_0");
  EXPECT_EQ(hn.application->max_per_node, 8u);
  EXPECT_TRUE(has_anti_affinity(hn));
  const JobSpec& cn = trace.jobs[1];  // 0 GPUs and 64 cores: a CPU job, its constraints kept
  EXPECT_TRUE(std::holds_alternative<CpuWork>(cn.work));
  EXPECT_EQ(cn.role, NodeRole::kCpuNode);
  EXPECT_EQ(cn.rdma_percent, 1u);
  ASSERT_TRUE(cn.application);
  EXPECT_EQ(cn.application->max_per_node, 0u);  // -1: no limit of its own
  EXPECT_FALSE(has_anti_affinity(cn));
  const JobSpec& plain = trace.jobs[2];  // empty fields: none of them
  EXPECT_EQ(plain.role, NodeRole::kNone);
  EXPECT_EQ(plain.rdma_percent, 0u);
  EXPECT_EQ(plain.disk_bytes, 0);
  EXPECT_FALSE(plain.application);
}

TEST(CsvTraceConstraints, JobsOfOneApplicationAndLimitShareOneApplication) {
  const TraceReadResult trace = parse("a,HN,app_0,1,1,25,1,1,8,0,100\nb,HN,app_0,1,1,25,1,1,8,0,100\n");
  ASSERT_EQ(trace.jobs.size(), 2u);
  EXPECT_EQ(trace.jobs[0].application.get(), trace.jobs[1].application.get());
}

TEST(CsvTraceConstraints, BadValuesAreMalformedRowsNamingTheirColumn) {
  const struct {
    const char* row;
    const char* column;
  } cases[] = {
      {"a,XN,app_0,1,1,25,1,1,8,0,100\n", "role"},
      {"a,HN,app_0,1,1,-5,1,1,8,0,100\n", "rdma_request"},
      {"a,HN,app_0,1,1,12.5,1,1,8,0,100\n", "rdma_request"},
      {"a,HN,app_0,1,1,25,1,1,0,0,100\n", "max_instance_per_node"},
      {"a,HN,app_0,1,1,25,1,1,-2,0,100\n", "max_instance_per_node"},
      {"a,HN,,1,1,25,1,1,3,0,100\n", "app_name"},
      {"a,HN,app_0,1,1,25,1,-3,3,0,100\n", "disk_request"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.row);
    const TraceReadResult trace = parse(c.row);
    EXPECT_TRUE(trace.jobs.empty());
    ASSERT_EQ(trace.skipped.size(), 1u);
    EXPECT_EQ(trace.skipped[0].field, c.column);
    EXPECT_EQ(trace.skipped[0].line, 2u);
    try {
      parse(c.row, /*strict=*/true);
      ADD_FAILURE() << "strict mode read the row";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), c.column);
      EXPECT_EQ(e.where(), "line 2");
    }
  }
}

TEST(CsvTraceConstraints, APlainDiskNumberNeedsTheMappingsUnit) {
  TraceReadOptions options;
  options.columns = parse_csv_column_map("submit=t,gpus=g,duration=d,disk=disk");
  std::istringstream in("t,g,d,disk\n0,1,10,680\n");
  try {
    parse_csv_trace(in, "dlrm.csv", options);
    FAIL() << "read a disk of no unit";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "disk");
    EXPECT_NE(std::string(e.what()).find("disk=disk:UNIT"), std::string::npos) << e.what();
  }
  std::istringstream with_unit("t,g,d,disk\n0,1,10,680Gi\n");
  EXPECT_EQ(parse_csv_trace(with_unit, "dlrm.csv", options).jobs.at(0).disk_bytes, 680.0 * 1073741824.0);
}

TEST(CsvTraceConstraints, ALimitPerNodeNeedsAnApplicationColumn) {
  TraceReadOptions options;
  options.columns = parse_csv_column_map("submit=t,gpus=g,duration=d,max_per_node=k");
  std::istringstream in("t,g,d,k\n0,1,10,1\n");
  EXPECT_THROW(parse_csv_trace(in, "dlrm.csv", options), std::invalid_argument);
}

}  // namespace
}  // namespace gcsim
