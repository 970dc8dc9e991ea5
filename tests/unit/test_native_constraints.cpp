// The native workload's Kubernetes placement constraints: rdma_percent, disk,
// role, application and max_instance_per_node read, written back and read
// again the same; a job without them is written as before.
#include <sstream>

#include <gtest/gtest.h>

#include "sim/core/input_error.hpp"
#include "workloads/native_workload.hpp"

namespace gcsim {
namespace {

nlohmann::json job(nlohmann::json fields) {
  nlohmann::json entry = {
      {"id", "j"}, {"submit", 0}, {"gpus", 1}, {"duration", {{"seconds", 10}, {"gpu_type", "V100"}}}};
  for (const auto& [field, value] : fields.items()) entry[field] = value;
  return entry;
}

TEST(NativeConstraints, FieldsAreReadAndWrittenBackTheSame) {
  const nlohmann::json doc = {{"jobs",
                               {job({{"rdma_percent", 25},
                                     {"disk", "680GiB"},
                                     {"role", "HN"},
                                     {"application", "app_0"},
                                     {"max_instance_per_node", 8}})}}};
  const std::vector<JobSpec> jobs = parse_native_workload(doc, "w.json");
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].rdma_percent, 25u);
  EXPECT_EQ(jobs[0].disk_bytes, 680.0 * 1073741824.0);
  EXPECT_EQ(jobs[0].role, NodeRole::kGpuNode);
  ASSERT_TRUE(jobs[0].application);
  EXPECT_EQ(jobs[0].application->name, "app_0");
  EXPECT_EQ(jobs[0].application->max_per_node, 8u);
  std::ostringstream out;
  write_native_workload(out, jobs);
  const nlohmann::json written = nlohmann::json::parse(out.str());
  EXPECT_EQ(written["jobs"][0]["role"], "HN");
  EXPECT_EQ(written["jobs"][0]["max_instance_per_node"], 8);
  const std::vector<JobSpec> again = parse_native_workload(written, "again.json");
  EXPECT_EQ(again[0].rdma_percent, 25u);
  EXPECT_EQ(again[0].disk_bytes, jobs[0].disk_bytes);
  EXPECT_EQ(again[0].role, NodeRole::kGpuNode);
  EXPECT_EQ(again[0].application->name, "app_0");
  EXPECT_EQ(again[0].application->max_per_node, 8u);
}

TEST(NativeConstraints, AnApplicationWithoutALimitIsWrittenWithoutOne) {
  const std::vector<JobSpec> jobs = parse_native_workload({{"jobs", {job({{"application", "app_1"}})}}}, "w.json");
  ASSERT_TRUE(jobs[0].application);
  EXPECT_EQ(jobs[0].application->max_per_node, 0u);
  std::ostringstream out;
  write_native_workload(out, jobs);
  EXPECT_EQ(out.str().find("max_instance_per_node"), std::string::npos);
}

TEST(NativeConstraints, AJobWithoutThemWritesNoneOfTheirFields) {
  std::ostringstream out;
  write_native_workload(out, parse_native_workload({{"jobs", {job({})}}}, "w.json"));
  for (const char* field : {"rdma_percent", "disk", "role", "application", "max_instance_per_node"})
    EXPECT_EQ(out.str().find(field), std::string::npos) << field;
}

TEST(NativeConstraints, BadValuesNameTheJobAndField) {
  const struct {
    nlohmann::json fields;
    const char* field;
  } cases[] = {
      {{{"role", "cn"}}, "role"},
      {{{"role", 1}}, "role"},
      {{{"rdma_percent", 12.5}}, "rdma_percent"},
      {{{"disk", "-1GB"}}, "disk"},
      {{{"application", ""}}, "application"},
      {{{"application", "a"}, {"max_instance_per_node", -3}}, "max_instance_per_node"},
      {{{"max_instance_per_node", 1}}, "max_instance_per_node"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.fields.dump());
    try {
      parse_native_workload({{"jobs", {job(c.fields)}}}, "w.json");
      ADD_FAILURE() << "read";
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), "w.json");
      EXPECT_EQ(e.where(), "jobs[0] (id 'j')");
      EXPECT_EQ(e.field(), c.field);
    }
  }
}

}  // namespace
}  // namespace gcsim
