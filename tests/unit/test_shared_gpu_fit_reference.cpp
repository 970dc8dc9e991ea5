// fit_on_shared_gpus() against a reference written from its specification
// (shared_gpu_fit.hpp): every GPU with room ranked best first (free share,
// then the node's free GPUs, then id), the job taking the first ones its
// hosts allow. The fit itself reads the partly free GPUs and then the free
// ones node by node, only as far as it needs; both must choose the same
// GPUs on seeded random occupancies, in the scheduler state and in
// tentative views over it.
#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "policies/kit/shared_gpu_fit.hpp"
#include "policies/kit/tentative_cluster.hpp"
#include "sim/core/cluster_layout.hpp"
#include "sim/state/scheduler_state.hpp"
#include "tests/support/flat_locality.hpp"
#include "tests/support/policy_bench.hpp"

namespace gcsim {
namespace {

using Gpus = std::vector<GpuId>;

std::optional<Gpus> reference_fit(const JobSpec& job, const ClusterView& view, const std::vector<bool>& taken) {
  const ClusterLayout& layout = view.layout();
  struct Ranked {
    double free_share;
    std::size_t free_on_node;
    GpuId gpu;
  };
  std::vector<Ranked> rooms;
  for (GpuId g = 0; g < layout.gpu_count(); ++g) {
    const NodeId n = layout.node_of(g);
    if ((g < taken.size() && taken[g]) || view.host_room(job, n) == 0) continue;
    if (view.free_share(g) + kGpuShareTolerance < job.gpu_share || view.free_memory(g) < job.gpu_memory_bytes) continue;
    rooms.push_back({view.free_share(g), view.free_gpus_on_node(n), g});
  }
  std::sort(rooms.begin(), rooms.end(), [](const Ranked& a, const Ranked& b) {
    return std::tie(a.free_share, a.free_on_node, a.gpu) < std::tie(b.free_share, b.free_on_node, b.gpu);
  });
  Gpus chosen;
  if (job.single_node) {
    for (const Ranked& first : rooms) {
      const NodeId n = layout.node_of(first.gpu);
      Gpus on_node;
      for (const Ranked& r : rooms)
        if (layout.node_of(r.gpu) == n && on_node.size() < job.gpus) on_node.push_back(r.gpu);
      if (on_node.size() == job.gpus && view.host_room(job, n) >= job.gpus) {
        chosen = on_node;
        break;
      }
    }
  } else {
    std::vector<std::size_t> on_node(layout.node_count(), 0);
    for (const Ranked& r : rooms) {
      const NodeId n = layout.node_of(r.gpu);
      if (chosen.size() == job.gpus || on_node[n] >= view.host_room(job, n)) continue;
      ++on_node[n];
      chosen.push_back(r.gpu);
    }
  }
  if (chosen.size() < job.gpus) return std::nullopt;
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

// Two node groups of different GPU types (memory 16 and 32 GB) and few host
// cores, so that cores, memory, types and single-node requests all bind.
ClusterSpec mixed_cluster() {
  ClusterSpec spec = testing::crafted_cluster(3, 4);
  spec.gpu_types.push_back(GpuType{"SMALL", 1e12, 16e9});
  NodeGroup small = testing::crafted_node_group("s", 2, 4, "SMALL");
  small.cpu_cores = 8;
  spec.node_groups.push_back(small);
  spec.node_groups.front().cpu_cores = 12;
  spec.fabric.nodes_per_rack = 5;
  return spec;
}

JobSpec random_job(std::mt19937& random, const std::string& id) {
  JobSpec job = testing::measured_job(id, 1 + random() % 4, 0);
  const double shares[] = {0.25, 0.5, 0.3, 0.7, 1.0};
  job.gpu_share = shares[random() % 5];
  if (random() % 3 == 0) job.gpu_memory_bytes = (random() % 2 == 0) ? 8e9 : 20e9;
  if (random() % 3 == 0) job.cpu_cores = 1 + random() % 10;
  if (random() % 4 == 0) job.single_node = true;
  if (random() % 6 == 0) job.gpu_types = {random() % 2 == 0 ? "GPU" : "SMALL"};
  // The fit itself mixes types; the placements keep a job to one
  // (test_one_gpu_type_placement.cpp). Its fits are applied as they are.
  job.mixed_gpu_types = true;
  return job;
}

TEST(SharedGpuFit, ChoosesWhatTheReferenceChoosesOnRandomOccupancies) {
  const ClusterLayout layout(mixed_cluster());
  testing::FlatLocality locality;
  std::mt19937 random(11);
  std::vector<JobSpec> jobs;
  for (int j = 0; j < 300; ++j) jobs.push_back(random_job(random, "j" + std::to_string(j)));
  SchedulerState state(layout, locality, jobs);
  for (JobIndex j = 0; j < jobs.size(); ++j) state.submit(j);
  std::vector<JobIndex> running;
  int compared = 0, found = 0, single_node_found = 0, fractional_placed = 0;
  for (int step = 0; step < 600; ++step) {
    // The occupancy moves: a job ends, or a waiting fractional one is placed.
    if (!running.empty() && random() % 3 == 0) {
      const std::size_t at = random() % running.size();
      state.finish(running[at], step);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(at));
    } else if (!state.waiting().empty()) {
      const JobIndex job = state.waiting()[random() % state.waiting().size()];
      if (jobs[job].gpu_share < 1)
        if (auto gpus = fit_on_shared_gpus(jobs[job], state, {})) {
          Plan plan;
          plan.allocate(job, *gpus);
          state.apply(plan, step);
          running.push_back(job);
          ++fractional_placed;
        }
    }
    // Queries on the state, and on a tentative view that takes a free GPU
    // whole and gives a running job's GPUs back, with some GPUs taken.
    TentativeCluster view(state);
    for (GpuId g = 0; g < layout.gpu_count(); ++g)
      if (state.is_free(g) && random() % 5 == 0) {
        view.take({g});
        break;
      }
    if (!running.empty()) {
      const JobIndex back = running[random() % running.size()];
      view.release(state.runtime(back).gpus, jobs[back]);
    }
    std::vector<bool> taken(layout.gpu_count(), false);
    for (GpuId g = 0; g < layout.gpu_count(); ++g) taken[g] = random() % 7 == 0;
    for (int q = 0; q < 4; ++q) {
      JobSpec query = random_job(random, "q");
      if (query.gpu_share >= 1) query.gpu_share = 0.4;
      for (const ClusterView* on : {static_cast<const ClusterView*>(&state), static_cast<const ClusterView*>(&view)})
        for (const std::vector<bool>& with : {std::vector<bool>{}, taken}) {
          const std::optional<Gpus> expected = reference_fit(query, *on, with);
          ASSERT_EQ(fit_on_shared_gpus(query, *on, with), expected)
              << "step " << step << ", query " << q << ": " << query.gpus << " x " << query.gpu_share
              << (query.single_node ? ", single node" : "") << ", cores " << query.cpu_cores << ", memory "
              << query.gpu_memory_bytes;
          ++compared;
          if (expected) ++found, single_node_found += query.single_node ? 1 : 0;
        }
    }
  }
  // The walk met both outcomes, single-node fits and a busy cluster.
  EXPECT_EQ(compared, 600 * 4 * 4);
  EXPECT_GT(found, compared / 4);
  EXPECT_LT(found, compared);
  EXPECT_GT(single_node_found, 50);
  EXPECT_GT(fractional_placed, 100);
}

}  // namespace
}  // namespace gcsim
