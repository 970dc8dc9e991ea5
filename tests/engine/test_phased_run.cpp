// PhasedWork run by the engine (sim/core/phased_work.hpp): a phase's
// computation, then its exchange's flows carrying every message of the
// step's iterations, then the latencies the merged messages did not pay;
// alone and sharing a NIC with another job, at both fidelities.
//
// Counted by hand. Two nodes of 2 GPUs of 1e12 FLOP/s; NVLink 1e11 B/s, no
// latency; each node's NIC 1e9 B/s each way, 5e-4 s (a transfer between
// nodes: 1e-3 s of latency). A job of 2 ranks, one GPU on each node: per
// iteration a phase of 1e12 FLOPs (1 s), then a phase exchanging 2 messages
// of a ring step of 1e9 bytes among its 2 ranks (0 -> 1 and 1 -> 0: one
// flow each way on each NIC). Alone, an iteration: 1 s + (1e-3 + 2e9 / 1e9)
// s + the second message's latency 1e-3 s = 3.002 s; 2 iterations 6.004 s.
// Merged into one round (job fidelity, 1 round): 2 s of computation, one
// flow of 4e9 bytes (1e-3 + 4 s), then 2 x 2e-3 - 1e-3 s: 6.004 s again.
// Two such jobs on the other GPUs of the same nodes share each NIC
// direction: each flow gets 0.5e9 B/s, an iteration 1 + 4.001 + 0.001 =
// 5.002 s, 10.004 s in all, at either fidelity.
//
// SimGrid runs one engine per process: each simulation runs in a child process.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <ostream>
#include <vector>

#include "policies/fifo/fifo_policy.hpp"
#include "sim/core/cluster_layout.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "tests/support/crafted_specs.hpp"

