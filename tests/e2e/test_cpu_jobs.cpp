// CPU-only jobs (data preparation) beside GPU jobs, counted by hand: two
// nodes of 8 GPUs and 16 cores under fifo. GPU jobs are placed first at each
// instant; CPU jobs then take the first node whose cores and memory are free.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

nlohmann::json cpu_job(const std::string& id, double submit, int cores, const nlohmann::json& run) {
  return {{"id", id}, {"submit", submit}, {"cpu_cores", cores}, {"cpu", run}};
}

nlohmann::json with_cores(nlohmann::json job, int cores) {
  job["cpu_cores"] = cores;
  return job;
}

// t=0: gpu-a (8 GPUs, 8 cores) takes n-0; prep-1 (12 cores) does not fit
// beside it and takes n-1; prep-2 (8 cores, 400 core-seconds: 50 s) takes
// the 8 left on n-0. t=10: prep-3 (10 cores) fits nowhere. t=20: gpu-b needs
// n-1's 16 cores, held by prep-1 until 50 s. t=50: gpu-b starts on n-1 first,
// so prep-3 still fits nowhere (8 free on n-0, none on n-1) until gpu-a ends
// at 100 s: it runs 100-130 on n-0. train waits for prep-3: submitted at 130,
// it starts at once on n-0 and ends at 150.
TEST(CpuJobs, TakeTheCoresGpuJobsLeaveAndHoldThemFromGpuJobs) {
  ScratchDir dir;
  CraftedCluster cluster;
  cluster.nodes = 2;
  const auto cluster_file = dir.write("cluster.json", cluster.to_json());
  nlohmann::json train = with_cores(measured_job("train", 0, 8, 20), 8);
  train["after"] = {"prep-3"};
  const auto workload = dir.write(
      "jobs.json",
      workload_json({with_cores(measured_job("gpu-a", 0, 8, 100), 8), cpu_job("prep-1", 0, 12, {{"seconds", 50}}),
                     cpu_job("prep-2", 0, 8, {{"core_seconds", 400}}), cpu_job("prep-3", 10, 10, {{"seconds", 30}}),
                     with_cores(measured_job("gpu-b", 20, 8, 100), 16), train}));
  const GcsimRun run = run_simulation(cluster_file, workload, dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  struct Expected {
    const char* id;
    double start, end;
    const char* node;
  };
  for (const Expected& e :
       {Expected{"prep-1", 0, 50, "n-1"}, Expected{"prep-2", 0, 50, "n-0"}, Expected{"prep-3", 100, 130, "n-0"}}) {
    const JobRow& row = jobs.at(e.id);
    EXPECT_DOUBLE_EQ(row.start, e.start) << e.id;
    EXPECT_DOUBLE_EQ(row.end, e.end) << e.id;
    EXPECT_EQ(row.placement, e.node) << e.id;
    EXPECT_EQ(row.gpus, 0) << e.id;
    EXPECT_EQ(row.state, "finished") << e.id;
  }
  EXPECT_DOUBLE_EQ(jobs.at("prep-3").wait, 90);
  EXPECT_DOUBLE_EQ(jobs.at("gpu-b").start, 50);
  EXPECT_DOUBLE_EQ(jobs.at("train").submit, 130);
  EXPECT_DOUBLE_EQ(jobs.at("train").start, 130);
  EXPECT_DOUBLE_EQ(jobs.at("train").end, 150);

  // Their own line in the figures per job type: waits 0, 0 and 90 s.
  const nlohmann::json cpu = read_summary(dir / "out")["job_types"]["cpu"];
  EXPECT_EQ(cpu["jobs"], 3);
  EXPECT_EQ(cpu["finished"], 3);
  EXPECT_DOUBLE_EQ(cpu["queueing_delay_s"]["mean"].get<double>(), 30);
}

// A CPU job on a node that fails starts over once the node is back: 40 s of
// its 100 s are lost at 40 s, the node is down until 60 s, it ends at 160 s.
TEST(CpuJobs, StartOverWhenTheirNodeFails) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const auto workload = dir.write("jobs.json", workload_json({cpu_job("prep", 0, 4, {{"seconds", 100}})}));
  const auto failures = dir.write("failures.json", R"({"failures": [{"node": "n-0", "at": 40, "duration": 20}]})");
  const GcsimRun run = run_simulation(cluster, workload, dir / "out", {"--node-failures", failures});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JobRow prep = read_jobs_csv(dir / "out").at("prep");
  EXPECT_DOUBLE_EQ(prep.end, 160);
  EXPECT_EQ(prep.preemptions, 1);
  EXPECT_EQ(prep.state, "finished");
}

TEST(CpuJobs, BadCpuJobsAreNamed) {
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  auto rejected = [&](const nlohmann::json& job, const std::vector<std::string>& parts) {
    expect_job_rejected(dir, cluster, job, parts);
  };
  rejected(cpu_job("p", 0, 0, {{"seconds", 10}}), {"jobs[0] (id 'p')", "cpu_cores", "at least 1"});
  rejected(cpu_job("p", 0, 17, {{"seconds", 10}}), {"jobs.json", "id 'p'", "cpu_cores", "largest node", "has 16"});
  rejected(cpu_job("p", 0, 4, {{"seconds", 10}, {"core_seconds", 40}}), {"id 'p'", "seconds", "exactly one"});
  rejected(cpu_job("p", 0, 4, {{"seconds", -1}}), {"id 'p'", "seconds"});
  nlohmann::json with_gpus = cpu_job("p", 0, 4, {{"seconds", 10}});
  with_gpus["gpus"] = 2;
  rejected(with_gpus, {"id 'p'", "gpus", "holds no GPU"});
  nlohmann::json with_share = cpu_job("p", 0, 4, {{"seconds", 10}});
  with_share["gpu_share"] = 0.5;
  rejected(with_share, {"id 'p'", "gpu_share"});
  nlohmann::json memory = cpu_job("p", 0, 4, {{"seconds", 10}});
  memory["memory"] = "300GB";
  rejected(memory, {"id 'p'", "memory", "no node"});
}

}  // namespace
}  // namespace gcsim::testing
