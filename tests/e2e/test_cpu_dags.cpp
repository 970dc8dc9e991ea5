// DAG jobs whose pools are all CPU pools (Ray's task graphs on a CPU
// cluster) through `gcsim run`: their workers hold a core each on any nodes
// with cores free, each task runs on its worker's node, data on an edge
// crosses the network between the nodes that ran its two tasks, and a mixed
// DAG's CPU workers stand on the nodes of its GPUs. Every figure counted by
// hand; DAG jobs run the same actors at both fidelities, which both runs check.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// One pool of `workers` CPU workers and independent tasks of these seconds, in this order.
nlohmann::json independent_tasks(const std::string& id, int workers, const std::vector<double>& seconds) {
  nlohmann::json tasks = nlohmann::json::array();
  for (std::size_t t = 0; t < seconds.size(); ++t)
    tasks.push_back({{"id", "t" + std::to_string(t + 1)}, {"pool", "w"}, {"seconds", seconds[t]}});
  return {{"id", id},
          {"submit", 0},
          {"dag", {{"pools", {{{"name", "w"}, {"workers", workers}, {"kind", "cpu"}}}}, {"tasks", tasks}}}};
}

// A CPU cluster: `nodes` nodes of `cores` cores, no GPU at all.
CraftedCluster cpu_cluster(int nodes, int cores) {
  CraftedCluster cluster;
  cluster.nodes = 0;
  cluster.cpu_nodes = nodes;
  cluster.cpu_node_cores = cores;
  return cluster;
}

class CpuDags : public ::testing::TestWithParam<std::string> {
 protected:
  std::map<std::string, JobRow> run(const CraftedCluster& cluster, const std::vector<nlohmann::json>& jobs,
                                    const std::vector<std::string>& extra = {}) {
    std::vector<std::string> options = {"--fidelity", GetParam()};
    options.insert(options.end(), extra.begin(), extra.end());
    const GcsimRun result = run_simulation(dir_.write("cluster.json", cluster.to_json()),
                                           dir_.write("jobs.json", workload_json(jobs)), dir_ / "out", options);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return read_jobs_csv(dir_ / "out");
  }
  ScratchDir dir_;
};

// 84 workers of one core over three nodes of 28 cores: the first node takes
// 28, the next 28, the last 28. 84 tasks of 1 s run at once: 1 s. A CPU job
// of one core submitted with it finds every core taken and starts at 1 s.
TEST_P(CpuDags, EightyFourWorkersSpanThreeNodesOfTwentyEightCores) {
  const std::vector<double> seconds(84, 1.0);
  const nlohmann::json etl = {{"id", "etl"}, {"submit", 0}, {"cpu_cores", 1}, {"cpu", {{"seconds", 5}}}};
  const auto rows = run(cpu_cluster(3, 28), {independent_tasks("ray", 84, seconds), etl});
  const JobRow& ray = rows.at("ray");
  EXPECT_EQ(ray.gpus, 0);
  EXPECT_EQ(ray.placement, "c-0;c-1;c-2");
  EXPECT_DOUBLE_EQ(ray.start, 0);
  EXPECT_NEAR(ray.end, 1, 1e-9);
  EXPECT_EQ(ray.state, "finished");
  EXPECT_NEAR(rows.at("etl").start, 1, 1e-9);
  EXPECT_NEAR(rows.at("etl").end, 6, 1e-9);
  const nlohmann::json summary = read_summary(dir_ / "out");
  EXPECT_EQ(summary["job_types"]["dag"]["jobs"], 1);
  EXPECT_EQ(summary["gpus"], 0);  // a cluster of CPU nodes alone
}

