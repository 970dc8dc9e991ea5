// A job fits a node only where its GPUs, its host cores and its host memory
// all fit (cores and memory split over its GPUs), on GPU types it allows and
// on one node when it asks for that; a job no node can ever hold is a located
// input error. Crafted nodes of 4 GPUs, 16 cores and 256 GB; every time is
// counted by hand in the comments.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

nlohmann::json with(nlohmann::json job, const std::string& field, nlohmann::json value) {
  job[field] = std::move(value);
  return job;
}

struct NodeCase {
  ScratchDir dir;
  GcsimRun run(int nodes, const std::vector<nlohmann::json>& jobs, const std::string& policy = "fifo") const {
    CraftedCluster c;
    c.nodes = nodes;
    c.gpus_per_node = 4;
    const std::string cluster = dir.write("cluster.json", c.to_json());
    const std::string workload = dir.write("workload.json", workload_json(jobs));
    return run_gcsim(
        {"run", "--cluster", cluster, "--workload", workload, "--policy", policy, "--out", dir / "out", "--quiet"});
  }
};

TEST(NodeResources, ASecondTenCoreJobWaitsOnASixteenCoreNode) {
  // One node: a (10 cores, 100 s) starts at 0; b (10 cores) would make 20 of
  // 16, so it waits for a's end: 100 to 200, though 3 GPUs are free.
  for (const char* policy :
       {"fifo", "fifo-backfill", "gang", "drf", "srtf", "tiresias", "capacity", "piecemeal", "incremental"}) {
    SCOPED_TRACE(policy);
    const NodeCase c;
    const GcsimRun run = c.run(
        1, {with(measured_job("a", 0, 1, 100), "cpu_cores", 10), with(measured_job("b", 0, 1, 100), "cpu_cores", 10)},
        policy);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto jobs = read_jobs_csv(c.dir / "out");
    EXPECT_NEAR(jobs.at("a").start, 0, 1e-9);
    EXPECT_NEAR(jobs.at("b").start, 100, 1e-6);
  }
}

TEST(NodeResources, OnTwoNodesTheSecondGoesToTheOtherNode) {
  const NodeCase c;
  const GcsimRun run = c.run(
      2, {with(measured_job("a", 0, 1, 100), "cpu_cores", 10), with(measured_job("b", 0, 1, 100), "cpu_cores", 10)});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(c.dir / "out");
  EXPECT_NEAR(jobs.at("b").start, 0, 1e-9);
  EXPECT_NE(jobs.at("a").placement.substr(0, jobs.at("a").placement.find(':')),
            jobs.at("b").placement.substr(0, jobs.at("b").placement.find(':')));
}

TEST(NodeResources, HostMemoryIsSplitOverTheJobsGpus) {
  // One node of 256 GB: a holds 200 GB for its 2 GPUs; b's 100 GB would make
  // 300 GB, so b waits for a's end at 50 though 2 GPUs are free.
  const NodeCase c;
  const GcsimRun run = c.run(
      1, {with(measured_job("a", 0, 2, 50), "memory", "200GB"), with(measured_job("b", 0, 2, 50), "memory", "100GB")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NEAR(read_jobs_csv(c.dir / "out").at("b").start, 50, 1e-6);
}

TEST(NodeResources, AJobSplitsItsCoresOverTheNodesItSpans) {
  // big: 6 GPUs and 18 cores on two nodes of 4 GPUs, packed 4 + 2: 12 and 6
  // cores, leaving 4 and 10 of the nodes' 16. A 1-GPU job of 10 cores fits on
  // the second node at 0; one of 11 fits on neither and waits for big (100).
  for (const int cores : {10, 11}) {
    SCOPED_TRACE(cores);
    const NodeCase c;
    const GcsimRun run = c.run(2, {with(measured_job("big", 0, 6, 100), "cpu_cores", 18),
                                   with(measured_job("small", 0, 1, 10), "cpu_cores", cores)});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NEAR(read_jobs_csv(c.dir / "out").at("small").start, cores == 10 ? 0 : 100, 1e-6);
  }
}

TEST(NodeResources, ASingleNodeJobWaitsForOneNodeToHoldIt) {
  // a (3 GPUs, 100 s) and b (3 GPUs, 50 s) at 0 take a node each, leaving one
  // GPU free on each. d (2 GPUs) at 1 runs at once across the two nodes, but
  // single_node it waits for b's node to empty at 50.
  for (const bool single : {false, true}) {
    SCOPED_TRACE(single);
    const NodeCase c;
    const GcsimRun run = c.run(2, {measured_job("a", 0, 3, 100), measured_job("b", 0, 3, 50),
                                   with(measured_job("d", 1, 2, 10), "single_node", single)});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NEAR(read_jobs_csv(c.dir / "out").at("d").start, single ? 50 : 1, 1e-6);
  }
}

TEST(NodeResources, AJobRunsOnlyOnTheGpuTypesItAllows) {
  // hetero-2types: two 8-V100 nodes (dgx1-*) and two 4-K80 nodes (k80-*).
  // Packed, a 4-GPU job goes to the fullest node that holds it, a K80 node;
  // allowed only V100s it goes to a V100 node.
  const ScratchDir dir;
  const std::string workload =
      dir.write("w2.json", workload_json({with(with(measured_job("k", 0, 4, 10), "gpu_types", {"V100"}), "duration",
                                               {{"seconds", 10}, {"gpu_type", "V100"}}),
                                          with(with(measured_job("wide", 0, 13, 10), "gpu_types", {"V100"}), "duration",
                                               {{"seconds", 10}, {"gpu_type", "V100"}})}));
  const GcsimRun ok = run_gcsim({"run", "--cluster", scenario("clusters/hetero-2types.json"), "--workload", workload,
                                 "--policy", "fifo", "--out", dir / "out2", "--quiet"});
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  const auto jobs = read_jobs_csv(dir / "out2");
  EXPECT_EQ(jobs.at("k").placement.rfind("dgx1", 0), 0u) << jobs.at("k").placement;
  EXPECT_EQ(jobs.at("k").placement.find("k80"), std::string::npos) << jobs.at("k").placement;
  // wide (13 V100s) waits for k: 4 + 13 > 16 V100s, though 20 GPUs are free; it
  // starts at 10, on V100s only.
  EXPECT_NEAR(jobs.at("wide").start, 10, 1e-6);
  EXPECT_EQ(jobs.at("wide").placement.find("k80"), std::string::npos) << jobs.at("wide").placement;
}

TEST(NodeResources, ImpossibleJobsAreLocatedErrors) {
  const struct {
    const char* name;
    nlohmann::json job;
    const char* field;
  } cases[] = {
      {"cores", with(measured_job("fat", 0, 1, 10), "cpu_cores", 25), "cpu_cores"},
      {"memory", with(measured_job("fat", 0, 1, 10), "memory", "300GB"), "memory"},
      {"single node", with(measured_job("wide", 0, 8, 10), "single_node", true), "gpus"},
      {"unknown type", with(measured_job("picky", 0, 1, 10), "gpu_types", {"H100"}), "gpu_types"},
  };
  for (const auto& k : cases) {
    SCOPED_TRACE(k.name);
    const NodeCase c;
    const GcsimRun run = c.run(2, {measured_job("ok", 0, 1, 10), k.job});
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_NE(run.err.find("workload.json"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(k.job["id"].get<std::string>()), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(std::string("'") + k.field + "'"), std::string::npos) << run.err;
    EXPECT_TRUE(files_in(c.dir / "out").empty());
  }
}

}  // namespace
}  // namespace gcsim::testing
