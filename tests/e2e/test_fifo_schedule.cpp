// FIFO on a crafted 8-GPU node: start and end times computed by hand.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

class FifoSchedule : public ::testing::Test {
 protected:
  std::map<std::string, JobRow> run(const std::vector<nlohmann::json>& jobs) {
    const auto cluster = dir_.write("cluster.json", CraftedCluster{}.to_json());  // one node, 8 GPUs
    const auto workload = dir_.write("jobs.json", workload_json(jobs));
    const GcsimRun result = run_simulation(cluster, workload, dir_ / "out");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return read_jobs_csv(dir_ / "out");
  }
  ScratchDir dir_;
};

struct Expected {
  const char* id;
  double start, end;
};

void expect_times(const std::map<std::string, JobRow>& rows, const std::vector<Expected>& expected) {
  for (const Expected& e : expected) {
    SCOPED_TRACE(e.id);
    ASSERT_TRUE(rows.count(e.id));
    EXPECT_EQ(rows.at(e.id).state, "finished");
    EXPECT_NEAR(rows.at(e.id).start, e.start, 1e-6);
    EXPECT_NEAR(rows.at(e.id).end, e.end, 1e-6);
  }
}

TEST_F(FifoSchedule, HeadOfLineJobBlocksLaterJobsThatWouldFit) {
  // a holds 4 GPUs until 100. b needs all 8: it waits for a. c needs 2 and
  // 4 are free from t=2, but b is ahead of it: c waits until b is done.
  const auto rows = run({measured_job("a", 0, 4, 100), measured_job("b", 1, 8, 50), measured_job("c", 2, 2, 10)});
  expect_times(rows, {{"a", 0, 100}, {"b", 100, 150}, {"c", 150, 160}});
  EXPECT_NEAR(rows.at("c").wait, 148, 1e-6);
}

TEST_F(FifoSchedule, JobsThatFitStartAtSubmission) {
  const auto rows = run({measured_job("a", 0, 4, 100), measured_job("c", 2, 2, 10), measured_job("d", 5, 2, 30)});
  expect_times(rows, {{"a", 0, 100}, {"c", 2, 12}, {"d", 5, 35}});
}

TEST_F(FifoSchedule, ReleasedGpusGoToTheOldestWaitingJobFirst) {
  // Both b and c wait for a; when a ends, b (older) gets 6 GPUs and c (4)
  // must wait for b although c was submitted in between: FIFO, not best fit.
  const auto rows = run({measured_job("a", 0, 8, 10), measured_job("b", 1, 6, 20), measured_job("c", 2, 4, 5),
                         measured_job("d", 3, 2, 5)});
  expect_times(rows, {{"a", 0, 10}, {"b", 10, 30}, {"c", 30, 35}, {"d", 30, 35}});
}

TEST_F(FifoSchedule, SimultaneousSubmissionsKeepWorkloadOrder) {
  const auto rows = run({measured_job("first", 0, 8, 10), measured_job("second", 0, 8, 10)});
  expect_times(rows, {{"first", 0, 10}, {"second", 10, 20}});
}

}  // namespace
}  // namespace gcsim::testing
