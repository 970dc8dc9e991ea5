// plugin_api.hpp: what a policy library built outside gcsim exports.
//
// A plugin is a shared library that defines the two functions below with C
// linkage. gcsim loads it with `gcsim run --plugin libmine.so --policy mine`,
// checks the API version, then lets it add its policies and placements to the
// registry, exactly as policies/register_builtin.cpp does for the built-in ones.
// Build it against the installed headers (find_package(gcsim) gives the target
// gcsim::plugin_api); examples/policy_plugin/ is a complete one.
//
//   extern "C" int gcsim_plugin_api_version() { return GCSIM_PLUGIN_API_VERSION; }
//   extern "C" void gcsim_register_plugin(gcsim::PolicyRegistry& registry) {
//     registry.add_policy("mine", "what it does", "", make_mine);
//   }
#pragma once

#include "sim/core/policy_registry.hpp"

/// Bumped whenever a header a plugin sees changes incompatibly.
#define GCSIM_PLUGIN_API_VERSION 2  // 2: SchedulingPolicy::check_invariants()

extern "C" {
/// Returns GCSIM_PLUGIN_API_VERSION as the plugin was compiled with it.
int gcsim_plugin_api_version();
/// Adds the plugin's policies and placements.
void gcsim_register_plugin(gcsim::PolicyRegistry& registry);
}
