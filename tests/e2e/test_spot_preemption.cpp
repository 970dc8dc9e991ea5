// Spot jobs through the gcsim executable, under fifo and capacity, on one
// crafted node of 8 GPUs: a guaranteed job preempts spot jobs to start at
// once, the spot job resumes from its checkpoint when GPUs are free again;
// times counted by hand. Also: a trace's qos column mapped end to end.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

nlohmann::json spot(nlohmann::json job, int priority = 0) {
  job["qos"] = "spot";
  if (priority != 0) job["priority"] = priority;
  return job;
}

// A checkpoint every 30 s of work, 5 s to restore from one.
nlohmann::json checkpointed(nlohmann::json job) {
  job["checkpoint"] = {{"interval", 30}, {"restore_cost", 5}};
  return job;
}

class SpotPreemption : public ::testing::TestWithParam<std::string> {
 protected:
  std::map<std::string, JobRow> run(const std::vector<nlohmann::json>& jobs,
                                    const std::vector<std::string>& extra = {}) {
    dir_.write("cluster.json", CraftedCluster{}.to_json());  // one node, 8 GPUs
    dir_.write("jobs.json", workload_json(jobs));
    const GcsimRun result = run_simulation(dir_ / "cluster.json", dir_ / "jobs.json", dir_ / "out", extra, GetParam());
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return read_jobs_csv(dir_ / "out");
  }
  ScratchDir dir_;
};

void expect_run(const JobRow& row, double start, double end, int preemptions) {
  SCOPED_TRACE(row.id);
  EXPECT_EQ(row.state, "finished");
  EXPECT_NEAR(row.start, start, 1e-6);  // its first start
  EXPECT_NEAR(row.end, end, 1e-6);
  EXPECT_EQ(row.preemptions, preemptions);
}

TEST_P(SpotPreemption, AGuaranteedJobPreemptsTheSpotJobAndItResumesFromItsCheckpoint) {
  //    0 s  the spot job (8 GPUs, 1000 s of work) starts, checkpointing every 30 s.
  //  100 s  the guaranteed job (4 GPUs, 50 s) arrives: the spot job is
  //         preempted, keeping the 90 s of its last checkpoint; it waits, as
  //         only 4 GPUs are free. The guaranteed job runs 100..150.
  //  150 s  the spot job restores (5 s) and does the 910 s left: ends at 1065 s.
  const auto rows = run({checkpointed(spot(measured_job("spot", 0, 8, 1000))), measured_job("high", 100, 4, 50)});
  expect_run(rows.at("high"), 100, 150, 0);
  expect_run(rows.at("spot"), 0, 1065, 1);
  EXPECT_EQ(rows.at("spot").qos, "spot");
  EXPECT_EQ(rows.at("high").qos, "guaranteed");
  const nlohmann::json summary = read_summary(dir_ / "out");
  EXPECT_EQ(summary["qos"]["spot"]["jobs"], 1);
  EXPECT_EQ(summary["qos"]["spot"]["preemptions"], 1);
  EXPECT_EQ(summary["qos"]["spot"]["preempted_jobs"], 1);
  EXPECT_NEAR(summary["qos"]["spot"]["jct_mean_s"].get<double>(), 1065, 1e-6);
  EXPECT_EQ(summary["qos"]["guaranteed"]["jobs"], 1);
  EXPECT_EQ(summary["qos"]["guaranteed"]["preemptions"], 0);
  EXPECT_NEAR(summary["qos"]["guaranteed"]["queueing_delay_mean_s"].get<double>(), 0, 1e-6);
}

TEST_P(SpotPreemption, WithoutACheckpointTheSpotJobStartsOver) {
  const auto rows = run({spot(measured_job("spot", 0, 8, 1000)), measured_job("high", 100, 4, 50)});
  expect_run(rows.at("high"), 100, 150, 0);
  expect_run(rows.at("spot"), 0, 1150, 1);
}

