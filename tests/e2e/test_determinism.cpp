// The same inputs and seed give byte-identical outputs: run after run,
// whatever the output directory, whatever the order compare runs the
// policies in, and whatever a sweep's parallelism (--jobs, MPI ranks).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

TEST(Determinism, RepeatedRunsWriteIdenticalFiles) {
  for (const std::string fidelity : {"job", "iteration"}) {
    SCOPED_TRACE(fidelity);
    ScratchDir dir;
    for (const std::string run : {"first", "second"}) {
      const GcsimRun result = run_simulation(scenario("clusters/rack-32gpu.json"), scenario("workloads/default.json"),
                                             dir / run, {"--seed", "7", "--fidelity", fidelity, "--no-wall-time"});
      ASSERT_EQ(result.exit_code, 0) << result.err;
    }
    for (const std::string file : {"summary.json", "jobs.csv", "timeline.csv"}) {
      const std::string first = read_text(dir / ("first/" + file));
      EXPECT_FALSE(first.empty()) << file;
      EXPECT_EQ(first, read_text(dir / ("second/" + file))) << file;
    }
  }
}

TEST(Determinism, OnlyWallTimeDiffersWhenItIsReported) {
  ScratchDir dir;
  for (const std::string run : {"first", "second"})
    ASSERT_EQ(
        run_simulation(scenario("clusters/rack-32gpu.json"), scenario("workloads/default.json"), dir / run).exit_code,
        0);
  nlohmann::json first = read_summary(dir / "first"), second = read_summary(dir / "second");
  ASSERT_TRUE(first.contains("wall_time_s"));
  first.erase("wall_time_s");
  second.erase("wall_time_s");
  EXPECT_EQ(first, second);
  EXPECT_EQ(read_text(dir / "first/jobs.csv"), read_text(dir / "second/jobs.csv"));
}

// Every regular file under `dir`, by its path relative to `dir`, with its content.
std::map<std::string, std::string> tree_of(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.is_regular_file())
      files[std::filesystem::relative(entry.path(), dir).string()] = read_text(entry.path().string());
  return files;
}

void expect_same_trees(const std::map<std::string, std::string>& a, const std::map<std::string, std::string>& b) {
  std::vector<std::string> names_a, names_b;
  for (const auto& [name, content] : a) names_a.push_back(name);
  for (const auto& [name, content] : b) names_b.push_back(name);
  EXPECT_EQ(names_a, names_b);
  for (const auto& [name, content] : a) {
    const auto other = b.find(name);
    if (other != b.end()) {
      EXPECT_TRUE(content == other->second) << name << " differs";
    }
  }
}

TEST(Determinism, TheOutputDirectoryChangesNoOutput) {
  ScratchDir dir;
  const std::vector<std::string> flags{"--seed", "7", "--no-wall-time"};
  const std::string cluster = scenario("clusters/rack-32gpu.json"), workload = scenario("workloads/default.json");
  ASSERT_EQ(run_simulation(cluster, workload, dir / "out", flags).exit_code, 0);
  ASSERT_EQ(run_simulation(cluster, workload, dir / "a/much/deeper/directory with spaces", flags).exit_code, 0);
  const auto first = tree_of(dir / "out");
  ASSERT_EQ(first.size(), 3u);
  expect_same_trees(first, tree_of(dir / "a/much/deeper/directory with spaces"));
}

// The lines of a text, sorted.
std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST(Determinism, ComparePolicyOrderChangesNoRunsOutputs) {
  ScratchDir dir;
  for (const std::string order : {"fifo,gang,srtf", "srtf,fifo,gang"}) {
    const GcsimRun run = run_gcsim({"compare", "--policies", order, "--cluster", scenario("clusters/rack-32gpu.json"),
                                    "--workload", scenario("workloads/default.json"), "--seed", "3", "--out",
                                    dir / order, "--plots", "no", "--no-wall-time", "--quiet"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  const auto first = tree_of(dir / "fifo,gang,srtf/runs");
  ASSERT_EQ(first.size(), 3u * 3u);
  expect_same_trees(first, tree_of(dir / "srtf,fifo,gang/runs"));
  // The table has the same rows, in the order the policies were given.
  const std::string table = read_text(dir / "fifo,gang,srtf/comparison.csv");
  EXPECT_NE(table, read_text(dir / "srtf,fifo,gang/comparison.csv"));
  EXPECT_EQ(sorted_lines(table), sorted_lines(read_text(dir / "srtf,fifo,gang/comparison.csv")));
}

// 3 policies x 2 seeds of the default workload.
std::string sweep_spec(const ScratchDir& dir) {
  const nlohmann::json grid = {
      {"cluster", scenario("clusters/rack-32gpu.json")},
      {"workload", scenario("workloads/default.json")},
      {"axes", {{{"name", "policy"}, {"values", {"fifo", "gang", "srtf"}}}, {{"name", "--seed"}, {"values", {1, 2}}}}},
      {"metrics", {"jct_s.mean", "gpu_utilization.busy_share"}}};
  return dir.write("spec.json", grid.dump(2));
}

TEST(Determinism, SweepParallelismChangesNoFile) {
  ScratchDir dir;
  const std::string spec = sweep_spec(dir);
  for (const std::string jobs : {"1", "2"}) {
    const GcsimRun run = run_gcsim({"sweep", spec, "--out", dir / ("jobs" + jobs), "--jobs", jobs, "--plots", "no"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  const auto first = tree_of(dir / "jobs1");
  ASSERT_EQ(first.size(), 2u + 6u * 3u);  // sweep.csv, sweep.md, and each run's three files
  expect_same_trees(first, tree_of(dir / "jobs2"));
}

TEST(Determinism, SweepOverOneOrTwoMpiRanksWritesTheSameFiles) {
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) GTEST_SKIP() << "no mpirun (Debian: openmpi-bin)";
  ScratchDir dir;
  const std::string spec = sweep_spec(dir);
  for (const std::string ranks : {"1", "2"}) {
    const std::string out = dir / ("ranks" + ranks), log = dir / ("ranks" + ranks + ".log");
    const std::string command =
        "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 mpirun -np " +
        ranks + " " + std::string(GCSIM_EXECUTABLE) + " sweep " + spec + " --out '" + out + "' --plots no --quiet > '" +
        log + "' 2>&1";
    ASSERT_EQ(std::system(command.c_str()), 0) << read_text(log);
  }
  const auto one = tree_of(dir / "ranks1");
  ASSERT_EQ(one.size(), 2u + 6u * 3u);
  expect_same_trees(one, tree_of(dir / "ranks2"));
}

}  // namespace
}  // namespace gcsim::testing
