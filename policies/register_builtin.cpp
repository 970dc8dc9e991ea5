#include "policies/register_builtin.hpp"

#include "policies/fifo/fifo_policy.hpp"
#include "policies/placement/pack_placement.hpp"

namespace gcsim {

void register_builtin(PolicyRegistry& registry) {
  registry.add_placement("pack", "fewest nodes, then fewest racks; best fit on a single node",
                         [](const PolicyOptions&) { return std::make_unique<PackPlacement>(); });

  registry.add_policy("fifo", "strict submission order, head-of-line blocking", "pack",
                      [](const PolicyOptions&, std::unique_ptr<PlacementPolicy> placement) {
                        return std::make_unique<FifoPolicy>(std::move(placement));
                      });
}

}  // namespace gcsim