TEST_P(SpotPreemption, TheLowestPrioritySpotJobIsPreemptedFirst) {
  // Two spot jobs of 4 GPUs; the guaranteed job needs 4: only "low" goes,
  // although "high-spot" started later.
  const auto rows = run({spot(measured_job("low", 0, 4, 1000), 1), spot(measured_job("high-spot", 10, 4, 1000), 2),
                         measured_job("guaranteed", 100, 4, 50)});
  expect_run(rows.at("guaranteed"), 100, 150, 0);
  expect_run(rows.at("high-spot"), 10, 1010, 0);
  expect_run(rows.at("low"), 0, 1150, 1);
}

TEST_P(SpotPreemption, ASpotJobHoldingTheCoresTheGuaranteedJobNeedsIsPreemptedThoughItsGpusAreNotUsed) {
  // The node has 16 cores.
  //    0 s  "short" (guaranteed, 2 GPUs, no cores, 100 s) takes GPUs 0-1;
  //         "spot" (2 GPUs, all 16 cores, 1000 s) takes GPUs 2-3.
  //  100 s  "short" ends: 6 GPUs free, no core.
  //  200 s  "high" (guaranteed, 2 GPUs, 4 cores, 50 s) arrives. Free GPUs are
  //         enough, free cores are not: "spot" is preempted for its cores,
  //         though "high" runs on GPUs 0-1. "spot" cannot start again beside
  //         it (12 cores free of its 16) and starts over at 250 s: ends at 1250 s.
  const auto with_cores = [](nlohmann::json job, int cores) {
    job["cpu_cores"] = cores;
    return job;
  };
  const auto rows = run({measured_job("short", 0, 2, 100), spot(with_cores(measured_job("spot", 0, 2, 1000), 16)),
                         with_cores(measured_job("high", 200, 2, 50), 4)});
  expect_run(rows.at("short"), 0, 100, 0);
  expect_run(rows.at("high"), 200, 250, 0);
  expect_run(rows.at("spot"), 0, 1250, 1);
}

TEST_P(SpotPreemption, ASpotJobNeverPreempts) {
  // A spot job arriving on a node full with another waits for it.
  const auto rows = run({spot(measured_job("first", 0, 8, 300)), spot(measured_job("second", 100, 4, 50))});
  expect_run(rows.at("first"), 0, 300, 0);
  expect_run(rows.at("second"), 300, 350, 0);
}

TEST_P(SpotPreemption, WithTheOptionOffNothingIsPreempted) {
  const auto rows = run({spot(measured_job("spot", 0, 8, 1000)), measured_job("high", 100, 4, 50)},
                        {"--policy-opt", "preempt_spot=false"});
  expect_run(rows.at("spot"), 0, 1000, 0);
  expect_run(rows.at("high"), 1000, 1050, 0);
}

TEST_P(SpotPreemption, AWorkloadWithoutSpotJobsHasNoQosColumnNorSection) {
  run({measured_job("a", 0, 8, 100), measured_job("b", 10, 4, 50)});
  const std::string csv = read_text(dir_ / "out/jobs.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')).find("qos"), std::string::npos);
  EXPECT_FALSE(read_summary(dir_ / "out").contains("qos"));
}

INSTANTIATE_TEST_SUITE_P(FifoAndCapacity, SpotPreemption, ::testing::Values("fifo", "capacity"));

// A trace's qos column, its values mapped by the default rule (BE: spot, LS:
// guaranteed), replayed under fifo: the same timeline as the native workload.
TEST(SpotPreemptionFromATrace, AQosColumnMakesSpotJobs) {
  ScratchDir dir;
  dir.write("cluster.json", CraftedCluster{}.to_json());
  dir.write("jobs.csv",
            "job,submitted,gpu_count,seconds,class\n"
            "spot,0,8,1000,BE\n"
            "high,100,4,50,LS\n");
  const GcsimRun run =
      run_simulation(dir / "cluster.json", "csv:" + dir / "jobs.csv", dir / "out",
                     {"--trace-opt", "map=id=job,submit=submitted,gpus=gpu_count,duration=seconds,qos=class",
                      "--trace-opt", "gpu_type=GPU"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_jobs_csv(dir / "out");
  expect_run(rows.at("high"), 100, 150, 0);
  expect_run(rows.at("spot"), 0, 1150, 1);
  EXPECT_EQ(rows.at("spot").qos, "spot");
}

}  // namespace
}  // namespace gcsim::testing
