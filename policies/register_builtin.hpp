// register_builtin.hpp: the one list of the policies and placements shipped
// with gcsim.
//
//   PolicyRegistry registry;
//   register_builtin(registry);
#pragma once

#include "sim/core/policy_registry.hpp"

namespace gcsim {

void register_builtin(PolicyRegistry& registry);

}  // namespace gcsim
