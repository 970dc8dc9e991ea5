// smallest_first_policy.cpp: a complete out-of-tree gcsim policy.
//
// Semantics: waiting jobs are served smallest GPU request first (ties:
// submission order), each on the first free GPUs in node order that have
// enough memory, of a type it allows, all of one type unless the job allows
// several (the engine rejects a plan that mixes types for a job that does
// not); a job that does not fit is skipped, never blocking smaller ones. It favours many small jobs over few large
// ones, which can starve.
//
// Build it against an installed gcsim (see CMakeLists.txt beside this file):
//   cmake -S examples/policy_plugin -B build-plugin -DCMAKE_PREFIX_PATH=/usr/local
//   cmake --build build-plugin
//   gcsim run --plugin build-plugin/libsmallest_first.so --policy smallest-first ...
#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "sim/core/plugin_api.hpp"

namespace {

using namespace gcsim;

class SmallestFirstPolicy final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "smallest-first"; }

  void schedule(const SchedulingContext& ctx, Plan& plan) override {
    std::vector<JobIndex> order = ctx.jobs.waiting();  // already in submission order
    std::stable_sort(order.begin(), order.end(),
                     [&](JobIndex a, JobIndex b) { return ctx.jobs.spec(a).gpus < ctx.jobs.spec(b).gpus; });
    std::vector<bool> taken(ctx.cluster.layout().gpu_count(), false);
    for (JobIndex job : order) {
      if (!ctx.jobs.runtime(job).gpus.empty()) continue;  // holds GPUs from another policy's decision
      if (auto gpus = first_fit(ctx.jobs.spec(job), ctx.cluster, taken)) {
        for (GpuId g : *gpus) taken[g] = true;
        plan.allocate(job, std::move(*gpus));
      }
    }
  }

 private:
  static std::optional<std::vector<GpuId>> first_fit(const JobSpec& job, const ClusterView& cluster,
                                                     const std::vector<bool>& taken) {
    const ClusterLayout& layout = cluster.layout();
    const bool mix = may_mix_gpu_types(job);
    // The usable GPUs met so far, per type (one list when types may mix): the first list to hold the job wins.
    std::vector<std::vector<GpuId>> by_type(mix ? 1 : layout.spec().gpu_types.size());
    for (GpuId g = 0; g < layout.gpu_count(); ++g) {
      const GpuType& type = layout.gpu_type_of(g);
      if (!cluster.is_free(g) || taken[g] || type.memory_bytes < job.gpu_memory_bytes ||
          !allows_gpu_type(job, type.name))
        continue;
      std::vector<GpuId>& gpus = by_type[mix ? 0 : layout.gpu_type_index(g)];
      gpus.push_back(g);
      if (gpus.size() == job.gpus) return gpus;
    }
    return std::nullopt;
  }
};

}  // namespace

extern "C" int gcsim_plugin_api_version() { return GCSIM_PLUGIN_API_VERSION; }

extern "C" void gcsim_register_plugin(gcsim::PolicyRegistry& registry) {
  registry.add_policy("smallest-first", "smallest GPU request first, no head-of-line blocking (plugin example)", "",
                      [](const gcsim::PolicyOptions&, std::unique_ptr<gcsim::PlacementPolicy>) {
                        return std::make_unique<SmallestFirstPolicy>();
                      });
}
