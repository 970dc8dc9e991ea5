// Specification of the synthetic workload generator: reproducible to the
// bit, faithful to its spec in distribution, and always a valid workload.
#include "workloads/synthetic_generator.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include <gtest/gtest.h>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/input_error.hpp"
#include "workloads/native_workload.hpp"
#include "workloads/workload_validation.hpp"

namespace gcsim {
namespace {

std::string dump(const std::vector<JobSpec>& jobs) { return native_workload_json(jobs).dump(); }

SyntheticWorkloadSpec many_jobs(std::size_t count) {
  SyntheticWorkloadSpec spec;
  spec.jobs = count;
  return spec;
}

TEST(SyntheticGenerator, SameSeedGivesIdenticalJobs) {
  const auto spec = many_jobs(500);
  EXPECT_EQ(dump(generate_synthetic_workload(spec, 7)), dump(generate_synthetic_workload(spec, 7)));
}

TEST(SyntheticGenerator, DifferentSeedsGiveDifferentJobs) {
  const auto spec = many_jobs(50);
  const auto a = generate_synthetic_workload(spec, 1);
  const auto b = generate_synthetic_workload(spec, 2);
  EXPECT_NE(dump(a), dump(b));
  EXPECT_NE(a[1].submit, b[1].submit);
}

// These figures are the generator's definition: a platform or standard
// library that gives other bits breaks reproducibility of published runs.
TEST(SyntheticGenerator, OutputIsPinnedForAGivenSeed) {
  SyntheticWorkloadSpec spec = many_jobs(3);
  spec.training_share = 0.5;
  const auto jobs = generate_synthetic_workload(spec, 2024);
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].submit, 0.0);
  EXPECT_EQ(jobs[1].submit, 0x1.f5f600f1577b1p+7);  // 250.98047594254379 s
  EXPECT_EQ(jobs[2].submit, 0x1.4a93ad5319299p+9);  // 661.15372694710379 s
  EXPECT_EQ(jobs[0].gpus, 2u);
  EXPECT_EQ(jobs[0].user, "user-3");
  EXPECT_TRUE(std::holds_alternative<TrainingWork>(jobs[0].work));
  EXPECT_TRUE(std::holds_alternative<MeasuredWork>(jobs[1].work));
}

TEST(SyntheticGenerator, MeanInterarrivalMatchesTheSpec) {
  SyntheticWorkloadSpec spec = many_jobs(20000);
  spec.mean_interarrival_s = 120;
  const auto jobs = generate_synthetic_workload(spec, 11);
  const double mean_gap = (jobs.back().submit - jobs.front().submit) / static_cast<double>(jobs.size() - 1);
  EXPECT_NEAR(mean_gap, 120.0, 0.05 * 120.0);
}

TEST(SyntheticGenerator, GpuCountFrequenciesMatchTheWeights) {
  const auto spec = many_jobs(20000);
  std::map<std::uint32_t, double> seen;
  for (const JobSpec& job : generate_synthetic_workload(spec, 12)) seen[job.gpus] += 1.0 / spec.jobs;
  double total_weight = 0;
  for (const auto& [gpus, weight] : spec.gpu_count_weights) total_weight += weight;
  for (const auto& [gpus, weight] : spec.gpu_count_weights)
    EXPECT_NEAR(seen[gpus], weight / total_weight, 0.02) << gpus << " GPUs";
  EXPECT_EQ(seen.size(), spec.gpu_count_weights.size());
}

TEST(SyntheticGenerator, SubmitTimesStartAtZeroAndNeverDecrease) {
  const auto jobs = generate_synthetic_workload(many_jobs(2000), 13);
  EXPECT_EQ(jobs.front().submit, 0.0);
  for (std::size_t i = 1; i < jobs.size(); ++i) EXPECT_LE(jobs[i - 1].submit, jobs[i].submit) << i;
}

