// `gcsim run --timeline`: the schedule as a Chrome trace. Every event has
// the Trace Event Format's required fields for its phase; the slices are the
// jobs' runs, counted by hand on one GPU: under srtf, "long" (100 s) runs
// from 0, is preempted at 20 s by "short" (10 s), which ends at 30 s, and
// runs again from 30 s to 130 s (no checkpoint: from the start).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// The fields Perfetto and chrome://tracing need for each phase used.
void expect_well_formed(const nlohmann::json& trace) {
  ASSERT_TRUE(trace.contains("traceEvents") && trace["traceEvents"].is_array()) << trace.dump();
  for (const nlohmann::json& e : trace["traceEvents"]) {
    SCOPED_TRACE(e.dump());
    ASSERT_TRUE(e["name"].is_string());
    ASSERT_TRUE(e["ph"].is_string());
    EXPECT_TRUE(e["pid"].is_number_integer());
    EXPECT_TRUE(e["tid"].is_number_integer());
    const std::string ph = e["ph"];
    EXPECT_TRUE(std::set<std::string>({"M", "X", "i", "C"}).count(ph));
    if (ph == "M") {
      EXPECT_TRUE(e["args"]["name"].is_string());
      continue;
    }
    EXPECT_TRUE(e["ts"].is_number());
    EXPECT_GE(e["ts"].get<double>(), 0);
    if (ph == "X") {
      EXPECT_GE(e["dur"].get<double>(), 0);
    }
    if (ph == "i") {
      EXPECT_TRUE(std::set<std::string>({"g", "p", "t"}).count(e["s"].get<std::string>()));
    }
    if (ph == "C") {
      for (const auto& [name, value] : e["args"].items()) EXPECT_TRUE(value.is_number()) << name;
    }
  }
}

std::vector<nlohmann::json> events_named(const nlohmann::json& trace, const std::string& name, const std::string& ph) {
  std::vector<nlohmann::json> found;
  for (const nlohmann::json& e : trace["traceEvents"])
    if (e["name"] == name && e["ph"] == ph) found.push_back(e);
  return found;
}