// Independent tasks of 1..8 s, ready at the start in file order: an idle
// worker takes the head of the queue, one that finishes takes the next.
// - 1 worker: 1 + 2 + ... + 8 = 36 s.
// - 4 workers: at 0 they take 1, 2, 3, 4 s; the first free (at 1) takes 5
//   (ends 6), at 2 the next takes 6 (ends 8), at 3 one takes 7 (ends 10), at
//   4 one takes 8 (ends 12): 12 s, a speedup of 36 / 12 = 3 where 4 workers
//   could give 4 (9 s): the load imbalance of the order.
// - the same tasks longest first on 4 workers: 8, 7, 6, 5 at 0, then 4 at 5,
//   3 at 6, 2 at 7, 1 at 8: every worker ends at 9 s, a speedup of 4.
// - 8 or more workers: every task at once, 8 s (the longest), a speedup of 4.5.
TEST_P(CpuDags, IndependentTasksOfGrowingSizeLeaveTheSpeedupLoadImbalanceAllows) {
  const std::vector<double> growing = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<double> shrinking = {8, 7, 6, 5, 4, 3, 2, 1};
  // 1 + 4 + 4 + 12 = 21 workers on 24 cores: all start at once.
  const auto rows = run(cpu_cluster(3, 8), {independent_tasks("one", 1, growing), independent_tasks("four", 4, growing),
                                            independent_tasks("four-longest-first", 4, shrinking),
                                            independent_tasks("many", 12, growing)});
  EXPECT_NEAR(rows.at("one").jct, 36, 1e-9);
  EXPECT_NEAR(rows.at("four").jct, 12, 1e-9);
  EXPECT_NEAR(rows.at("four-longest-first").jct, 9, 1e-9);
  EXPECT_NEAR(rows.at("many").jct, 8, 1e-9);
  EXPECT_EQ(rows.at("four-longest-first").placement, "c-0;c-1");  // 3 cores left on c-0, 1 more on c-1
  EXPECT_NEAR(rows.at("one").uncontended, 36, 1e-9);              // the list schedule says the same
  EXPECT_NEAR(rows.at("four").uncontended, 12, 1e-9);
}

// A chain of two tasks, 2 s then 3 s, whose edge carries 1 GB. On nodes of
// one core the two workers sit on two nodes: the data crosses the first
// node's NIC and the second's (10 GB/s each, 5 us each) after the first task:
// 2 + 10 us + 1e9 / 10e9 + 3 = 5.1 s + 10 us. On a node of two cores both
// workers sit on it and nothing is sent: 5 s.
nlohmann::json chain(const std::string& id) {
  return {
      {"id", id},
      {"submit", 0},
      {"dag",
       {{"pools", {{{"name", "a"}, {"workers", 1}, {"kind", "cpu"}}, {{"name", "b"}, {"workers", 1}, {"kind", "cpu"}}}},
        {"tasks",
         {{{"id", "produce"}, {"pool", "a"}, {"seconds", 2}},
          {{"id", "consume"}, {"pool", "b"}, {"seconds", 3}, {"after", {{{"task", "produce"}, {"bytes", "1GB"}}}}}}}}}};
}

TEST_P(CpuDags, DataOnAnEdgeCrossesTheNicsBetweenTheNodesThatRanItsTasks) {
  const auto apart = run(cpu_cluster(2, 1), {chain("chain")});
  EXPECT_EQ(apart.at("chain").placement, "c-0;c-1");
  EXPECT_NEAR(apart.at("chain").jct, 5.1 + 10e-6, 1e-9);
  const auto together = run(cpu_cluster(2, 2), {chain("chain")});
  EXPECT_EQ(together.at("chain").placement, "c-0");
  EXPECT_NEAR(together.at("chain").jct, 5, 1e-9);
}

// Two nodes of two cores, a DAG of four workers running four tasks of 10 s.
// The second node fails at 5 s for 10 s: the DAG stops on both nodes, waits
// for its four cores (two are down) and starts over at 15 s: it ends at 25 s.
TEST_P(CpuDags, ANodeFailureStartsTheDagOverOnceItsCoresAreUp) {
  const std::string failures =
      dir_.write("failures.json", R"({"failures": [{"node": "c-1", "at": 5, "duration": 10}]})");
  const auto rows =
      run(cpu_cluster(2, 2), {independent_tasks("dag", 4, {10, 10, 10, 10})}, {"--node-failures", failures});
  EXPECT_EQ(rows.at("dag").preemptions, 1);
  EXPECT_NEAR(rows.at("dag").end, 25, 1e-9);
  EXPECT_EQ(rows.at("dag").state, "finished");
}