TEST(SyntheticGenerator, EveryJobIsValidInTheNativeFormatAndOnACluster) {
  SyntheticWorkloadSpec spec = many_jobs(3000);
  spec.users = 5;
  spec.queues = {"research", "production"};
  const auto jobs = generate_synthetic_workload(spec, 14);
  // Reading back validates every field (ids unique, counts >= 1, ...).
  const auto reread = parse_native_workload(nlohmann::json::parse(dump(jobs)), "synthetic");
  ASSERT_EQ(reread.size(), jobs.size());

  ClusterSpec cluster;
  cluster.name = "sixteen";
  cluster.gpu_types = {{"V100", spec.gpu_flops, 32e9}};
  NodeGroup nodes;
  nodes.name = "n";
  nodes.count = 2;
  nodes.gpus_per_node = 8;
  nodes.gpu_type = "V100";
  cluster.node_groups = {nodes};
  EXPECT_NO_THROW(validate_workload_against_cluster(jobs, ClusterLayout(cluster), "synthetic"));
}

TEST(SyntheticGenerator, TrainingJobsComputeForTheSampledDuration) {
  SyntheticWorkloadSpec spec = many_jobs(4000);
  spec.training_share = 0.3;
  std::size_t training = 0;
  for (const JobSpec& job : generate_synthetic_workload(spec, 15)) {
    const auto* work = std::get_if<TrainingWork>(&job.work);
    if (!work) {
      EXPECT_EQ(std::get<MeasuredWork>(job.work).gpu_type, spec.gpu_type);
      EXPECT_GE(std::get<MeasuredWork>(job.work).seconds, 1.0);
      continue;
    }
    ++training;
    EXPECT_GE(work->iterations, 1u);
    EXPECT_LE(work->iterations, spec.max_iterations);
    EXPECT_GE(work->gradient_bytes, spec.gradient_bytes_min);
    EXPECT_LE(work->gradient_bytes, spec.gradient_bytes_max * (1 + 1e-12));
    const double compute_seconds = work->flops_per_iteration * work->iterations / spec.gpu_flops;
    EXPECT_GE(compute_seconds, 1.0 - 1e-9);
    if (work->iterations > 1 && work->iterations < spec.max_iterations) {
      // The iteration count rounds duration / iteration time.
      const double iteration_seconds = compute_seconds / work->iterations;
      EXPECT_GE(iteration_seconds, spec.iteration_time_min_s * 0.5) << job.id;
      EXPECT_LE(iteration_seconds, spec.iteration_time_max_s * 1.5) << job.id;
    }
  }
  EXPECT_NEAR(training / 4000.0, 0.3, 0.02);
}

TEST(SyntheticGenerator, DurationMedianMatchesTheSpec) {
  SyntheticWorkloadSpec spec = many_jobs(20001);
  spec.training_share = 0;
  std::vector<double> durations;
  for (const JobSpec& job : generate_synthetic_workload(spec, 16))
    durations.push_back(std::get<MeasuredWork>(job.work).seconds);
  std::nth_element(durations.begin(), durations.begin() + 10000, durations.end());
  EXPECT_NEAR(durations[10000], spec.duration_median_s, 0.05 * spec.duration_median_s);
}

TEST(SyntheticGenerator, UsersKeepTheirQueue) {
  SyntheticWorkloadSpec spec = many_jobs(1000);
  spec.users = 3;
  spec.queues = {"a", "b"};
  std::map<std::string, std::set<std::string>> queues_of_user;
  for (const JobSpec& job : generate_synthetic_workload(spec, 17)) queues_of_user[job.user].insert(job.queue);
  ASSERT_EQ(queues_of_user.size(), 3u);
  EXPECT_EQ(queues_of_user["user-1"], std::set<std::string>{"a"});
  EXPECT_EQ(queues_of_user["user-2"], std::set<std::string>{"b"});
  EXPECT_EQ(queues_of_user["user-3"], std::set<std::string>{"a"});
}

TEST(SyntheticGenerator, IdsAreNumberedInSubmitOrder) {
  const auto jobs = generate_synthetic_workload(many_jobs(12), 18);
  EXPECT_EQ(jobs.front().id, "job-0001");
  EXPECT_EQ(jobs.back().id, "job-0012");
}

