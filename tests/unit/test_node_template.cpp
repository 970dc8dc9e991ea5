// The node templates of `gcsim plan`: a template is read by the cluster
// reader, so a malformed one is an InputError naming the file, the node group
// and the field, never an exception of the JSON library; and the cluster of a
// mix holds each template's first group at its count.
#include <gtest/gtest.h>

#include "app/node_template.hpp"
#include "sim/core/input_error.hpp"
#include "sim/topology/cluster_reader.hpp"
#include "tests/support/trace_files.hpp"

namespace gcsim {
namespace {

using testing::TempFolder;

std::string cluster_text(const std::string& group_fields) {
  return R"({"name": "t", "gpu_types": [{"name": "T4", "flops": "8.1TFLOPS", "memory": "16GB"}],
             "node_groups": [{)" +
         group_fields +
         R"(, "gpu_type": "T4", "cpu_cores": 32, "memory": "256GB",
             "intra_node": {"kind": "pcie", "bandwidth": "16GB/s", "latency": "10us"},
             "nic": {"bandwidth": "25Gbps", "latency": "5us"}}]})";
}

TEST(NodeTemplate, ReadsTheFirstGroupsGpusAndCount) {
  TempFolder dir;
  const NodeTemplate t =
      read_node_template(dir.write("t.json", cluster_text(R"("name": "g", "count": 3, "gpus_per_node": 4)")));
  EXPECT_EQ(t.gpus_per_node, 4u);
  EXPECT_EQ(t.count, 3u);
}

TEST(NodeTemplate, AGpuCountGivenAsTextIsAnInputErrorNamingTheField) {
  TempFolder dir;
  const std::string path = dir.write("t.json", cluster_text(R"("name": "g", "count": 1, "gpus_per_node": "8")"));
  try {
    read_node_template(path);
    FAIL() << "accepted a GPU count given as text";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_NE(e.where().find("node_groups[0]"), std::string::npos) << e.what();
    EXPECT_EQ(e.field(), "gpus_per_node");
  }
}

TEST(NodeTemplate, ANodeCountThatIsNotANumberIsAnInputErrorNamingTheField) {
  TempFolder dir;
  const std::string path = dir.write("t.json", cluster_text(R"("name": "g", "count": [2], "gpus_per_node": 8)"));
  try {
    read_node_template(path);
    FAIL() << "accepted a node count that is a list";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.field(), "count");
  }
}

TEST(NodeTemplate, AGroupWithoutANameIsAnInputErrorNotAFailedMix) {
  TempFolder dir;
  const std::string path = dir.write("t.json", cluster_text(R"("count": 1, "gpus_per_node": 8)"));
  try {
    read_node_template(path);
    FAIL() << "accepted a node group without a name";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.field(), "name");
  }
}

// gcsim plan sizes GPU capacity: a template of CPU nodes has no GPU to plan.
TEST(NodeTemplate, ACpuNodeGroupIsAnInputErrorNamingItsGpuCount) {
  TempFolder dir;
  const std::string path = dir.write(
      "t.json", R"({"name": "t", "node_groups": [{"name": "cpu", "count": 2, "gpus_per_node": 0, "cpu_cores": 28,
                    "memory": "192GB", "nic": {"bandwidth": "25Gbps", "latency": "5us"}}]})");
  try {
    read_node_template(path);
    FAIL() << "accepted a template of CPU nodes";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.field(), "gpus_per_node");
    EXPECT_NE(e.problem().find("a CPU node group"), std::string::npos) << e.what();
  }
}

TEST(NodeTemplate, AMixOfTwoTemplatesIsAClusterOfBothGroupsAtTheirCounts) {
  TempFolder dir;
  const NodeTemplate a =
      read_node_template(dir.write("a.json", cluster_text(R"("name": "g", "count": 1, "gpus_per_node": 4)")));
  const NodeTemplate b =
      read_node_template(dir.write("b.json", cluster_text(R"("name": "g", "count": 1, "gpus_per_node": 8)")));
  const ClusterSpec mix = parse_cluster_json(mixed_cluster({a, b}, {2, 5}), "mix.json");
  ASSERT_EQ(mix.node_groups.size(), 2u);
  EXPECT_EQ(mix.node_groups[0].name, "g-t1");
  EXPECT_EQ(mix.node_groups[0].count, 2u);
  EXPECT_EQ(mix.node_groups[1].gpus_per_node, 8u);
  EXPECT_EQ(mix.node_groups[1].count, 5u);
  EXPECT_EQ(mix.gpu_types.size(), 1u);
}

}  // namespace
}  // namespace gcsim
