// CPU node groups (no GPU) end to end: a node list's machines without GPUs
// kept by `gcsim trace cluster --cpu-nodes`, and a CSV trace whose rows of
// no GPU but cores replay as CPU jobs on any node with those cores free,
// while GPU jobs never land on the CPU node. Every start and end counted by
// hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A CPU node of 8 cores listed first, then a node of 2 V100M32 GPUs and 8 cores.
const char* const kNodes =
    "sn,cpu,memory,gpu,model\n"
    "c1,8,64,0,\n"
    "g1,8,64,2,V100M32\n";

// gpu-a (2 GPUs, 4 cores, 100 s) takes the GPU node at 0, 4 of its cores
// left. cpu-a (6 cores, 50 s) takes the CPU node, the first in order: 2 left
// there. cpu-b (4 cores) at 10 fits on the GPU node's 4: 10-40. cpu-c
// (4 cores) at 20 fits nowhere (2 and 0 free) and waits for cpu-b: 40-70 on
// the GPU node. gpu-b (1 GPU) at 30 finds no free GPU (the CPU node has
// none) until gpu-a ends: 100-110. "idle" asks neither GPUs nor cores.
const char* const kTrace =
    "id,submit,gpus,duration,cores\n"
    "gpu-a,0,2,100,4\n"
    "cpu-a,0,0,50,6\n"
    "cpu-b,10,0,30,4\n"
    "cpu-c,20,0,30,4\n"
    "gpu-b,30,1,10,\n"
    "idle,40,0,10,\n";

TEST(CpuNodes, ANodeListsCpuMachinesHoldCpuRowsOfATraceAndNoGpuJob) {
  ScratchDir dir;
  const GcsimRun made =
      run_gcsim({"trace", "cluster", dir.write("nodes.csv", kNodes), "--format", "nodes", "--map",
                 "model=model,gpus=gpu,cpu=cpu,memory=memory", "--cpu-nodes", "--out", dir / "cluster.json"});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  EXPECT_TRUE(has(made.out, "2 nodes with 2 GPUs in 2 node groups")) << made.out;
  EXPECT_TRUE(has(made.out, "1 CPU-only machines form CPU node groups")) << made.out;
  const nlohmann::json cluster = nlohmann::json::parse(read_text(dir / "cluster.json"));
  ASSERT_EQ(cluster["node_groups"].size(), 2u);
  EXPECT_EQ(cluster["node_groups"][0]["name"], "cpu-c8-m64");
  EXPECT_EQ(cluster["node_groups"][0]["gpus_per_node"], 0);
  EXPECT_FALSE(cluster["node_groups"][0].contains("gpu_type"));

  const GcsimRun run = run_simulation(dir / "cluster.json", "csv:" + dir.write("trace.csv", kTrace), dir / "out",
                                      {"--trace-opt", "map=id=id,submit=submit,gpus=gpus,duration=duration,cpu=cores",
                                       "--trace-opt", "gpu_type=V100M32"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(has(run.err, "1 rows skipped")) << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  ASSERT_EQ(jobs.size(), 5u);
  struct Expected {
    const char* id;
    double start, end;
    int gpus;
    const char* placement;
  };
  const std::string gpu_node = "v100m32-c8-m64-0";
  for (const Expected& e :
       {Expected{"gpu-a", 0, 100, 2, "v100m32-c8-m64-0:0;v100m32-c8-m64-0:1"},
        Expected{"cpu-a", 0, 50, 0, "cpu-c8-m64-0"}, Expected{"cpu-b", 10, 40, 0, "v100m32-c8-m64-0"},
        Expected{"cpu-c", 40, 70, 0, "v100m32-c8-m64-0"}, Expected{"gpu-b", 100, 110, 1, "v100m32-c8-m64-0:0"}}) {
    SCOPED_TRACE(e.id);
    const JobRow& row = jobs.at(e.id);
    EXPECT_DOUBLE_EQ(row.start, e.start);
    EXPECT_DOUBLE_EQ(row.end, e.end);
    EXPECT_EQ(row.gpus, e.gpus);
    EXPECT_EQ(row.placement, e.placement);
    EXPECT_EQ(row.state, "finished");
  }
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_EQ(summary["gpus"], 2);  // the CPU node counts no GPU
  EXPECT_EQ(summary["job_types"]["cpu"]["jobs"], 3);
  // GPU utilization counts GPUs alone: 2 x 100 + 1 x 10 GPU-seconds held over 110 s on 2 GPUs.
  EXPECT_NEAR(summary["gpu_utilization"]["allocated_share"].get<double>(), 210.0 / 220, 1e-9);
}

// Without --cpu-nodes the CPU machine is left out, as before, and said.
TEST(CpuNodes, ANodeListsCpuMachinesAreLeftOutUnlessKept) {
  ScratchDir dir;
  const GcsimRun made = run_gcsim({"trace", "cluster", dir.write("nodes.csv", kNodes), "--format", "nodes", "--map",
                                   "model=model,gpus=gpu,cpu=cpu,memory=memory", "--out", dir / "cluster.json"});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  EXPECT_TRUE(has(made.out, "1 nodes with 2 GPUs in 1 node groups")) << made.out;
  EXPECT_TRUE(has(made.out, "1 CPU-only machines are left out")) << made.out;
  const GcsimRun vc = run_gcsim({"trace", "cluster", dir.write("vcs.csv", "vc,node num\na,2\n"), "--format",
                                 "philly-vcs", "--cpu-nodes", "--out", dir / "vc.json"});
  EXPECT_EQ(vc.exit_code, 2);
  EXPECT_TRUE(has(vc.err, "'--cpu-nodes' applies to --format nodes")) << vc.err;
}

}  // namespace
}  // namespace gcsim::testing
