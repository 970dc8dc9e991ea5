#include "policies/register_builtin.hpp"

#include "policies/fifo/fifo_policy.hpp"
#include "policies/gang/gang_policy.hpp"
#include "policies/incremental/incremental_policy.hpp"
#include "policies/piecemeal/piecemeal_policy.hpp"
#include "policies/placement/pack_placement.hpp"

namespace gcsim {

void register_builtin(PolicyRegistry& registry) {
  registry.add_placement("pack", "fewest nodes, then fewest racks; best fit on a single node",
                         [](const PolicyOptions&) { return std::make_unique<PackPlacement>(); });

  registry.add_policy("fifo", "strict submission order, head-of-line blocking", "pack",
                      [](const PolicyOptions&, std::unique_ptr<PlacementPolicy> placement) {
                        return std::make_unique<FifoPolicy>(std::move(placement));
                      });
  registry.add_policy("gang", "all-or-nothing: a job gets its whole GPU set in one transaction or nothing", "pack",
                      GangPolicy::create);
  registry.add_policy("incremental",
                      "hyperparameter studies start on one trial and grow to their maximum as GPUs free up; "
                      "they shrink to their minimum for higher-priority jobs",
                      "pack", [](const PolicyOptions&, std::unique_ptr<PlacementPolicy> placement) {
                        return std::make_unique<IncrementalPolicy>(std::move(placement));
                      });
  registry.add_policy("piecemeal", "non-gang baseline: GPUs granted one at a time and held; can deadlock", "",
                      [](const PolicyOptions& options, std::unique_ptr<PlacementPolicy>) {
                        return PiecemealPolicy::create(options);
                      });
}

}  // namespace gcsim
