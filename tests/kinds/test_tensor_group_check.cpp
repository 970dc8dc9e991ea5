// Specification of an LLM training job's TP groups against the cluster
// (workloads/kinds/llm_training/tensor_group_check.hpp): a TP group must fit
// the nodes of some node group the job may run on.
#include "workloads/kinds/llm_training/tensor_group_check.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/input_error.hpp"
#include "tests/support/crafted_specs.hpp"

namespace gcsim {
namespace {

using testing::crafted_node_group;

// 2 nodes of 8 V100 and 4 nodes of 4 K80.
ClusterSpec mixed() {
  ClusterSpec spec;
  spec.name = "mixed";
  spec.gpu_types = {{"V100", 15.7e12, 32e9}, {"K80", 4.37e12, 12e9}};
  spec.node_groups = {crafted_node_group("dgx", 2, 8, "V100"), crafted_node_group("old", 4, 4, "K80")};
  return spec;
}

void check(std::uint32_t tensor, const std::vector<std::string>& gpu_types) {
  const ClusterLayout layout(mixed());
  check_tensor_groups(tensor, gpu_types, ClusterCheck(layout, "w.json", "jobs[2] (id 'llm')", "cluster 'mixed'"));
}

TEST(TensorGroupCheck, AcceptsGroupsSomeNodeTheJobMayRunOnHolds) {
  EXPECT_NO_THROW(check(1, {}));
  EXPECT_NO_THROW(check(8, {}));  // on the dgx nodes
  EXPECT_NO_THROW(check(4, {}));
  EXPECT_NO_THROW(check(4, {"K80"}));
  EXPECT_NO_THROW(check(2, {"K80"}));
}

TEST(TensorGroupCheck, RefusesAGroupAboveEveryNodeNamingTheField) {
  try {
    check(16, {});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "w.json");
    EXPECT_EQ(e.where(), "jobs[2] (id 'llm')");
    EXPECT_EQ(e.field(), "llm_training.parallel.tensor");
    EXPECT_NE(e.problem().find("'dgx' nodes of 8 GPUs, 'old' nodes of 4 GPUs"), std::string::npos) << e.what();
  }
}

TEST(TensorGroupCheck, CountsOnlyTheNodesOfTheJobsGpuTypes) { EXPECT_THROW(check(8, {"K80"}), InputError); }

TEST(TensorGroupCheck, RefusesAGroupThatWouldStraddleNodes) {
  // 3 GPUs a group: 8- and 4-GPU nodes would each split a group over two
  EXPECT_THROW(check(3, {}), InputError);
  EXPECT_THROW(check(6, {}), InputError);
}

}  // namespace
}  // namespace gcsim