namespace gcsim {
namespace {

// One GPU on each node, the lowest free of each: a job of 2 spans both nodes.
class OnePerNode final : public PlacementPolicy {
 public:
  std::string_view name() const override { return "one-per-node"; }
  std::optional<std::vector<GpuId>> place(const JobSpec& job, const ClusterView& cluster,
                                          const std::vector<bool>& taken) const override {
    std::vector<GpuId> gpus;
    for (NodeId node = 0; node < cluster.layout().node_count() && gpus.size() < job.gpus; ++node)
      for (GpuId g : cluster.layout().node(node).gpus)
        if (cluster.is_free(g) && !(g < taken.size() && taken[g])) {
          gpus.push_back(g);
          break;
        }
    if (gpus.size() < job.gpus) return std::nullopt;
    return gpus;
  }
};

JobSpec phased_job(const std::string& id) {
  JobSpec job;
  job.id = id;
  job.gpus = 2;
  PhasedWork work;
  work.iterations = 2;
  WorkPhase compute;
  compute.flops = 1e12;
  WorkPhase exchange;
  exchange.exchanges = {{Exchange::kRingStep, {2, 1}, 1e9, 2}};
  work.phases = {compute, exchange};
  job.work = work;
  return job;
}

// The ends of `workload`'s jobs on `nodes` nodes of 2 GPUs (as above),
// simulated in a child process.
std::vector<double> ends(const std::vector<JobSpec>& workload, std::uint32_t nodes, Fidelity fidelity,
                         std::uint32_t job_rounds) {
  const std::size_t jobs = workload.size();
  int channel[2];
  if (pipe(channel) != 0) return {};
  const pid_t child = fork();
  if (child == 0) {
    ClusterSpec spec;
    spec.name = "nodes-of-two";
    spec.gpu_types = {GpuType{"g", 1e12, 16e9}};
    NodeGroup group = testing::crafted_node_group("n", nodes, 2, "g");
    group.intra = {1e11, 0};
    group.nic = {1e9, 5e-4};
    spec.node_groups = {group};
    spec.fabric.nodes_per_rack = nodes;
    const ClusterLayout layout(spec);
    const ClusterGraph locality(layout);
    FifoPolicy fifo(std::make_unique<OnePerNode>());
    SimulationOptions options;
    options.fidelity = fidelity;
    options.job_rounds = job_rounds;
    const RunRecord record = simulate({layout, locality, workload, fifo, options});
    std::vector<double> out;
    for (const JobOutcome& outcome : record.outcomes) out.push_back(outcome.end);
    const ssize_t wrote = write(channel[1], out.data(), out.size() * sizeof(double));
    _exit(wrote == static_cast<ssize_t>(out.size() * sizeof(double)) ? 0 : 1);
  }
  close(channel[1]);
  std::vector<double> out(jobs);
  const ssize_t got = read(channel[0], out.data(), jobs * sizeof(double));
  close(channel[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (got != static_cast<ssize_t>(jobs * sizeof(double)) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return {};
  return out;
}

std::vector<JobSpec> phased_jobs(std::size_t count) {
  std::vector<JobSpec> jobs;
  for (std::size_t j = 0; j < count; ++j) jobs.push_back(phased_job("j" + std::to_string(j)));
  return jobs;
}

TEST(PhasedRun, AloneAPhaseComputesThenItsFlowsCarryEveryMessageThenTheUnpaidLatencies) {
  for (const auto& [fidelity, rounds] : {std::pair{Fidelity::kIteration, 1u}, std::pair{Fidelity::kJob, 1u}}) {
    const std::vector<double> end = ends(phased_jobs(1), 2, fidelity, rounds);
    ASSERT_EQ(end.size(), 1u);
    EXPECT_NEAR(end[0], 6.004, 1e-9) << to_string(fidelity);
  }
}

TEST(PhasedRun, TwoJobsSharingTheNicsEachGetHalfOfThem) {
  for (const auto& [fidelity, rounds] : {std::pair{Fidelity::kIteration, 1u}, std::pair{Fidelity::kJob, 1u}}) {
    const std::vector<double> end = ends(phased_jobs(2), 2, fidelity, rounds);
    ASSERT_EQ(end.size(), 2u);
    EXPECT_NEAR(end[0], 10.004, 1e-9) << to_string(fidelity);
    EXPECT_NEAR(end[1], 10.004, 1e-9) << to_string(fidelity);
  }
}

// Each collective as traffic (docs/simulation-model.md, "Collectives"),
// counted by hand. 4 nodes of 2 GPUs (NICs 1e9 B/s each way, L = 1e-3 s
// between nodes); a job of 4 ranks, one a node, each holding S = 4e8 bytes;
// 2 iterations of one phase that only exchanges. A second such job on the
// other GPU of each node sends the same flows through the same NICs at the
// same instants: each flow gets half of its NIC.
//   reduce-scatter, all-gather: a ring step of S/4 = 1e8, 3 messages (n - 1
//     steps): each NIC direction one flow of 3e8 bytes, 0.3 s, after one
//     latency, then the 2 unpaid: 0.303 s an iteration, (n-1)(L + S/nB);
//     shared 0.603 s.
//   broadcast: 0 -> 1 -> 2 -> 3, S down the chain, each NIC one flow of 4e8,
//     0.4 s, after one latency, then the last rank's 2 more: 0.403 s,
//     (n-1) L + S/B; shared 0.803 s.
//   all-to-all: pieces of S/4 from each rank to the 3 others at once: each NIC
//     direction 3 flows of 1e8, 0.3 s, after one latency: 0.301 s,
//     L + (n-1) S/(nB); shared, 6 flows a NIC: 0.601 s.
//   point-to-point: 0 -> 1 and 2 -> 3 (chains of groups of 2), 4e8 each:
//     0.401 s, L + S/B; shared 0.801 s.
// At job fidelity (1 round) the flows carry both iterations' bytes after
// one latency, and the round's other latencies follow: the same ends.
struct CollectiveCase {
  const char* name;
  PhaseExchange exchange;
  double iteration_alone;
  double iteration_shared;
};

// A failure names the collective, not the case's bytes.
void PrintTo(const CollectiveCase& c, std::ostream* os) { *os << c.name; }

constexpr double kBuffer = 4e8;
const CollectiveCase kCollectives[] = {
    {"ReduceScatter", {Exchange::kRingStep, {4, 1}, kBuffer / 4, 3}, 0.303, 0.603},
    {"AllGather", {Exchange::kRingStep, {4, 1}, kBuffer / 4, 3}, 0.303, 0.603},
    {"Broadcast", {Exchange::kBroadcast, {4, 1}, kBuffer, 1}, 0.403, 0.803},
    {"AllToAll", {Exchange::kAllToAll, {4, 1}, kBuffer / 4, 1}, 0.301, 0.601},
    {"PointToPoint", {Exchange::kChainNext, {2, 1}, kBuffer, 1}, 0.401, 0.801},
};

class CollectiveTraffic : public ::testing::TestWithParam<CollectiveCase> {
 protected:
  static std::vector<JobSpec> jobs(std::size_t count) {
    std::vector<JobSpec> jobs;
    for (std::size_t j = 0; j < count; ++j) {
      JobSpec job;
      job.id = "j" + std::to_string(j);
      job.gpus = 4;
      PhasedWork work;
      work.iterations = 2;
      work.phases = {{0, {GetParam().exchange}}};
      job.work = work;
      jobs.push_back(job);
    }
    return jobs;
  }
};

TEST_P(CollectiveTraffic, AloneTakesItsClosedFormAtBothFidelities) {
  for (const Fidelity fidelity : {Fidelity::kIteration, Fidelity::kJob}) {
    const std::vector<double> end = ends(jobs(1), 4, fidelity, 1);
    ASSERT_EQ(end.size(), 1u);
    EXPECT_NEAR(end[0], 2 * GetParam().iteration_alone, 1e-9) << to_string(fidelity);
  }
}

TEST_P(CollectiveTraffic, SharingItsNicsWithAnotherJobGetsHalfOfThemAtBothFidelities) {
  for (const Fidelity fidelity : {Fidelity::kIteration, Fidelity::kJob}) {
    const std::vector<double> end = ends(jobs(2), 4, fidelity, 1);
    ASSERT_EQ(end.size(), 2u);
    for (double job_end : end) EXPECT_NEAR(job_end, 2 * GetParam().iteration_shared, 1e-9) << to_string(fidelity);
  }
}

INSTANTIATE_TEST_SUITE_P(HandCounted, CollectiveTraffic, ::testing::ValuesIn(kCollectives),
                         [](const ::testing::TestParamInfo<CollectiveCase>& info) { return info.param.name; });

}  // namespace
}  // namespace gcsim
