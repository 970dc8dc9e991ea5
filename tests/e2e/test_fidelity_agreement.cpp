// The job fidelity (constant activities per job) agrees with the iteration
// fidelity (every iteration simulated) within 5%.
#include <gtest/gtest.h>

#include <ostream>

#include <cmath>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

struct AgreementCase {
  const char* name;
  CraftedCluster cluster;
  std::vector<nlohmann::json> jobs;
};

CraftedCluster nodes(int count, int gpus) {
  CraftedCluster c;
  c.nodes = count;
  c.gpus_per_node = gpus;
  return c;
}

void PrintTo(const AgreementCase& c, std::ostream* os) { *os << c.name; }

class FidelityAgreement : public ::testing::TestWithParam<AgreementCase> {};

TEST_P(FidelityAgreement, JobCompletionTimesWithinFivePercent) {
  const AgreementCase& c = GetParam();
  ScratchDir dir;
  const auto cluster = dir.write("cluster.json", c.cluster.to_json());
  const auto workload = dir.write("jobs.json", workload_json(c.jobs));
  ASSERT_EQ(run_simulation(cluster, workload, dir / "job", {"--fidelity", "job"}).exit_code, 0);
  ASSERT_EQ(run_simulation(cluster, workload, dir / "iteration", {"--fidelity", "iteration"}).exit_code, 0);
  const auto coarse = read_jobs_csv(dir / "job");
  const auto exact = read_jobs_csv(dir / "iteration");
  ASSERT_EQ(coarse.size(), c.jobs.size());
  for (const auto& [id, row] : exact) {
    SCOPED_TRACE(id);
    EXPECT_EQ(coarse.at(id).placement, row.placement);
    EXPECT_LE(std::abs(coarse.at(id).jct - row.jct), 0.05 * row.jct)
        << "job fidelity " << coarse.at(id).jct << " s, iteration fidelity " << row.jct << " s";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Scenarios, FidelityAgreement,
    ::testing::Values(
        AgreementCase{"uncontended_single_node", nodes(1, 8), {training_job("a", 0, 8, 3e11, 100e6, 200)}},
        AgreementCase{"uncontended_two_nodes", nodes(2, 4), {training_job("a", 0, 8, 3e11, 400e6, 100)}},
        AgreementCase{"latency_bound_ring", nodes(1, 8), {training_job("a", 0, 8, 1e8, 1e4, 300)}},
        AgreementCase{"two_jobs_sharing_a_nic",
                      nodes(3, 2),
                      {training_job("a", 0, 3, 1e9, 300e6, 50), training_job("b", 0, 3, 1e9, 300e6, 50)}},
        // A communication-bound and a compute-bound job through one NIC: their
        // phases interleave iteration by iteration, which merged rounds approximate.
        AgreementCase{"comm_bound_and_compute_bound_sharing_a_nic",
                      nodes(3, 2),
                      {training_job("a", 0, 3, 1e9, 300e6, 50), training_job("b", 0, 3, 1e11, 300e6, 50)}},
        AgreementCase{"misaligned_phases_sharing_a_nic",
                      nodes(3, 2),
                      {training_job("a", 0, 3, 5e10, 300e6, 50), training_job("b", 0.3, 3, 2e11, 100e6, 40)}},
        AgreementCase{"queued_jobs_one_node",
                      nodes(1, 8),
                      {training_job("a", 0, 8, 2e11, 100e6, 100), training_job("b", 1, 4, 5e11, 50e6, 50),
                       training_job("c", 2, 4, 1e11, 200e6, 80)}}),
    [](const ::testing::TestParamInfo<AgreementCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace gcsim::testing