INSTANTIATE_TEST_SUITE_P(Fidelities, CpuDags, ::testing::Values("job", "iteration"));

// A mixed DAG on two nodes of one GPU each: its CPU workers are dealt over
// its GPUs' nodes (CPU worker i at the node of GPU i mod 2), no longer all at
// the first GPU. "near" (1 s) goes to CPU worker 0 on n-0, "far" (2 s) to CPU
// worker 1 on n-1; "train" waits for far's 10 GB and runs 1 s on the GPU
// worker that waited first, GPU worker 0 on n-0. The data crosses n-1's NIC,
// n-0's NIC and GPU 0's port (5 + 5 + 1 us), at the NICs' 10 GB/s:
// 2 + 11 us + 1 + 1 = 4 s + 11 us. With every CPU worker on GPU 0's host,
// "far" would have run where "train" runs and sent nothing: 3 s.
TEST(MixedDags, CpuWorkersStandOnTheNodesOfTheJobsGpus) {
  ScratchDir dir;
  CraftedCluster cluster;
  cluster.nodes = 2;
  cluster.gpus_per_node = 1;
  const nlohmann::json dag = {
      {"id", "mixed"},
      {"submit", 0},
      {"dag",
       {{"pools", {{{"name", "gpu"}, {"workers", 2}}, {{"name", "io"}, {"workers", 2}, {"kind", "cpu"}}}},
        {"tasks",
         {{{"id", "near"}, {"pool", "io"}, {"seconds", 1}},
          {{"id", "far"}, {"pool", "io"}, {"seconds", 2}},
          {{"id", "train"},
           {"pool", "gpu"},
           {"seconds", 1},
           {"after", {"near", {{"task", "far"}, {"bytes", "10GB"}}}}}}}}}};
  const GcsimRun result = run_simulation(dir.write("cluster.json", cluster.to_json()),
                                         dir.write("jobs.json", workload_json({dag})), dir / "out");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const JobRow row = read_jobs_csv(dir / "out").at("mixed");
  EXPECT_EQ(row.gpus, 2);
  EXPECT_NEAR(row.jct, 4 + 11e-6, 1e-9);
}

TEST(CpuDagInput, BadCpuDagsAreNamed) {
  ScratchDir dir;
  const std::string cluster = dir.write("cluster.json", cpu_cluster(3, 28).to_json());
  auto rejected = [&](const nlohmann::json& job, const std::vector<std::string>& parts) {
    expect_job_rejected(dir, cluster, job, parts);
  };
  // 85 workers of one core on 84 cores.
  rejected(independent_tasks("big", 85, std::vector<double>(85, 1.0)),
           {"jobs[0] (id 'big')", "cpu_cores", "85 CPU workers", "can hold the cores of only 84"});
  // Three cores a worker: 9 a node, 27 of its 42 workers.
  nlohmann::json wide = independent_tasks("wide", 42, std::vector<double>(42, 1.0));
  wide["cpu_cores"] = 126;
  rejected(wide, {"id 'wide'", "cpu_cores", "126 cores split over its 42 CPU workers", "only 27 of them"});
  nlohmann::json shared = independent_tasks("shared", 2, {1, 1});
  shared["gpu_share"] = 0.5;
  rejected(shared, {"id 'shared'", "gpu_share", "holds no GPU"});
  nlohmann::json gpus = independent_tasks("gpus", 2, {1, 1});
  gpus["gpus"] = 1;
  rejected(gpus, {"id 'gpus'", "gpus", "its pools have 0"});
  // A GPU job on a cluster of no GPU.
  rejected(measured_job("train", 0, 1, 10), {"id 'train'", "gpus", "has 0"});
}

}  // namespace
}  // namespace gcsim::testing
