// Training jobs whose model runs at its own speed per GPU type
// (flops_per_iteration_by_gpu_type, as throughput tables fill it), through
// `gcsim run` on a cluster of two GPU types.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// One node of 1 "fast" GPU (1e12 FLOP/s) and one node of 1 "slow" GPU (0.25e12).
std::string two_type_cluster() {
  const nlohmann::json node = {{"cpu_cores", 8},
                               {"memory", "64GB"},
                               {"intra_node", {{"kind", "pcie"}, {"bandwidth", 1e10}, {"latency", 1e-6}}},
                               {"nic", {{"bandwidth", 1e10}, {"latency", 1e-6}}}};
  nlohmann::json fast = node, slow = node;
  fast.update({{"name", "fast"}, {"count", 1}, {"gpus_per_node", 1}, {"gpu_type", "fast"}});
  slow.update({{"name", "slow"}, {"count", 1}, {"gpus_per_node", 1}, {"gpu_type", "slow"}});
  return nlohmann::json{{"name", "two-types"},
                        {"gpu_types",
                         {{{"name", "fast"}, {"flops", 1e12}, {"memory", "16GB"}},
                          {{"name", "slow"}, {"flops", 0.25e12}, {"memory", "16GB"}}}},
                        {"node_groups", {fast, slow}}}
      .dump();
}

nlohmann::json job(const std::string& id, int gpus, const nlohmann::json& by_type) {
  nlohmann::json training = {{"flops_per_iteration", 1e12}, {"gradient_bytes", 0}, {"iterations", 10}};
  if (!by_type.is_null()) training["flops_per_iteration_by_gpu_type"] = by_type;
  return {{"id", id}, {"submit", 0}, {"gpus", gpus}, {"training", training}};
}

TEST(PerTypeSpeed, EachGpuTypeRunsTheModelAtItsOwnSpeed) {
  // a and b take one GPU each (FIFO, packed in cluster order: a on fast, b on slow).
  // a: 10 iterations of 1e12 FLOPs on fast = 10 s.
  // b: on slow, whose FLOP/s are 4x lower, the model is only 2x slower:
  //    flops_on(slow) = 0.5e12, 10 x 0.5e12 / 0.25e12 = 20 s (40 s by FLOP/s alone).
  ScratchDir dir;
  const nlohmann::json per_type = {{"slow", 0.5e12}};
  const GcsimRun result = run_simulation(
      dir.write("cluster.json", two_type_cluster()),
      dir.write("jobs.json", workload_json({job("a", 1, per_type), job("b", 1, per_type)})), dir / "out");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto rows = read_jobs_csv(dir / "out");
  EXPECT_NE(rows.at("a").placement.find("fast"), std::string::npos) << rows.at("a").placement;
  EXPECT_NEAR(rows.at("a").jct, 10, 1e-6);
  EXPECT_NE(rows.at("b").placement.find("slow"), std::string::npos) << rows.at("b").placement;
  EXPECT_NEAR(rows.at("b").jct, 20, 1e-6);
}

TEST(PerTypeSpeed, AJobAcrossBothTypesRunsAtItsSlowestGpu) {
  // 2 GPUs, one of each (as mixed_gpu_types lets it): every iteration waits
  // for the slow GPU's 0.5e12 / 0.25e12 = 2 s; no gradients: 20 s.
  ScratchDir dir;
  nlohmann::json across = job("ab", 2, {{"slow", 0.5e12}});
  across["mixed_gpu_types"] = true;
  const GcsimRun result =
      run_simulation(dir.write("cluster.json", two_type_cluster()), dir.write("jobs.json", workload_json({across})),
                     dir / "out", {"--fidelity", "iteration"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NEAR(read_jobs_csv(dir / "out").at("ab").jct, 20, 1e-6);
  EXPECT_EQ(read_jobs_csv(dir / "out").at("ab").pace_gpu_type, "slow");
}

TEST(PerTypeSpeed, WithoutTheMapTypesScaleByFlops) {
  ScratchDir dir;
  const GcsimRun result =
      run_simulation(dir.write("cluster.json", two_type_cluster()),
                     dir.write("jobs.json", workload_json({job("a", 1, nullptr), job("b", 1, nullptr)})), dir / "out");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NEAR(read_jobs_csv(dir / "out").at("b").jct, 40, 1e-6);
}

TEST(PerTypeSpeed, NonPositiveFlopsAreAnError) {
  ScratchDir dir;
  const GcsimRun result =
      run_simulation(dir.write("cluster.json", two_type_cluster()),
                     dir.write("jobs.json", workload_json({job("a", 1, {{"slow", 0}})})), dir / "out");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.err.find("flops_per_iteration_by_gpu_type: field 'slow'"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace gcsim::testing
