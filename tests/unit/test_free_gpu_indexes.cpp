// Specification of the indexes a cluster view keeps so that placements need
// not visit every node and GPU: the best one-node fit, the partly free GPUs,
// and each node's free GPUs in order. Each must answer exactly what the
// scan it replaces (ClusterView's own implementation) answers, in the
// scheduler state as jobs come and go and in a tentative view over it.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policies/kit/shared_gpu_fit.hpp"
#include "policies/kit/tentative_cluster.hpp"
#include "policies/placement/pack_placement.hpp"
#include "sim/core/cluster_layout.hpp"
#include "sim/state/scheduler_state.hpp"
#include "tests/support/flat_locality.hpp"
#include "tests/support/policy_bench.hpp"

namespace gcsim {
namespace {

using testing::FlatLocality;

std::vector<GpuId> partly_free(const ClusterView& view, bool scanned) {
  std::vector<GpuId> gpus;
  const auto add = [&gpus](GpuId g) { gpus.push_back(g); };
  if (scanned)
    view.ClusterView::visit_partly_free_gpus(add);
  else
    view.visit_partly_free_gpus(add);
  std::sort(gpus.begin(), gpus.end());
  return gpus;
}

// The node's free GPUs from `from` on as the visit gives them, stopping after `most`.
std::vector<GpuId> free_of_node(const ClusterView& view, NodeId node, GpuId from, std::size_t most, bool scanned) {
  std::vector<GpuId> gpus;
  const auto add = [&](GpuId g) {
    gpus.push_back(g);
    return gpus.size() < most;
  };
  if (scanned)
    view.ClusterView::visit_free_gpus_of_node(node, from, add);
  else
    view.visit_free_gpus_of_node(node, from, add);
  return gpus;
}

void expect_indexes_agree_with_scans(const ClusterView& view, const std::string& when) {
  for (std::size_t need = 0; need <= 5; ++need)
    EXPECT_EQ(view.fullest_node_with_free(need), view.ClusterView::fullest_node_with_free(need))
        << when << ", need " << need;
  EXPECT_EQ(partly_free(view, false), partly_free(view, true)) << when;
  EXPECT_EQ(partly_free(view, false).size(), view.partly_free_gpu_count()) << when;
  for (NodeId n = 0; n < view.layout().node_count(); ++n) {
    for (std::size_t most : {1, 2, 4})
      for (GpuId from : {GpuId{0}, view.layout().node(n).gpus[1], view.layout().node(n).gpus[3]})
        EXPECT_EQ(free_of_node(view, n, from, most, false), free_of_node(view, n, from, most, true))
            << when << ", node " << n << ", from " << from << ", first " << most;
    EXPECT_EQ(view.free_gpus_per_node()[n], view.free_gpus_on_node(n)) << when << ", node " << n;
  }
}

// Whole and fractional jobs of 1 to 3 GPUs placed, finished and placed again
// in a seeded order on four nodes of four GPUs.
TEST(FreeGpuIndexes, AgreeWithTheScansAsJobsComeAndGo) {
  const ClusterLayout layout(testing::crafted_cluster(4, 4));
  FlatLocality locality;
  std::vector<JobSpec> jobs;
  const double shares[] = {1.0, 0.5, 0.25, 1.0, 0.7};
  for (int j = 0; j < 200; ++j) {
    JobSpec spec = testing::measured_job("j" + std::to_string(j), 1 + j % 3, 0);
    spec.gpu_share = shares[j % 5];
    jobs.push_back(spec);
  }
  SchedulerState state(layout, locality, jobs);
  for (JobIndex j = 0; j < jobs.size(); ++j) state.submit(j);
  const PackPlacement pack;
  std::mt19937 random(7);
  std::vector<JobIndex> running;
  int placed = 0, finished = 0;
  for (int step = 0; step < 400; ++step) {
    const std::string when = "step " + std::to_string(step);
    if (!running.empty() && random() % 3 == 0) {
      const std::size_t at = random() % running.size();
      state.finish(running[at], step);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(at));
      ++finished;
    } else if (!state.waiting().empty()) {
      const JobIndex job = state.waiting()[random() % state.waiting().size()];
      if (auto gpus = pack.place(jobs[job], state, {})) {
        Plan plan;
        plan.allocate(job, *gpus);
        state.apply(plan, step);
        running.push_back(job);
        ++placed;
      }
    }
    expect_indexes_agree_with_scans(state, "state, " + when);

    // A tentative view taking some free GPUs and giving back a running job's.
    TentativeCluster view(state);
    std::vector<GpuId> free_now;
    for (GpuId g = 0; g < layout.gpu_count(); ++g)
      if (state.is_free(g)) free_now.push_back(g);
    if (!free_now.empty()) view.take({free_now[random() % free_now.size()]}, jobs[0]);
    if (!running.empty()) {
      const JobIndex back = running[random() % running.size()];
      view.release(state.runtime(back).gpus, jobs[back]);
    }
    expect_indexes_agree_with_scans(view, "tentative view, " + when);
    // Jobs placed one after another in the view, as a policy's call does:
    // each takes the first free GPUs of a node, and one is given back.
    std::vector<GpuId> taken_here;
    for (int k = 0; k < 4; ++k) {
      const NodeId node = random() % layout.node_count();
      std::vector<GpuId> first_free;
      view.visit_free_gpus_of_node(node, 0, [&](GpuId g) {
        first_free.push_back(g);
        return first_free.size() < 1 + static_cast<std::size_t>(k % 2);
      });
      view.take(first_free);
      taken_here.insert(taken_here.end(), first_free.begin(), first_free.end());
      expect_indexes_agree_with_scans(view, "tentative view after take " + std::to_string(k) + ", " + when);
      if (k == 2 && !taken_here.empty()) {
        view.free({taken_here[random() % taken_here.size()]});
        expect_indexes_agree_with_scans(view, "tentative view after a give-back, " + when);
      }
    }
    if (HasFailure()) return;
  }
  // The walk went through full and empty nodes both ways.
  EXPECT_GT(placed, 100);
  EXPECT_GT(finished, 50);
}

}  // namespace
}  // namespace gcsim
