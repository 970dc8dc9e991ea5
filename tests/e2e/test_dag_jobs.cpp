// DAG jobs through `gcsim run`: the frame chain's hand counts, data on edges
// over known links, CPU workers, a preempted DAG starting over, bad DAGs.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

class DagJobs : public ::testing::Test {
 protected:
  std::map<std::string, JobRow> run(const CraftedCluster& cluster, const std::vector<nlohmann::json>& jobs,
                                    const std::string& policy = "fifo") {
    const GcsimRun result = run_simulation(dir_.write("cluster.json", cluster.to_json()),
                                           dir_.write("jobs.json", workload_json(jobs)), dir_ / "out", {}, policy);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return read_jobs_csv(dir_ / "out");
  }
  ScratchDir dir_;
};

nlohmann::json frame_chain_job(const std::string& id, const std::string& schedule) {
  return {{"id", id},
          {"submit", 0},
          {"frame_chain",
           {{"frames", 10}, {"elements", 3}, {"element_seconds", 1}, {"render_seconds", 1}, {"schedule", schedule}}}};
}

TEST(DagScenario, BundledFrameChainGivesTheHandCounts) {
  // 10 frames x 3 elements of 1 s and a 1 s render: 10 x 4 = 40 s on one
  // worker; 2 x 10 = 20 s when each frame waits for the previous render; 10 + 1
  // = 11 s when the render of frame n-1 overlaps the elements of frame n.
  ScratchDir dir;
  const GcsimRun result =
      run_simulation(std::string(GCSIM_SOURCE_DIR) + "/scenarios/clusters/rack-32gpu.json",
                     std::string(GCSIM_SOURCE_DIR) + "/scenarios/workloads/frame-chain.json", dir / "out");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto rows = read_jobs_csv(dir / "out");
  EXPECT_NEAR(rows.at("frames-serial").jct, 40, 1e-6);
  EXPECT_NEAR(rows.at("frames-parallel").jct, 20, 1e-6);
  EXPECT_NEAR(rows.at("frames-pipelined").jct, 11, 1e-6);
  EXPECT_EQ(rows.at("frames-serial").gpus, 1);
  EXPECT_EQ(rows.at("frames-pipelined").gpus, 4);  // 3 element workers and a renderer
}

TEST_F(DagJobs, OverheadAndWakeUpAddUpAsInTheListSchedule) {
  // Elements of 1 s, renders of 0.5 s, 0.01 s overhead per task.
  // Serial: 30 x 1.01 + 10 x 0.51 = 35.4 s on one always-busy worker.
  // Pipelined with a 0.1 s wake-up: frame 0's elements start at once and end
  // at 1.01. The last of them to finish releases frame 1 and takes one of its
  // elements at once; the two workers that finished before it found nothing
  // and waited, so they start 0.1 s late: every frame after the first ends
  // 1.11 s after the previous one, frame 9 at 1.01 + 9 x 1.11 = 11.0. The
  // renderer always waits for a frame (0.61 s < 1.11 s), so render 9 starts
  // at 11.1 and ends at 11.61.
  auto serial = frame_chain_job("serial", "serial");
  serial["frame_chain"]["render_seconds"] = 0.5;
  serial["frame_chain"]["task_overhead"] = 0.01;
  auto pipelined = frame_chain_job("pipelined", "pipelined");
  pipelined["frame_chain"]["render_seconds"] = 0.5;
  pipelined["frame_chain"]["task_overhead"] = 0.01;
  pipelined["frame_chain"]["wake_up"] = 0.1;
  const auto rows = run(CraftedCluster{}, {serial, pipelined});
  EXPECT_NEAR(rows.at("serial").jct, 35.4, 1e-6);
  EXPECT_NEAR(rows.at("pipelined").jct, 11.61, 1e-6);
}

TEST_F(DagJobs, ReportNoTrainingSpeedsAfterATrainingRun) {
  // The training job holds all 8 GPUs for 10 iterations of 1 s (1e12 FLOPs
  // at 1e12 FLOP/s, no gradients): one iteration a second, on synthetic data
  // and as it went. The DAG and the measured job wait for it and then run on
  // the GPUs it held: neither iterates, so their speed columns stay empty.
  const auto rows = run(CraftedCluster{}, {training_job("train", 0, 8, 1e12, 0, 10),
                                           frame_chain_job("frames", "serial"), measured_job("measured", 0, 8, 5)});
  EXPECT_NEAR(rows.at("train").synthetic_iterations_per_s, 1, 1e-9);
  EXPECT_NEAR(rows.at("train").real_iterations_per_s, 1, 1e-9);
  for (const std::string id : {"frames", "measured"}) {
    EXPECT_GE(rows.at(id).start, 10) << id;
    EXPECT_EQ(rows.at(id).state, "finished") << id;
    EXPECT_EQ(rows.at(id).synthetic_iterations_per_s, -1) << id;
    EXPECT_EQ(rows.at(id).real_iterations_per_s, -1) << id;
  }
}

