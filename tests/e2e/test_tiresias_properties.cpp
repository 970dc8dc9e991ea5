// Properties of tiresias runs on seeded random workloads: jobs as large as
// the cluster (the case where jobs without checkpoints can take turns
// forever), with smaller jobs beside them, under several thresholds and
// promotion knobs. Whatever the draw, every run ends on its own, no plan is
// rejected, and either every job finishes or the run reports thrashing.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

struct Knobs {
  const char* thresholds;
  const char* promote_knob;
};

// The largest allocated GPU count in timeline.csv.
double most_allocated(const std::string& out_dir) {
  std::istringstream lines(read_text(out_dir + "/timeline.csv"));
  std::string line;
  std::getline(lines, line);  // header
  double most = 0;
  while (std::getline(lines, line)) {
    const std::size_t first = line.find(','), second = line.find(',', first + 1);
    most = std::max(most, std::stod(line.substr(first + 1, second - first - 1)));
  }
  return most;
}

TEST(TiresiasProperties, EveryRunEndsWithEveryJobFinishedOrTheThrashingReported) {
  const Knobs knobs[] = {{"100", "1"}, {"100", "8"}, {"400,2000", "2"}, {"3600", "8"}, {"100", "0"}};
  std::mt19937 random(20240611);
  int thrashed = 0, all_finished = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const int gpus = trial % 2 ? 8 : 4;
    const Knobs& knob = knobs[trial % 5];
    std::uniform_int_distribution<int> job_count(2, 6), submit(0, 600), seconds(30, 900), coin(0, 1),
        fewer_gpus(1, gpus);
    std::vector<nlohmann::json> jobs;
    const int count = job_count(random);
    for (int j = 0; j < count; ++j) {
      const int job_gpus = coin(random) ? gpus : fewer_gpus(random);
      jobs.push_back(measured_job("j" + std::to_string(j), submit(random), job_gpus, seconds(random)));
    }
    const std::string workload = workload_json(jobs);
    SCOPED_TRACE("trial " + std::to_string(trial) + ", " + std::to_string(gpus) +
                 " GPUs, thresholds=" + knob.thresholds + " promote_knob=" + knob.promote_knob + ": " + workload);

    ScratchDir dir;
    CraftedCluster node;
    node.gpus_per_node = gpus;
    const GcsimRun run =
        run_simulation(dir.write("cluster.json", node.to_json()), dir.write("jobs.json", workload), dir / "out",
                       {"--policy-opt", std::string("thresholds=") + knob.thresholds, "--policy-opt",
                        std::string("promote_knob=") + knob.promote_knob},
                       "tiresias");
    ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 10) << "exit " << run.exit_code << ": " << run.err;
    const nlohmann::json summary = read_summary(dir / "out");
    if (run.exit_code == 0) {
      ++all_finished;
      EXPECT_EQ(summary["jobs"]["finished"], count);
      EXPECT_TRUE(summary["thrashing"].is_null());
    } else {
      ++thrashed;
      const nlohmann::json& thrashing = summary["thrashing"];
      ASSERT_TRUE(thrashing.is_object());
      EXPECT_GT(thrashing["lost_gpu_hours_since"].get<double>(), 3 * thrashing["needed_gpu_hours"].get<double>());
      EXPECT_GE(thrashing["unfinished_jobs"].get<int>(), 1);
      EXPECT_LT(summary["jobs"]["finished"].get<int>(), count);
    }
    // Every finished job ran its whole work in its last run (no checkpoints),
    // and the jobs never held more GPUs than the node has.
    const auto rows = read_jobs_csv(dir / "out");
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      const JobRow& row = rows.at(jobs[j]["id"]);
      if (row.state != "finished") continue;
      EXPECT_GE(row.start, row.submit) << row.id;
      EXPECT_GE(row.end - row.submit, jobs[j]["duration"]["seconds"].get<double>() - 1e-6) << row.id;
    }
    EXPECT_LE(most_allocated(dir / "out"), gpus);
  }
  // The draw exercises both endings (14 of the 40 runs thrash).
  EXPECT_GT(thrashed, 0);
  EXPECT_GT(all_finished, 0);
}

}  // namespace
}  // namespace gcsim::testing
