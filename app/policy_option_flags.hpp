// policy_option_flags.hpp: `--policy-opt KEY=VALUE` flags as PolicyOptions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/policy_registry.hpp"

namespace gcsim {

/// Throws UsageError naming the malformed flag.
PolicyOptions policy_options(const std::vector<std::string>& pairs, std::uint64_t seed);

}  // namespace gcsim
