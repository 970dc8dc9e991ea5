// plugin_loader.hpp: loads out-of-tree policy libraries (sim/core/plugin_api.hpp).
//
//   load_policy_plugin("build/libsmallest_first.so", registry);  // UsageError if unusable
#pragma once

#include <string>

#include "sim/core/policy_registry.hpp"

namespace gcsim {

/// Opens the library, checks its API version and registers its policies.
/// The library stays loaded until the process ends (its code backs the
/// policies). Throws UsageError naming the path and the reason.
void load_policy_plugin(const std::string& path, PolicyRegistry& registry);

}  // namespace gcsim
