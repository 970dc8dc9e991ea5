// tiresias and drf run by the gcsim executable on a crafted node of 4 GPUs
// (measured-duration jobs without checkpoints, so run times are exact and a
// preempted job starts over): start and end times computed by hand,
// preemptions read from jobs.csv.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

// jobs.csv's preemptions column, by job id.
std::map<std::string, int> preemptions_by_id(const std::string& out_dir) {
  std::istringstream in(read_text(out_dir + "/jobs.csv"));
  auto split = [](const std::string& text) {
    std::vector<std::string> fields;
    std::istringstream fields_in(text);
    for (std::string field; std::getline(fields_in, field, ',');) fields.push_back(field);
    return fields;
  };
  std::string line;
  std::getline(in, line);
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

nlohmann::json owned_by(nlohmann::json job, const std::string& user) {
  job["user"] = user;
  return job;
}

struct Expected {
  const char* id;
  double start, end;  // first start, completion
  int preemptions;
};

class FairnessPoliciesEndToEnd : public ::testing::Test {
 protected:
  void run(const std::vector<nlohmann::json>& jobs, const std::string& policy, const std::vector<std::string>& options,
           const std::vector<Expected>& expected) {
    CraftedCluster cluster;
    cluster.gpus_per_node = 4;
    std::vector<std::string> extra;
    for (const std::string& option : options) extra.insert(extra.end(), {"--policy-opt", option});
    const GcsimRun result = run_simulation(dir_.write("cluster.json", cluster.to_json()),
                                           dir_.write("jobs.json", workload_json(jobs)), dir_ / "out", extra, policy);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto rows = read_jobs_csv(dir_ / "out");
    const auto preemptions = preemptions_by_id(dir_ / "out");
    for (const Expected& e : expected) {
      SCOPED_TRACE(e.id);
      ASSERT_TRUE(rows.count(e.id));
      EXPECT_EQ(rows.at(e.id).state, "finished");
      EXPECT_NEAR(rows.at(e.id).start, e.start, 1e-6);
      EXPECT_NEAR(rows.at(e.id).end, e.end, 1e-6);
      ASSERT_TRUE(preemptions.count(e.id));
      EXPECT_EQ(preemptions.at(e.id), e.preemptions);
    }
  }
  ScratchDir dir_;
};

TEST_F(FairnessPoliciesEndToEnd, TiresiasNewJobPreemptsAJobDemotedPastTheThreshold) {
  // long: 4 GPUs, 300 s; it reaches 400 GPU-seconds at t=100 and drops to Q2.
  // short (2 GPUs, 50 s) arrives at 150 in Q1 and preempts it: short runs
  // 150-200; long starts over at 200 and ends at 500.
  run({measured_job("long", 0, 4, 300), measured_job("short", 150, 2, 50)}, "tiresias",
      {"thresholds=400", "promote_knob=0"}, {{"long", 0, 500, 1}, {"short", 150, 200, 0}});
}

TEST_F(FairnessPoliciesEndToEnd, TiresiasDemotesOnTimeThroughAWakeUp) {
  // short arrives at 50 while long is still in Q1: it waits. Nothing happens
  // at t=100 but long's threshold crossing, and the wake-up the policy asked
  // for lets short preempt it then: short 100-150, long again 150-450.
  run({measured_job("long", 0, 4, 300), measured_job("short", 50, 2, 50)}, "tiresias",
      {"thresholds=400", "promote_knob=0"}, {{"long", 0, 450, 1}, {"short", 100, 150, 0}});
}

TEST_F(FairnessPoliciesEndToEnd, TiresiasJobsOfOneQueueDoNotPreemptEachOther) {
  // long's whole run is 1200 GPU-seconds, below 2000: short waits for it.
  run({measured_job("long", 0, 4, 300), measured_job("short", 50, 2, 50)}, "tiresias", {"thresholds=2000"},
      {{"long", 0, 300, 0}, {"short", 300, 350, 0}});
}

TEST_F(FairnessPoliciesEndToEnd, DrfServesTheUserWithTheLowerDominantShareFirst) {
  // alice submits three 2-GPU jobs, bob one, all at 0 (alice's first in the
  // file). alice (tie at 0, by name) gets a1, then bob (0 < 1/2) gets b1.
  // At 100 both end: alice's a2 and a3 start (bob has nothing waiting).
  // fifo would run a1 and a2 first and make bob wait until 100.
  run({owned_by(measured_job("a1", 0, 2, 100), "alice"), owned_by(measured_job("a2", 0, 2, 100), "alice"),
       owned_by(measured_job("a3", 0, 2, 100), "alice"), owned_by(measured_job("b1", 0, 2, 100), "bob")},
      "drf", {}, {{"a1", 0, 100, 0}, {"b1", 0, 100, 0}, {"a2", 100, 200, 0}, {"a3", 100, 200, 0}});
}

}  // namespace
}  // namespace gcsim::testing
