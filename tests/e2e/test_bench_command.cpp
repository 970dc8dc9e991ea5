// `gcsim bench`: a suite held to its baseline. The bundled suite passes
// against the bundled baseline; a policy that starts every job a minute late
// fails the suite whose baseline it did not write, naming the metrics that
// moved; bad suites and missing baselines are named before anything runs.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

const std::string kPlanted = GCSIM_PLANTED_POLICIES;

TEST(Bench, TheBundledSuitePassesAgainstItsBaseline) {
  ScratchDir dir;
  const GcsimRun run = run_gcsim({"bench", scenario("bench/ci-suite.json"), "--baseline",
                                  scenario("bench/ci-baseline.json"), "--out", dir / "bench", "--quiet"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  const nlohmann::json report = nlohmann::json::parse(read_text(dir / "bench/bench.json"));
  EXPECT_EQ(report["regressed"], 0);
  EXPECT_GT(report["metrics"].size(), 50u);
  EXPECT_EQ(report["wall_time"][0]["ratio_to_reference"], 1.0);
}

// Four one-GPU jobs of 100 s on a node of two GPUs, submitted at 0, 0, 10
// and 10 s: first-free runs them 0-100, 0-100, 100-200, 100-200 (mean JCT
// 145 s); first-free-late starts each at least a minute after its submission:
// 60-160, 60-160, 160-260, 160-260 (mean JCT 205 s).
struct Suite {
  ScratchDir dir;
  std::string path;
  explicit Suite(const std::string& policy) {
    CraftedCluster cluster;
    cluster.gpus_per_node = 2;
    dir.write("cluster.json", cluster.to_json());
    dir.write("jobs.json", workload_json({measured_job("a", 0, 1, 100), measured_job("b", 0, 1, 100),
                                          measured_job("c", 10, 1, 100), measured_job("d", 10, 1, 100)}));
    const nlohmann::json suite = {{"metrics",
                                   {{{"path", "jct_s.mean"}, {"better", "lower"}},
                                    {{"path", "makespan_s"}, {"better", "lower"}, {"absolute", 100}},
                                    {{"path", "jobs.finished"}, {"better", "higher"}}}},
                                  {"scenarios",
                                   {{{"name", "small"},
                                     {"cluster", "cluster.json"},
                                     {"workload", "jobs.json"},
                                     {"policy", policy},
                                     {"options", {"--plugin", kPlanted}}}}}};
    path = dir.write("suite.json", suite.dump(2));
  }
  GcsimRun bench(const std::vector<std::string>& extra) const {
    std::vector<std::string> args = {"bench", path, "--baseline", dir / "baseline.json", "--out", dir / "bench"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_gcsim(args);
  }
};

TEST(Bench, ARegressedPolicyFailsWithTheMetricNamedAndTheUnchangedOnePasses) {
  Suite unchanged("first-free");
  ASSERT_EQ(unchanged.bench({"--update"}).exit_code, 0);
  const nlohmann::json baseline = nlohmann::json::parse(read_text(unchanged.dir / "baseline.json"));
  EXPECT_DOUBLE_EQ(baseline["scenarios"]["small"]["jct_s.mean"].get<double>(), 145);
  EXPECT_DOUBLE_EQ(baseline["scenarios"]["small"]["makespan_s"].get<double>(), 200);
  const GcsimRun passes = unchanged.bench({});
  EXPECT_EQ(passes.exit_code, 0) << passes.out << passes.err;

  // The same suite and baseline, the policy regressed.
  Suite late("first-free-late");
  late.dir.write("baseline.json", read_text(unchanged.dir / "baseline.json"));
  const GcsimRun fails = late.bench({});
  EXPECT_EQ(fails.exit_code, 13) << fails.out << fails.err;
  EXPECT_NE(fails.out.find("| small | jct_s.mean | lower | 145 | 205 | +60 (+41.38%) | 0 | **regressed** |"),
            std::string::npos)
      << fails.out;
  // Its makespan grew 60 s, within the 100 s the suite allows.
  EXPECT_NE(fails.out.find("| small | makespan_s | lower | 200 | 260 | +60 (+30.00%) | 100 | within |"),
            std::string::npos)
      << fails.out;
  const nlohmann::json report = nlohmann::json::parse(read_text(late.dir / "bench/bench.json"));
  EXPECT_EQ(report["regressed"], 1);
  EXPECT_EQ(report["metrics"][0]["status"], "regressed");
  EXPECT_EQ(report["metrics"][2]["status"], "same");
  EXPECT_TRUE(std::filesystem::is_regular_file(late.dir / "bench/bench.md"));
}

TEST(Bench, BadSuitesAndMissingBaselinesAreNamedBeforeAnythingRuns) {
  Suite suite("first-free");
  const GcsimRun no_baseline = suite.bench({});
  EXPECT_EQ(no_baseline.exit_code, 1);
  EXPECT_NE(no_baseline.err.find("baseline.json"), std::string::npos) << no_baseline.err;

  suite.dir.write("baseline.json", R"({"scenarios": {"other": {"jct_s.mean": 1}}})");
  const GcsimRun unknown = suite.bench({});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("no baseline for scenario 'small'"), std::string::npos) << unknown.err;
  EXPECT_FALSE(std::filesystem::is_regular_file(suite.dir / "bench/bench.json"));

  suite.dir.write("suite.json", R"({"scenarios": [{"name": "x", "cluster": "c", "workload": "w", "policy": "fifo",
    "metrics": [{"path": "jct_s.mean", "better": "smaller"}]}]})");
  const GcsimRun bad = suite.bench({});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("suite.json"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("scenarios[0].metrics[0]"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("better"), std::string::npos) << bad.err;

  const GcsimRun no_suite = run_gcsim({"bench", "--baseline", "b.json"});
  EXPECT_EQ(no_suite.exit_code, 2);
  EXPECT_NE(no_suite.err.find("expected the SUITE.json"), std::string::npos) << no_suite.err;
}

}  // namespace
}  // namespace gcsim::testing
