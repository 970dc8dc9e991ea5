// A training job on real data: each node's cores decode its GPUs' samples
// while they compute, and the slower side sets the computation's time per
// iteration; the exchange follows as on synthetic data. Pipelines on one node
// share its cores by GPUs, each held to the cores its job asked for there.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

nlohmann::json pipelined(nlohmann::json job, double samples_per_gpu, double core_samples_per_s) {
  job["training"]["input_pipeline"] = {{"samples_per_gpu", samples_per_gpu},
                                       {"core_samples_per_s", core_samples_per_s}};
  return job;
}

class InputPipelineTiming : public ::testing::TestWithParam<const char*> {};

// Two nodes of 4 GPUs and 8 cores; the job holds all 8 GPUs and asks for 8
// cores, 4 on each node. Per node an iteration decodes 4 x 10 samples with 4
// cores at 5 samples/s each: 2 s, against 1 s of computation.
TEST_P(InputPipelineTiming, ThePipelineBoundJobTakesItsDecodeTimePerIterationThenItsExchange) {
  CraftedCluster cluster{2, 4};
  cluster.cpu_cores = 8;
  const double flops = 1e12, gradient_bytes = 1e8;
  const int iterations = 5;
  nlohmann::json job = pipelined(training_job("real", 0, 8, flops, gradient_bytes, iterations), 10, 5);
  job["cpu_cores"] = 8;
  ScratchDir dir;
  const GcsimRun run = run_alone(dir, cluster, job, GetParam());
  ASSERT_EQ(run.exit_code, 0) << run.err;

  // The ring of 8 ranks over two nodes: 14 steps, each over the slowest edge
  // (both NICs) with an eighth of the gradients.
  const double step = cluster.intra_latency + 2 * cluster.nic_latency + gradient_bytes / 8 / cluster.nic_bandwidth;
  const double exchange = 14 * step;
  const double decode = 4 * 10 / (4 * 5.0), compute = flops / cluster.gpu_flops;
  ASSERT_GT(decode, compute);
  const double expected = iterations * (decode + exchange);

  const JobRow row = read_jobs_csv(dir / "out").at("real");
  EXPECT_NEAR(row.jct, expected, expected * 1e-6);
  EXPECT_NEAR(row.uncontended, expected, expected * 1e-6);
  EXPECT_NEAR(row.real_iterations_per_s, iterations / expected, 1e-6 * iterations / expected);
  const double synthetic = 1 / (compute + exchange);
  EXPECT_NEAR(row.synthetic_iterations_per_s, synthetic, synthetic * 1e-6);
}

// With cores enough the GPUs set the pace: the run lasts what synthetic data takes.
TEST_P(InputPipelineTiming, AFastEnoughPipelineCostsNothing) {
  CraftedCluster cluster{2, 4};
  cluster.cpu_cores = 8;
  nlohmann::json job = pipelined(training_job("fed", 0, 8, 1e12, 1e8, 5), 10, 20);  // 0.5 s of decoding
  job["cpu_cores"] = 8;
  ScratchDir dir;
  const GcsimRun run = run_alone(dir, cluster, job, GetParam());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JobRow row = read_jobs_csv(dir / "out").at("fed");
  EXPECT_NEAR(row.real_iterations_per_s, row.synthetic_iterations_per_s, row.synthetic_iterations_per_s * 1e-9);
  EXPECT_NEAR(row.jct, 5 / row.synthetic_iterations_per_s, 1e-6);
}

// One node, 8 GPUs, 40 cores. "asks" (1 GPU, 4 cores asked) decodes 64
// samples at 10/s per core: 1.6 s per iteration, 160 s. "three" (3 GPUs) and
// "one" (1 GPU) ask for no cores and decode at 1 sample/s per core: 192 and
// 64 core-seconds per iteration. While "asks" runs, its share by GPUs (8 of
// 40) exceeds its 4 cores, so it keeps 4 and the other two split 36 cores
// 3 : 1: 27 and 9, which both need 7.11 s per iteration. After 160 s "three"
// has decoded 4,320 of its 19,200 core-seconds, and "one" 1,440 of 6,400;
// then they split 40 cores 30 : 10 and both finish their remaining
// 14,880 and 4,960 core-seconds 496 s later, at 656 s.
TEST_P(InputPipelineTiming, PipelinesShareTheNodesCoresByGpusWithinWhatTheyAskedFor) {
  CraftedCluster cluster{1, 8};
  cluster.cpu_cores = 40;
  nlohmann::json asks = pipelined(training_job("asks", 0, 1, 1e12, 0, 100), 64, 10);
  asks["cpu_cores"] = 4;
  const nlohmann::json three = pipelined(training_job("three", 0, 3, 1e12, 0, 100), 64, 1);
  const nlohmann::json one = pipelined(training_job("one", 0, 1, 1e12, 0, 100), 64, 1);
  ScratchDir dir;
  const auto cluster_file = dir.write("cluster.json", cluster.to_json());
  const auto workload = dir.write("jobs.json", workload_json({asks, three, one}));
  const GcsimRun run = run_simulation(cluster_file, workload, dir / "out", {"--fidelity", GetParam()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  EXPECT_NEAR(rows.at("asks").end, 160, 1e-6);
  EXPECT_NEAR(rows.at("three").end, 656, 1e-6);
  EXPECT_NEAR(rows.at("one").end, 656, 1e-6);
  // The GPUs computed 100 s each and waited for their input the rest of the time.
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_NEAR(summary["gpu_utilization"]["busy_gpu_hours"].get<double>(), 5 * 100 / 3600.0, 1e-9);
  EXPECT_NEAR(summary["gpu_utilization"]["allocated_gpu_hours"].get<double>(), (160 + 4 * 656) / 3600.0, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Fidelities, InputPipelineTiming, ::testing::Values("iteration", "job"));

TEST(InputPipelineInput, ANegativeRateIsRejectedNamingTheJobAndField) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const auto workload =
      dir.write("jobs.json", workload_json({pipelined(training_job("bad", 0, 1, 1e12, 0, 10), 64, -3)}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  EXPECT_EQ(run.exit_code, 1);
  for (const char* part : {"jobs.json", "bad", "input_pipeline", "core_samples_per_s"})
    EXPECT_NE(run.err.find(part), std::string::npos) << part << " in: " << run.err;
  EXPECT_TRUE(files_in(dir / "out").empty());
}

}  // namespace
}  // namespace gcsim::testing