TEST(SyntheticGenerator, RejectsAnInconsistentSpec) {
  SyntheticWorkloadSpec spec;
  spec.gpu_count_weights.clear();
  EXPECT_THROW(generate_synthetic_workload(spec, 1), std::invalid_argument);
  spec = SyntheticWorkloadSpec();
  spec.training_share = 1.5;
  EXPECT_THROW(generate_synthetic_workload(spec, 1), std::invalid_argument);
}

void expect_spec_rejected(const std::string& text, const std::string& field) {
  try {
    synthetic_spec_from_json(nlohmann::json::parse(text), "synth.json");
    ADD_FAILURE() << "accepted: " << text;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("synth.json"), std::string::npos) << what;
    EXPECT_NE(what.find("'" + field + "'"), std::string::npos) << what;
  }
}

TEST(SyntheticGenerator, EveryJobSavesAtPreemptionUnlessToldOtherwise) {
  SyntheticWorkloadSpec spec = many_jobs(50);
  for (const JobSpec& job : generate_synthetic_workload(spec, 3)) {
    EXPECT_TRUE(job.checkpoint.at_preemption) << job.id;
    EXPECT_EQ(job.checkpoint.interval, 0) << job.id;
  }
  spec.checkpoint_at_preemption = false;
  for (const JobSpec& job : generate_synthetic_workload(spec, 3)) EXPECT_FALSE(job.checkpoint.at_preemption) << job.id;
}

TEST(SyntheticSpecJson, ReadsTheCheckpointMode) {
  EXPECT_FALSE(
      synthetic_spec_from_json(nlohmann::json::parse(R"({"checkpoint": "none"})"), "s.json").checkpoint_at_preemption);
  EXPECT_TRUE(synthetic_spec_from_json(nlohmann::json::parse(R"({"checkpoint": "at_preemption"})"), "s.json")
                  .checkpoint_at_preemption);
  expect_spec_rejected(R"({"checkpoint": "periodic"})", "checkpoint");
  expect_spec_rejected(R"({"checkpoint": true})", "checkpoint");
}

TEST(SyntheticSpecJson, ReadsFieldsWithUnitsAndKeepsDefaultsForTheRest) {
  const auto doc = nlohmann::json::parse(R"({
    "jobs": 40, "mean_interarrival": "5min", "gpu_count_weights": {"16": 0.1, "2": 0.3, "1": 0.6},
    "duration_median": "1h", "queues": ["research", "production"], "gradient_bytes_max": "1.36GB"})");
  const SyntheticWorkloadSpec spec = synthetic_spec_from_json(doc, "synth.json");
  EXPECT_EQ(spec.jobs, 40u);
  EXPECT_EQ(spec.mean_interarrival_s, 300.0);
  const std::vector<std::pair<std::uint32_t, double>> weights = {{1, 0.6}, {2, 0.3}, {16, 0.1}};
  EXPECT_EQ(spec.gpu_count_weights, weights);  // ascending GPU counts, whatever the key order
  EXPECT_EQ(spec.duration_median_s, 3600.0);
  EXPECT_EQ(spec.queues, (std::vector<std::string>{"research", "production"}));
  EXPECT_EQ(spec.gradient_bytes_max, 1.36e9);
  EXPECT_EQ(spec.users, SyntheticWorkloadSpec().users);
  EXPECT_EQ(spec.gpu_type, SyntheticWorkloadSpec().gpu_type);
}

TEST(SyntheticSpecJson, RejectsUnknownFields) { expect_spec_rejected(R"({"job": 10})", "job"); }

TEST(SyntheticSpecJson, RejectsGpuCountKeysThatAreNotCounts) {
  expect_spec_rejected(R"({"gpu_count_weights": {"eight": 1}})", "eight");
  expect_spec_rejected(R"({"gpu_count_weights": {"0": 1}})", "0");
}

TEST(SyntheticSpecJson, RejectsNegativeWeights) { expect_spec_rejected(R"({"gpu_count_weights": {"1": -0.5}})", "1"); }

TEST(SyntheticSpecJson, RejectsAShareAboveOne) { expect_spec_rejected(R"({"training_share": 1.5})", "training_share"); }

TEST(SyntheticSpecJson, RejectsZeroJobs) { expect_spec_rejected(R"({"jobs": 0})", "jobs"); }

}  // namespace
}  // namespace gcsim