TEST(TimelineTrace, ASliceForEachRunAndAnInstantForThePreemption) {
  ScratchDir dir;
  CraftedCluster one_gpu;
  one_gpu.gpus_per_node = 1;
  const auto cluster = dir.write("cluster.json", one_gpu.to_json());
  const auto workload =
      dir.write("jobs.json", workload_json({measured_job("long", 0, 1, 100), measured_job("short", 20, 1, 10)}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out", {"--timeline", dir / "trace.json"}, "srtf");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json trace = nlohmann::json::parse(read_text(dir / "trace.json"));
  expect_well_formed(trace);
  const std::vector<nlohmann::json> runs = events_named(trace, "long", "X");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_DOUBLE_EQ(runs[0]["ts"].get<double>(), 0);
  EXPECT_DOUBLE_EQ(runs[0]["dur"].get<double>(), 20e6);
  EXPECT_EQ(runs[0]["args"]["end"], "preempted");
  EXPECT_DOUBLE_EQ(runs[1]["ts"].get<double>(), 30e6);
  EXPECT_DOUBLE_EQ(runs[1]["dur"].get<double>(), 100e6);
  EXPECT_EQ(runs[1]["args"]["end"], "finished");
  EXPECT_EQ(runs[0]["tid"], runs[1]["tid"]);
  const std::vector<nlohmann::json> preempted = events_named(trace, "preempted long", "i");
  ASSERT_EQ(preempted.size(), 1u);
  EXPECT_DOUBLE_EQ(preempted[0]["ts"].get<double>(), 20e6);
  // timeline.csv's counts as counters: "long" waits from 20 to 30 s.
  std::vector<std::pair<double, int>> queued;
  for (const nlohmann::json& e : events_named(trace, "queued jobs", "C"))
    queued.emplace_back(e["ts"].get<double>(), e["args"]["queued"].get<int>());
  const std::vector<std::pair<double, int>> expected = {{0, 0}, {20e6, 1}, {30e6, 0}, {130e6, 0}};
  EXPECT_EQ(queued, expected);
  // The GPU's track is named as jobs.csv names it.
  bool named = false;
  for (const nlohmann::json& e : events_named(trace, "thread_name", "M"))
    named = named || (e["tid"] == runs[0]["tid"] && e["pid"] == 1 && e["args"]["name"] == "n-0:0");
  EXPECT_TRUE(named);
}

TEST(TimelineTrace, TheDeadlockIsAnInstantNamingItsJobsAndCpuJobsHaveNodeTracks) {
  ScratchDir dir;
  const GcsimRun deadlocked =
      run_simulation(scenario("clusters/node-4gpu-pcie.json"), scenario("workloads/gang-deadlock.json"), dir / "out",
                     {"--timeline", dir / "deadlock.json"}, "piecemeal");
  ASSERT_EQ(deadlocked.exit_code, 5) << deadlocked.err;
  const nlohmann::json trace = nlohmann::json::parse(read_text(dir / "deadlock.json"));
  expect_well_formed(trace);
  const std::vector<nlohmann::json> deadlock = events_named(trace, "deadlock", "i");
  ASSERT_EQ(deadlock.size(), 1u);
  EXPECT_EQ(deadlock[0]["args"]["jobs"].size(), 2u);

  CraftedCluster cluster;
  const auto cluster_file = dir.write("cluster.json", cluster.to_json());
  const auto workload = dir.write(
      "cpu.json", workload_json({{{"id", "prep"}, {"submit", 5}, {"cpu_cores", 4}, {"cpu", {{"seconds", 60}}}}}));
  ASSERT_EQ(run_simulation(cluster_file, workload, dir / "cpu-out", {"--timeline", dir / "cpu.trace.json"}).exit_code,
            0);
  const nlohmann::json cpu = nlohmann::json::parse(read_text(dir / "cpu.trace.json"));
  expect_well_formed(cpu);
  const std::vector<nlohmann::json> prep = events_named(cpu, "prep", "X");
  ASSERT_EQ(prep.size(), 1u);
  EXPECT_DOUBLE_EQ(prep[0]["ts"].get<double>(), 5e6);
  EXPECT_DOUBLE_EQ(prep[0]["dur"].get<double>(), 60e6);
  EXPECT_EQ(prep[0]["pid"], 2);

  // A DAG of 4 CPU workers on nodes of 2 cores: a slice on the track of each node it holds.
  CraftedCluster cpus;
  cpus.nodes = 0;
  cpus.cpu_nodes = 3;
  cpus.cpu_node_cores = 2;
  const nlohmann::json dag = nlohmann::json::parse(R"({"id": "ray", "submit": 0, "dag": {
      "pools": [{"name": "w", "workers": 4, "kind": "cpu"}],
      "tasks": [{"id": "a", "pool": "w", "seconds": 3}]}})");
  ASSERT_EQ(run_simulation(dir.write("cpus.json", cpus.to_json()), dir.write("dag.json", workload_json({dag})),
                           dir / "dag-out", {"--timeline", dir / "dag.trace.json"})
                .exit_code,
            0);
  const nlohmann::json spread = nlohmann::json::parse(read_text(dir / "dag.trace.json"));
  expect_well_formed(spread);
  const std::vector<nlohmann::json> ray = events_named(spread, "ray", "X");
  ASSERT_EQ(ray.size(), 2u);  // c-0 and c-1, two workers each
  EXPECT_EQ(ray[0]["tid"], 0);
  EXPECT_EQ(ray[1]["tid"], 1);
  EXPECT_DOUBLE_EQ(ray[1]["dur"].get<double>(), 3e6);

  // Without --timeline, the usual outputs alone.
  ASSERT_EQ(run_simulation(cluster_file, workload, dir / "plain").exit_code, 0);
  std::vector<std::string> plain = files_in(dir / "plain");
  std::sort(plain.begin(), plain.end());
  EXPECT_EQ(plain, (std::vector<std::string>{"jobs.csv", "summary.json", "timeline.csv"}));
}

}  // namespace
}  // namespace gcsim::testing
