// fifo-backfill and srtf run by the gcsim executable on a crafted 8-GPU node
// (measured-duration jobs, so run times are exact): start and end times
// computed by hand, preemptions read from jobs.csv. Also: every scheduling
// policy and placement added here runs the bundled default scenario.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

nlohmann::json with_estimate(nlohmann::json job, double seconds) {
  job["runtime_estimate"] = seconds;
  return job;
}

// jobs.csv's preemptions column, by job id.
std::map<std::string, int> preemptions_by_id(const std::string& out_dir) {
  std::istringstream in(read_text(out_dir + "/jobs.csv"));
  std::string line;
  std::getline(in, line);
  auto split = [](const std::string& text) {
    std::vector<std::string> fields;
    std::istringstream fields_in(text);
    for (std::string field; std::getline(fields_in, field, ',');) fields.push_back(field);
    return fields;
  };
  const auto header = split(line);
  std::size_t id = header.size(), preemptions = header.size();
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == "id") id = i;
    if (header[i] == "preemptions") preemptions = i;
  }
  std::map<std::string, int> out;
  if (id == header.size() || preemptions == header.size()) return out;
  while (std::getline(in, line)) {
    const auto fields = split(line);
    if (fields.size() > std::max(id, preemptions)) out[fields[id]] = std::stoi(fields[preemptions]);
  }
  return out;
}

struct Expected {
  const char* id;
  double start, end;
};

class PolicyEndToEnd : public ::testing::Test {
 protected:
  // One node of 8 GPUs at 1e12 FLOP/s; measured jobs run exactly their seconds.
  std::map<std::string, JobRow> run(const std::vector<nlohmann::json>& jobs, const std::string& policy,
                                    const std::vector<std::string>& extra = {}) {
    const auto cluster = dir_.write("cluster.json", CraftedCluster{}.to_json());
    const auto workload = dir_.write("jobs.json", workload_json(jobs));
    const GcsimRun result = run_simulation(cluster, workload, dir_ / "out", extra, policy);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return read_jobs_csv(dir_ / "out");
  }

  static void expect_times(const std::map<std::string, JobRow>& rows, const std::vector<Expected>& expected) {
    for (const Expected& e : expected) {
      SCOPED_TRACE(e.id);
      ASSERT_TRUE(rows.count(e.id));
      EXPECT_EQ(rows.at(e.id).state, "finished");
      EXPECT_NEAR(rows.at(e.id).start, e.start, 1e-6);
      EXPECT_NEAR(rows.at(e.id).end, e.end, 1e-6);
    }
  }

  ScratchDir dir_;
};

// ---- fifo-backfill ----------------------------------------------------------------------

// Exact estimates:
//   a     t=0  4 GPUs 100 s   starts at once, ends 100
//   head  t=1  8 GPUs  50 s   blocked; shadow time 100 (a's end), no extra GPU
//   s1    t=2  2 GPUs  90 s   2 + 90 = 92 <= 100: backfills, 2..92
//   long  t=3  2 GPUs 200 s   3 + 200 > 100 and no extra GPU: waits
//   s2    t=5  2 GPUs  90 s   5 + 90 = 95 <= 100: backfills, 5..95
// At 92 and 95 long is still refused (it would end after 100). At 100 a ends:
// the head starts, exactly as under FIFO; long starts when the head ends.
TEST_F(PolicyEndToEnd, FifoBackfillStartsShortJobsWithoutDelayingTheHead) {
  const auto rows =
      run({with_estimate(measured_job("a", 0, 4, 100), 100), with_estimate(measured_job("head", 1, 8, 50), 50),
           with_estimate(measured_job("s1", 2, 2, 90), 90), with_estimate(measured_job("long", 3, 2, 200), 200),
           with_estimate(measured_job("s2", 5, 2, 90), 90)},
          "fifo-backfill");
  expect_times(rows, {{"a", 0, 100}, {"head", 100, 150}, {"s1", 2, 92}, {"s2", 5, 95}, {"long", 150, 350}});
}

// The decision rests on the estimate, not on the real run time: `overestimated`
// runs 10 s but claims 500 (2 + 500 > 100) and waits for the head;
// `no-estimate` also runs 10 s and, without an estimate, is judged by its
// oracle duration, 10 s (3 + 10 <= 100): it backfills.
TEST_F(PolicyEndToEnd, FifoBackfillJudgesJobsByTheirEstimateElseTheirOracleDuration) {
  const auto rows =
      run({with_estimate(measured_job("a", 0, 4, 100), 100), with_estimate(measured_job("head", 1, 8, 50), 50),
           with_estimate(measured_job("overestimated", 2, 2, 10), 500), measured_job("no-estimate", 3, 2, 10)},
          "fifo-backfill");
  expect_times(rows, {{"a", 0, 100}, {"head", 100, 150}, {"no-estimate", 3, 13}, {"overestimated", 150, 160}});
}

