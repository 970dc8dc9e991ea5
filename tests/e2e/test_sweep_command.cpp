// `gcsim sweep`: a grid of runs gathered in one table, the same byte for
// byte whatever the local parallelism or the MPI ranks; a sweep run again
// after an interruption runs only what was not done.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "sim/io/csv_records.hpp"
#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// 3 policies x 2 seeds x 2 job-round counts: 12 runs of the default workload, job fidelity.
struct Sweep {
  ScratchDir dir;
  std::string spec;
  Sweep() {
    const nlohmann::json grid = {{"cluster", scenario("clusters/rack-32gpu.json")},
                                 {"workload", scenario("workloads/default.json")},
                                 {"axes",
                                  {{{"name", "policy"}, {"values", {"fifo", "gang", "srtf"}}},
                                   {{"name", "--seed"}, {"values", {1, 2}}},
                                   {{"name", "--job-rounds"}, {"values", {2, 4}}}}},
                                 {"metrics", {"jct_s.mean", "queueing_delay_s.p95", "gpu_utilization.busy_share"}}};
    spec = dir.write("spec.json", grid.dump(2));
  }
  GcsimRun run(const std::string& out, const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> args = {"sweep", spec, "--out", dir / out};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_gcsim(args);
  }
};

TEST(Sweep, TheTableIsTheSameWhateverTheJobsAndHoldsEachRunsSummary) {
  const Sweep s;
  const GcsimRun one = s.run("one", {"--jobs", "1"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const GcsimRun two = s.run("two", {"--jobs", "2"});
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_NE(two.out.find("12 runs over 1 rank(s): 12 ran, 0 done before (skipped), 0 failed"), std::string::npos)
      << two.out;
  const std::string csv = read_text(s.dir / "one/sweep.csv");
  EXPECT_EQ(csv, read_text(s.dir / "two/sweep.csv"));
  EXPECT_EQ(read_text(s.dir / "one/sweep.md"), read_text(s.dir / "two/sweep.md"));
  // Run 7: gang (the second policy: runs 4-7), seed 2, 4 rounds (the last axis changes fastest).
  std::istringstream lines(csv);
  std::string header, row;
  std::getline(lines, header);
  EXPECT_EQ(header, "run,policy,--seed,--job-rounds,jct_s.mean,queueing_delay_s.p95,gpu_utilization.busy_share");
  for (int i = 0; i <= 7; ++i) std::getline(lines, row);
  const nlohmann::json summary = read_summary(s.dir / "one/runs/run-0007");
  EXPECT_EQ(row.rfind("7,gang,2,4,", 0), 0u) << row;
  EXPECT_NE(row.find("," + summary["jct_s"]["mean"].dump() + ","), std::string::npos) << row;
  EXPECT_EQ(summary["policy"], "gang");
  EXPECT_EQ(summary["seed"], 2);
}

TEST(Sweep, RunAgainAfterAnInterruptionItRunsOnlyWhatWasNotDone) {
  const Sweep s;
  ASSERT_EQ(s.run("out").exit_code, 0);
  const std::string before = read_text(s.dir / "out/sweep.csv");
  // As if it had been stopped with three runs not done (a run's outputs appear whole or not at all).
  for (const char* run : {"run-0002", "run-0005", "run-0011"}) std::filesystem::remove_all(s.dir / "out/runs/" + run);
  const GcsimRun again = s.run("out", {"--jobs", "2"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("12 runs over 1 rank(s): 3 ran, 9 done before (skipped), 0 failed"), std::string::npos)
      << again.out;
  EXPECT_EQ(read_text(s.dir / "out/sweep.csv"), before);
  const GcsimRun nothing_left = s.run("out");
  EXPECT_NE(nothing_left.out.find("0 ran, 12 done before (skipped)"), std::string::npos) << nothing_left.out;
}

// Killed for real (the sweep and the run it had under way, at once) once a
// few runs are done, then run again: it runs only the runs without a summary
// and loses none, and its table is the uninterrupted sweep's.
TEST(Sweep, KilledMidwayAndRunAgainItRepeatsNothing) {
  const Sweep s;
  ASSERT_EQ(s.run("whole").exit_code, 0);
  const pid_t sweep = ::fork();
  ASSERT_GE(sweep, 0);
  if (sweep == 0) {
    ::setpgid(0, 0);  // its runs in its group, to be killed with it
    if (!std::freopen("/dev/null", "w", stdout)) _exit(127);
    ::execl(GCSIM_EXECUTABLE, GCSIM_EXECUTABLE, "sweep", s.spec.c_str(), "--out", (s.dir / "cut").c_str(), "--jobs",
            "1", "--plots", "no", static_cast<char*>(nullptr));
    _exit(127);
  }
  ::setpgid(sweep, sweep);
  auto done = [&] {
    std::size_t n = 0;
    std::error_code ec;
    for (const auto& run : std::filesystem::directory_iterator(s.dir / "cut/runs", ec))
      n += std::filesystem::exists(run.path() / "summary.json");
    return n;
  };
  for (int i = 0; i < 3000 && done() < 3; ++i) ::usleep(10000);
  ::kill(-sweep, SIGKILL);
  int status = 0;
  ::waitpid(sweep, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the sweep ended before it was killed";
  ::usleep(100000);
  const std::size_t before = done();
  ASSERT_GE(before, 3u);
  ASSERT_LT(before, 12u);
  const GcsimRun again = s.run("cut", {"--plots", "no"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("12 runs over 1 rank(s): " + std::to_string(12 - before) + " ran, " +
                           std::to_string(before) + " done before (skipped), 0 failed"),
            std::string::npos)
      << again.out;
  EXPECT_EQ(read_text(s.dir / "cut/sweep.csv"), read_text(s.dir / "whole/sweep.csv"));
}

TEST(Sweep, TwoMpiRanksGiveTheSameTableAsOneProcess) {
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) GTEST_SKIP() << "no mpirun (Debian: openmpi-bin)";
  const Sweep s;
  ASSERT_EQ(s.run("local", {"--jobs", "2"}).exit_code, 0);
  const std::string command =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 "
      "mpirun -np 2 " +
      std::string(GCSIM_EXECUTABLE) + " sweep " + s.spec + " --out " + (s.dir / "mpi") + " --quiet > " +
      (s.dir / "mpi.log") + " 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << read_text(s.dir / "mpi.log");
  EXPECT_EQ(read_text(s.dir / "mpi/sweep.csv"), read_text(s.dir / "local/sweep.csv"));
  EXPECT_EQ(read_text(s.dir / "mpi/sweep.md"), read_text(s.dir / "local/sweep.md"));
  EXPECT_FALSE(std::filesystem::exists(s.dir / "mpi/ranks"));
}

TEST(Sweep, BadSpecsAreNamedBeforeAnythingRuns) {
  ScratchDir dir;
  const auto spec = dir.write("spec.json", R"({"workload": "w.json", "policy": "fifo",
    "axes": [{"name": "seed", "values": [1, 2]}], "metrics": ["jct_s.mean"]})");
  const GcsimRun run = run_gcsim({"sweep", spec, "--out", dir / "out"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("spec.json"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("axes[0]"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("'--seed'"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

TEST(Sweep, AxisValuesHoldingCommasQuotesAndLineBreaksKeepTheirRows) {
  // Two workloads whose file names need quoting in sweep.csv: one job of 100 s, one of 50 s.
  ScratchDir dir;
  CraftedCluster c;
  c.gpus_per_node = 4;
  const std::string names[] = {"jobs, \"long\".json", "jobs\nshort.json"};
  dir.write(names[0], workload_json({measured_job("a", 0, 4, 100)}));
  dir.write(names[1], workload_json({measured_job("b", 0, 4, 50)}));
  const nlohmann::json grid = {{"cluster", dir.write("cluster.json", c.to_json())},
                               {"policy", "fifo"},
                               {"axes", {{{"name", "workload"}, {"values", {names[0], names[1]}}}}},
                               {"metrics", {"jct_s.mean"}}};
  const GcsimRun run =
      run_gcsim({"sweep", dir.write("spec.json", grid.dump(2)), "--out", dir / "out", "--plots", "no"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<CsvRecord> rows = read_csv_records(read_text(dir / "out/sweep.csv"), "sweep.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].fields, (std::vector<std::string>{"0", names[0], "100"}));
  EXPECT_EQ(rows[2].fields, (std::vector<std::string>{"1", names[1], "50"}));
  EXPECT_EQ(rows[2].line, 3u);  // the row after one quoted name
  EXPECT_NE(read_text(dir / "out/sweep.md").find("| 50 |"), std::string::npos);
}

}  // namespace
}  // namespace gcsim::testing
