// Node failures drawn from an MTBF: their mean gap is the MTBF for either
// distribution, the same seed draws the same failures, and each node's next
// failure comes after its repair.
#include "workloads/node_failures.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "tests/support/crafted_specs.hpp"

namespace gcsim {
namespace {

ClusterLayout nodes(std::uint32_t count) {
  ClusterSpec spec;
  spec.name = "many";
  spec.gpu_types = {{"GPU", 1e12, 32e9}};
  spec.node_groups = {testing::crafted_node_group("n", count, 8, "GPU")};
  return ClusterLayout(spec);
}

std::vector<NodeFailure> drawn(const std::string& text, const ClusterLayout& layout) {
  const std::string path = (std::filesystem::temp_directory_path() / "gcsim-node-failures.json").string();
  std::ofstream(path) << text;
  return read_node_failures_file(path, layout);
}

// The mean time from a repair (or the start) to the next failure, over every node.
double mean_gap(const std::vector<NodeFailure>& failures) {
  std::map<NodeId, Time> free_since;
  double sum = 0;
  for (const NodeFailure& f : failures) {
    sum += f.at - free_since[f.node];
    EXPECT_GE(f.at, free_since[f.node]);
    free_since[f.node] = f.at + f.duration;
  }
  return sum / static_cast<double>(failures.size());
}

TEST(NodeFailureDraw, ExponentialAndWeibullGapsAverageTheMtbf) {
  const ClusterLayout layout = nodes(200);
  // 200 nodes x about 990 failures each: the mean within 1%.
  const auto exponential = drawn(R"({"mtbf": 100, "repair": 1, "horizon": 100000, "seed": 3})", layout);
  EXPECT_NEAR(mean_gap(exponential), 100, 1);
  const auto weibull =
      drawn(R"({"mtbf": 100, "distribution": "weibull", "shape": 2, "repair": 1, "horizon": 100000})", layout);
  EXPECT_NEAR(mean_gap(weibull), 100, 1);
  for (std::size_t i = 1; i < weibull.size(); ++i) ASSERT_LE(weibull[i - 1].at, weibull[i].at);
  // The same seed draws the same failures.
  const auto again = drawn(R"({"mtbf": 100, "repair": 1, "horizon": 100000, "seed": 3})", layout);
  ASSERT_EQ(again.size(), exponential.size());
  EXPECT_EQ(again[100].at, exponential[100].at);
  EXPECT_EQ(again[100].node, exponential[100].node);
}

}  // namespace
}  // namespace gcsim