// ---- srtf --------------------------------------------------------------------------------

// `long` (8 GPUs, 100 s) runs from 0. At 20 `short` (4 GPUs, 10 s) arrives:
// 10 < 100 - 20 = 80, so long is preempted and short runs 20..30. Long then
// starts over (its work is lost) and runs 30..130. jobs.csv keeps its first
// start.
TEST_F(PolicyEndToEnd, SrtfPreemptsALongJobForAShortOne) {
  const auto rows = run({measured_job("long", 0, 8, 100), measured_job("short", 20, 4, 10)}, "srtf");
  expect_times(rows, {{"long", 0, 130}, {"short", 20, 30}});
  const auto preemptions = preemptions_by_id(dir_ / "out");
  EXPECT_EQ(preemptions.at("long"), 1);
  EXPECT_EQ(preemptions.at("short"), 0);
}

TEST_F(PolicyEndToEnd, SrtfWithoutPreemptionLetsTheLongJobFinish) {
  const auto rows = run({measured_job("long", 0, 8, 100), measured_job("short", 20, 4, 10)}, "srtf",
                        {"--policy-opt", "preemptive=false"});
  expect_times(rows, {{"long", 0, 100}, {"short", 100, 110}});
  const auto preemptions = preemptions_by_id(dir_ / "out");
  EXPECT_EQ(preemptions.at("long"), 0);
  EXPECT_EQ(preemptions.at("short"), 0);
}

// `blocker` (8 GPUs, 30 s) always has less time left than the jobs arriving
// behind it, so it is not preempted. When it ends at 30 the shorter waiting
// job starts first although it came later, and the longer one follows it.
TEST_F(PolicyEndToEnd, SrtfStartsTheShortestWaitingJobFirst) {
  const auto rows =
      run({measured_job("blocker", 0, 8, 30), measured_job("slow", 1, 8, 40), measured_job("quick", 2, 8, 35)}, "srtf");
  expect_times(rows, {{"blocker", 0, 30}, {"quick", 30, 65}, {"slow", 65, 105}});
  const auto preemptions = preemptions_by_id(dir_ / "out");
  EXPECT_EQ(preemptions.at("blocker"), 0);
}

TEST_F(PolicyEndToEnd, SrtfRejectsAnInvalidPreemptiveOption) {
  const auto cluster = dir_.write("cluster.json", CraftedCluster{}.to_json());
  const auto workload = dir_.write("jobs.json", workload_json({measured_job("a", 0, 1, 1)}));
  const GcsimRun result = run_simulation(cluster, workload, dir_ / "out", {"--policy-opt", "preemptive=maybe"}, "srtf");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("preemptive"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("'maybe'"), std::string::npos) << result.err;
}

// ---- every new policy and placement on the bundled default scenario -----------------------

TEST(PolicyEndToEndBundled, NewPoliciesAndPlacementsFinishTheDefaultScenario) {
  const std::string scenarios = std::string(GCSIM_SOURCE_DIR) + "/scenarios/";
  const std::vector<std::pair<std::string, std::vector<std::string>>> runs = {
      {"fifo-backfill", {}},
      {"srtf", {}},
      {"srtf", {"--policy-opt", "preemptive=false"}},
      {"fifo", {"--placement", "spread"}},
      {"fifo", {"--placement", "topology"}},
      {"fifo-backfill", {"--placement", "topology"}},
  };
  for (const auto& [policy, extra] : runs) {
    SCOPED_TRACE(policy + (extra.empty() ? "" : " " + extra.back()));
    ScratchDir dir;
    const GcsimRun result = run_simulation(scenarios + "clusters/rack-32gpu.json", scenarios + "workloads/default.json",
                                           dir / "out", extra, policy);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto rows = read_jobs_csv(dir / "out");
    EXPECT_EQ(rows.size(), 40u);
    for (const auto& [id, row] : rows) {
      EXPECT_EQ(row.state, "finished") << id;
      EXPECT_GE(row.start, row.submit) << id;
    }
  }
}

}  // namespace
}  // namespace gcsim::testing
