// The state a capped GPU runs in (sim/core/gpu_power_states.hpp): the
// highest within the cap, the lowest below them all; the least of the
// cluster's, the type's, the group's and the job's caps; none uncapped; and
// the bundled tables, whose energy per second of work is lowest at an
// intermediate limit.
#include "sim/core/gpu_power_states.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/support/crafted_specs.hpp"

namespace gcsim {
namespace {

const std::vector<PowerState> kTable = {{300, 1.0}, {200, 0.8}, {100, 0.5}};

TEST(GpuPowerStates, ACapRunsTheHighestStateWithinItOrTheLowest) {
  EXPECT_EQ(state_within(kTable, 1000).watts, 300);
  EXPECT_EQ(state_within(kTable, 300).watts, 300);
  EXPECT_EQ(state_within(kTable, 299).watts, 200);
  EXPECT_EQ(state_within(kTable, 150).speed, 0.5);
  EXPECT_EQ(state_within(kTable, 10).watts, 100);  // below every state: the lowest
}

ClusterSpec two_groups() {
  ClusterSpec spec;
  spec.name = "caps";
  spec.gpu_types = {GpuType{"X", 1e12, 32e9}};
  spec.gpu_types[0].power_states = kTable;
  spec.node_groups = {testing::crafted_node_group("a", 1, 2, "X"), testing::crafted_node_group("b", 1, 2, "X")};
  spec.fabric.nodes_per_rack = 2;
  return spec;
}

TEST(GpuPowerStates, TheLeastOfTheCapsHoldsAndNoneLeavesTheGpuUncapped) {
  ClusterSpec spec = two_groups();
  EXPECT_FALSE(capped_state(ClusterLayout(spec), 0, 0));
  spec.gpu_power_cap_watts = 250;
  spec.node_groups[1].power_cap_watts = 120;
  const ClusterLayout layout(spec);
  EXPECT_EQ(capped_state(layout, 0, 0)->watts, 200);     // group a: the cluster's 250
  EXPECT_EQ(capped_state(layout, 2, 0)->watts, 100);     // group b: its own 120
  EXPECT_EQ(capped_state(layout, 0, 150)->watts, 100);   // the job's 150
  EXPECT_EQ(capped_state(layout, 0, 1000)->watts, 200);  // the job's limit above the cluster's cap
}

TEST(GpuPowerStates, ARunIsUnderTheLowerOfItsJobsLimitAndItsPolicysWhereSet) {
  EXPECT_EQ(run_power_limit(0, 0), 0);
  EXPECT_EQ(run_power_limit(300, 0), 300);
  EXPECT_EQ(run_power_limit(0, 200), 200);
  EXPECT_EQ(run_power_limit(300, 200), 200);
  EXPECT_EQ(run_power_limit(200, 300), 200);
}

TEST(GpuPowerStates, AJobLimitOnATypeWithoutATableLeavesTheGpuUncapped) {
  ClusterSpec spec = two_groups();
  spec.gpu_types[0].power_states.clear();  // "X" has no bundled table
  EXPECT_FALSE(capped_state(ClusterLayout(spec), 0, 150));
}

TEST(GpuPowerStates, EveryBundledTableSpendsTheLeastEnergyPerWorkAtAnIntermediateLimit) {
  for (const std::string type : {"K80", "P100", "V100", "A100", "H100", "H200"}) {
    const std::vector<PowerState> states = bundled_power_states(type);
    ASSERT_GE(states.size(), 3u) << type;
    EXPECT_EQ(states.front().watts, bundled_gpu_power(type)->busy_watts) << type;
    EXPECT_EQ(states.front().speed, 1.0) << type;
    const auto least = std::min_element(states.begin(), states.end(), [](const PowerState& a, const PowerState& b) {
      return a.watts / a.speed < b.watts / b.speed;
    });
    EXPECT_NE(least, states.begin()) << type;
    EXPECT_NE(least, states.end() - 1) << type;
  }
  EXPECT_TRUE(bundled_power_states("X").empty());
}

}  // namespace
}  // namespace gcsim