TEST_F(DagJobs, DataOnEdgesCrossesTheLinksAndSharesThem) {
  // Crafted node: GPU ports of 100 GB/s and 1 us each (2 us GPU to GPU), GPUs
  // of 1e12 FLOP/s. src (GPU0) ends at 1 s and then sends 15 GB to left and
  // 30 GB to right, both out of GPU0's port: 50 GB/s each, so left's data is
  // in at 1.3 s (+2 us) and right's last 15 GB, alone at 100 GB/s, at 1.45 s.
  // left runs 2 s (ends 3.3), right 1e12 FLOPs = 1 s (ends 2.45). sink (GPU0)
  // starts when left ends: nothing comes from left (no bytes), 1 GB from right
  // takes 0.01 s + 2 us, then 0.5 s: 3.81 s + 4 us.
  const nlohmann::json diamond = {
      {"id", "diamond"},
      {"submit", 0},
      {"dag",
       {{"pools", {{{"name", "a"}, {"workers", 1}}, {{"name", "b"}, {"workers", 2}}}},
        {"tasks",
         {{{"id", "src"}, {"pool", "a"}, {"seconds", 1}},
          {{"id", "left"}, {"pool", "b"}, {"seconds", 2}, {"after", {{{"task", "src"}, {"bytes", "15GB"}}}}},
          {{"id", "right"}, {"pool", "b"}, {"flops", 1e12}, {"after", {{{"task", "src"}, {"bytes", "30GB"}}}}},
          {{"id", "sink"},
           {"pool", "a"},
           {"seconds", 0.5},
           {"after", {"left", {{"task", "right"}, {"bytes", "1GB"}}}}}}}}}};
  const auto rows = run(CraftedCluster{}, {diamond});
  EXPECT_NEAR(rows.at("diamond").jct, 3.81 + 4e-6, 1e-6);
  EXPECT_EQ(rows.at("diamond").gpus, 3);
}

TEST_F(DagJobs, PreemptedDagStartsOverAndCpuWorkersHoldNoGpu) {
  // One GPU. The DAG loads for 5 s on a CPU worker, then runs 40 s and 45 s on
  // its GPU worker (90 s alone). A 10 s job arrives at t = 10: SRTF preempts
  // the DAG (80 s left), runs the short job until 20, then the DAG starts
  // over: 20 + 90 = 110.
  CraftedCluster one;
  one.gpus_per_node = 1;
  const nlohmann::json dag = {
      {"id", "dag"},
      {"submit", 0},
      {"dag",
       {{"pools", {{{"name", "gpu"}, {"workers", 1}}, {{"name", "io"}, {"workers", 2}, {"kind", "cpu"}}}},
        {"tasks",
         {{{"id", "load"}, {"pool", "io"}, {"seconds", 5}},
          {{"id", "a"}, {"pool", "gpu"}, {"seconds", 40}, {"after", {"load"}}},
          {{"id", "b"}, {"pool", "gpu"}, {"seconds", 45}, {"after", {"a"}}}}}}}};
  const auto rows = run(one, {dag, measured_job("short", 10, 1, 10)}, "srtf");
  EXPECT_EQ(rows.at("dag").gpus, 1);
  EXPECT_EQ(rows.at("dag").preemptions, 1);
  EXPECT_NEAR(rows.at("short").end, 20, 1e-6);
  EXPECT_NEAR(rows.at("dag").end, 110, 1e-6);
  // Busy GPU time: the DAG's first 5 s of task a, then 85 s, and the short job's 10 s.
  EXPECT_NEAR(read_summary(dir_ / "out")["gpu_utilization"]["busy_gpu_hours"].get<double>(), 100.0 / 3600, 1e-9);
}

TEST_F(DagJobs, CycleIsAnErrorNamingItsTasks) {
  const nlohmann::json cyclic = {{"id", "loop"},
                                 {"submit", 0},
                                 {"dag",
                                  {{"pools", {{{"name", "w"}, {"workers", 1}}}},
                                   {"tasks",
                                    {{{"id", "a"}, {"pool", "w"}, {"seconds", 1}, {"after", {"c"}}},
                                     {{"id", "b"}, {"pool", "w"}, {"seconds", 1}, {"after", {"a"}}},
                                     {{"id", "c"}, {"pool", "w"}, {"seconds", 1}, {"after", {"b"}}}}}}}};
  const GcsimRun result = run_simulation(dir_.write("cluster.json", CraftedCluster{}.to_json()),
                                         dir_.write("jobs.json", workload_json({cyclic})), dir_ / "out");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.err.find("jobs.json: jobs[0] (id 'loop'): field 'dag': cycle: "), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("a -> b -> c -> a"), std::string::npos) << result.err;
  EXPECT_TRUE(files_in(dir_ / "out").empty());
}

TEST_F(DagJobs, GpuCountMustMatchTheGpuWorkers) {
  auto job = frame_chain_job("frames", "pipelined");
  job["gpus"] = 2;
  const GcsimRun result = run_simulation(dir_.write("cluster.json", CraftedCluster{}.to_json()),
                                         dir_.write("jobs.json", workload_json({job})), dir_ / "out");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.err.find("field 'gpus': a DAG job holds one GPU per GPU worker: its pools have 4, 'gpus' says 2"),
            std::string::npos)
      << result.err;
}

}  // namespace
}  // namespace gcsim::testing
