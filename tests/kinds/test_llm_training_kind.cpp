// Specification of the llm_training kind through the workload format's
// frame (workloads/kinds/llm_training/llm_training_kind.hpp): an entry read
// into the PhasedWork it compiles into, written back as "phased" and read
// again as the same work, checked against a cluster, and shared out to a
// study's trials; the bundled LLM workloads read and fit their clusters.
#include "workloads/kinds/llm_training/llm_training_kind.hpp"

#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/input_error.hpp"
#include "sim/topology/cluster_reader.hpp"
#include "workloads/kinds/kind_registry.hpp"
#include "workloads/kinds/llm_training/llm_phases.hpp"
#include "workloads/native_workload.hpp"
#include "workloads/workload_validation.hpp"

namespace gcsim {
namespace {

const std::string kDense = R"({"jobs": [{"id": "dense", "submit": 0, "gpus": 8,
    "llm_training": {"model": {"parameters": 50331648, "layers": 4, "hidden_size": 1024, "sequence_length": 2048,
                               "global_batch": 16},
                     "parallel": {"tensor": 2, "pipeline": 2, "data": 2}, "dp_overlap": 0.3, "iterations": 5}}]})";

std::vector<JobSpec> read_text(const std::string& text) {
  std::istringstream in(text);
  return read_native_workload(in, "w.json");
}

std::string source(const std::string& path) { return std::string(GCSIM_SOURCE_DIR) + "/" + path; }

void expect_same(const PhasedWork& a, const PhasedWork& b) {
  EXPECT_EQ(a.iterations, b.iterations);
  ASSERT_EQ(a.phases.size(), b.phases.size());
  for (std::size_t i = 0; i < a.phases.size(); ++i) {
    EXPECT_EQ(a.phases[i].flops, b.phases[i].flops);
    ASSERT_EQ(a.phases[i].exchanges.size(), b.phases[i].exchanges.size());
    for (std::size_t j = 0; j < a.phases[i].exchanges.size(); ++j) {
      EXPECT_EQ(a.phases[i].exchanges[j].exchange, b.phases[i].exchanges[j].exchange);
      EXPECT_EQ(a.phases[i].exchanges[j].groups.size, b.phases[i].exchanges[j].groups.size);
      EXPECT_EQ(a.phases[i].exchanges[j].groups.stride, b.phases[i].exchanges[j].groups.stride);
      EXPECT_EQ(a.phases[i].exchanges[j].bytes, b.phases[i].exchanges[j].bytes);
      EXPECT_EQ(a.phases[i].exchanges[j].messages, b.phases[i].exchanges[j].messages);
    }
  }
}

TEST(LlmTrainingKind, ReadsAnEntryIntoTheWorkItCompilesInto) {
  const std::vector<JobSpec> jobs = read_text(kDense);
  ASSERT_EQ(jobs.size(), 1u);
  const auto* work = std::get_if<PhasedWork>(&jobs[0].work);
  ASSERT_NE(work, nullptr);
  const nlohmann::json doc = nlohmann::json::parse(kDense);
  expect_same(*work, compile_llm_training(read_llm_training(JsonObject(doc["jobs"][0], {"w.json", "jobs[0]"}), 8)));
}

TEST(LlmTrainingKind, WritesThePhasesWhichReadBackAsTheSameWork) {
  const std::vector<JobSpec> jobs = read_text(kDense);
  std::ostringstream written;
  write_native_workload(written, jobs);
  EXPECT_NE(written.str().find("\"phased\""), std::string::npos) << written.str();
  const std::vector<JobSpec> again = read_text(written.str());
  ASSERT_EQ(again.size(), 1u);
  expect_same(std::get<PhasedWork>(again[0].work), std::get<PhasedWork>(jobs[0].work));
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  return text.replace(text.find(from), from.size(), to);
}

TEST(LlmTrainingKind, NamesTheFieldOfABadValueInTheWorkload) {
  try {
    read_text(replaced(kDense, "\"tensor\": 2", "\"tensor\": 4"));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "jobs[0] (id 'dense')");
    EXPECT_EQ(e.field(), "gpus");
  }
}

TEST(LlmTrainingKind, RefusesATensorGroupNoNodeHolds) {
  const ClusterLayout rack(read_cluster_file(source("scenarios/clusters/rack-32gpu.json")));  // 8-GPU nodes
  const std::string tp8 = replaced(kDense, "\"tensor\": 2, \"pipeline\": 2, \"data\": 2", "\"tensor\": 8");
  EXPECT_NO_THROW(validate_workload_against_cluster(read_text(tp8), rack, "w.json"));
  const std::string tp16 = replaced(replaced(tp8, "\"tensor\": 8", "\"tensor\": 16"), "\"gpus\": 8", "\"gpus\": 16");
  try {
    validate_workload_against_cluster(read_text(tp16), rack, "w.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "jobs[0] (id 'dense')");
    EXPECT_EQ(e.field(), "llm_training.parallel.tensor") << e.what();
  }
  // Written as phases, the same group is found: a ring among consecutive ranks stepping more than an allreduce.
  try {
    validate_workload_against_cluster(read_text(R"({"jobs": [{"id": "tp16", "submit": 0, "gpus": 16,
        "phased": {"iterations": 1, "phases": [{"exchanges": [
            {"exchange": "ring_step", "group_size": 16, "bytes": 1e6, "messages": 60}]}]}}]})"),
                                      rack, "w.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "llm_training.parallel.tensor") << e.what();
  }
}

TEST(LlmTrainingKind, AStudysTrialRunsAShareOfTheIterations) {
  const JobKind& kind = builtin_kinds().writer_of(read_text(kDense)[0].work);
  EXPECT_EQ(kind.trial_refusal(), "");
  const JobWork trial = kind.trial_work(read_text(kDense)[0].work, 0.5);
  EXPECT_EQ(std::get<PhasedWork>(trial).iterations, 3u);  // 2.5 rounded
  EXPECT_EQ(std::get<PhasedWork>(kind.trial_work(read_text(kDense)[0].work, 0.01)).iterations, 1u);
}

TEST(BundledLlmWorkloads, TwoJobsFitTheFiveHundredTwelveGpuCluster) {
  const std::vector<JobSpec> jobs = read_native_workload(source("scenarios/workloads/llm-two-jobs.json"));
  ASSERT_EQ(jobs.size(), 2u);
  const ClusterLayout layout(read_cluster_file(source("scenarios/clusters/cluster-512gpu.json")));
  EXPECT_NO_THROW(validate_workload_against_cluster(jobs, layout, "llm-two-jobs.json"));
}

TEST(BundledLlmWorkloads, TheMixedWeekFitsAThousandTwentyFourGpuCluster) {
  const std::vector<JobSpec> jobs = read_native_workload(source("scenarios/workloads/llm-mixed-week.json"));
  ASSERT_EQ(jobs.size(), 14u);
  ClusterSpec spec = read_cluster_file(source("scenarios/clusters/cluster-512gpu.json"));
  spec.node_groups[0].count = 128;  // 1,024 GPUs
  const ClusterLayout layout(spec);
  EXPECT_NO_THROW(validate_workload_against_cluster(jobs, layout, "llm-mixed-week.json"));
}

}  // namespace
}  // namespace gcsim
