// A job runs on GPUs of one type unless it allows several, through `gcsim
// run` on a cluster of 8 T4 and 8 A10: a job no single type holds is refused
// before the run, naming the largest type; a job allowing several (gpu_types
// listing both, or --trace-opt mixed_gpu_types=true) runs across them at its
// slowest GPU's speed, which jobs.csv and summary.json say; and every
// built-in policy keeps the other jobs to one type.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// Nodes t4-0, t4-1 (4 T4 each, 1e12 FLOP/s) and a10-0, a10-1 (4 A10 each,
// 2e12 FLOP/s), in one rack.
std::string t4_and_a10() {
  const nlohmann::json node = {{"gpus_per_node", 4},
                               {"count", 2},
                               {"cpu_cores", 16},
                               {"memory", "64GB"},
                               {"intra_node", {{"kind", "pcie"}, {"bandwidth", 1e10}, {"latency", 1e-6}}},
                               {"nic", {{"bandwidth", 1e10}, {"latency", 1e-6}}}};
  nlohmann::json t4 = node, a10 = node;
  t4.update({{"name", "t4"}, {"gpu_type", "T4"}});
  a10.update({{"name", "a10"}, {"gpu_type", "A10"}});
  return nlohmann::json{
      {"name", "t4-a10"},
      {"gpu_types",
       {{{"name", "T4"}, {"flops", 1e12}, {"memory", "16GB"}}, {{"name", "A10"}, {"flops", 2e12}, {"memory", "24GB"}}}},
      {"node_groups", {t4, a10}},
      {"fabric", {{"nodes_per_rack", 4}}}}
      .dump();
}

// 10 iterations of 1e12 FLOPs, no gradients: 10 s on T4s, 5 s on A10s.
nlohmann::json sixteen_gpu_job() { return training_job("wide", 0, 16, 1e12, 0, 10); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(GpuTypes, AJobNoSingleTypeHoldsIsRefusedBeforeTheRun) {
  ScratchDir dir;
  const GcsimRun run = run_simulation(dir.write("cluster.json", t4_and_a10()),
                                      dir.write("jobs.json", workload_json({sixteen_gpu_job()})), dir / "out");
  EXPECT_EQ(run.exit_code, 1) << run.err;
  for (const char* part : {"jobs.json", "jobs[0] (id 'wide')", "'gpus'", "needs 16 GPUs of one GPU type", "is 8 (T4)",
                           "gpu_types", "mixed_gpu_types"})
    EXPECT_TRUE(contains(run.err, part)) << part << " in " << run.err;
  EXPECT_TRUE(files_in(dir / "out").empty());
}

TEST(GpuTypes, AJobListingBothTypesRunsAcrossThemAtTheSlowerOnesSpeed) {
  ScratchDir dir;
  nlohmann::json job = sixteen_gpu_job();
  job["gpu_types"] = {"T4", "A10"};
  const GcsimRun run = run_simulation(dir.write("cluster.json", t4_and_a10()),
                                      dir.write("jobs.json", workload_json({job})), dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JobRow row = read_jobs_csv(dir / "out").at("wide");
  EXPECT_EQ(row.gpu_types, "T4;A10");
  EXPECT_EQ(row.pace_gpu_type, "T4");
  EXPECT_NEAR(row.jct, 10, 1e-6);  // the T4s' pace: 10 x 1e12 / 1e12
  EXPECT_EQ(read_summary(dir / "out")["jobs_across_gpu_types"], 1);
  EXPECT_TRUE(contains(run.err, "gcsim: note: 1 jobs ran on GPUs of several types")) << run.err;
}

TEST(GpuTypes, ATraceOptionLetsEveryJobOfTheTraceSpanTypes) {
  ScratchDir dir;
  const std::string cluster = dir.write("cluster.json", t4_and_a10());
  // One 16-GPU job of 600 s measured on a T4.
  const std::string trace = "philly:" + dir.write("philly.csv",
                                                  "timestamp,duration,num_gpus,gpu_time,cluster\n"
                                                  "2017-10-09 07:00:00,600,16,9600,vcA\n");
  const GcsimRun refused = run_simulation(cluster, trace, dir / "refused", {"--trace-opt", "gpu_type=T4"});
  EXPECT_EQ(refused.exit_code, 1) << refused.err;
  EXPECT_TRUE(contains(refused.err, "--trace-opt mixed_gpu_types=true")) << refused.err;

  const GcsimRun run = run_simulation(cluster, trace, dir / "out",
                                      {"--trace-opt", "gpu_type=T4", "--trace-opt", "mixed_gpu_types=true"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows.begin()->second.gpu_types, "T4;A10");
  EXPECT_NEAR(rows.begin()->second.jct, 600, 1e-6);  // measured on a T4, run at the T4s' pace
  EXPECT_EQ(read_summary(dir / "out")["jobs_across_gpu_types"], 1);
}

// Jobs of 6, 6, 4, 3 and 2 GPUs: packed or spread freely, the 6-GPU ones
// would take both types; every policy keeps each job on one.
class EveryPolicy : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryPolicy, KeepsEachJobToOneGpuType) {
  ScratchDir dir;
  std::vector<nlohmann::json> jobs;
  int n = 0;
  for (int gpus : {6, 6, 4, 3, 2}) jobs.push_back(training_job("j" + std::to_string(n++), 0, gpus, 1e12, 0, 10));
  const GcsimRun run = run_simulation(dir.write("cluster.json", t4_and_a10()),
                                      dir.write("jobs.json", workload_json(jobs)), dir / "out", {}, GetParam());
  // piecemeal's interleaved grants may deadlock; it still holds one type per job.
  if (GetParam() != "piecemeal" || run.exit_code != 5) {
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  for (const auto& [id, row] : read_jobs_csv(dir / "out")) {
    if (row.placement.empty()) continue;
    const bool any_t4 = contains(row.placement, "t4-"), any_a10 = contains(row.placement, "a10-");
    EXPECT_NE(any_t4, any_a10) << id << " on " << row.placement;
  }
  EXPECT_EQ(read_summary(dir / "out")["jobs_across_gpu_types"], 0);
}

INSTANTIATE_TEST_SUITE_P(Builtin, EveryPolicy,
                         ::testing::Values("fifo", "fifo-backfill", "gang", "piecemeal", "incremental", "srtf",
                                           "tiresias", "drf", "capacity"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace gcsim::testing
