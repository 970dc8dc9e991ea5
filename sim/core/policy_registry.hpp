// policy_registry.hpp: policies and placements by name.
//
// Registration is explicit (policies/register_builtin.cpp), never by static
// initialisers, which a static library silently drops. Adding a policy adds a
// line there and edits no engine file.
//
//   PolicyRegistry registry;
//   register_builtin(registry);
//   auto policy = registry.make_policy("fifo", options);  // throws UnknownPolicy
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/policy.hpp"

namespace gcsim {

/// Free-form key=value options from the command line (`--policy-opt k=v`).
using PolicyOptions = std::map<std::string, std::string>;

class UnknownPolicy : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class PolicyRegistry {
 public:
  using PlacementFactory = std::function<std::unique_ptr<PlacementPolicy>(const PolicyOptions&)>;
  /// A scheduling policy receives its placement (chosen by `--placement` or its default).
  using PolicyFactory = std::function<std::unique_ptr<SchedulingPolicy>(const PolicyOptions&,
                                                                        std::unique_ptr<PlacementPolicy>)>;

  void add_policy(const std::string& name, std::string summary, std::string default_placement,
                  PolicyFactory factory);
  void add_placement(const std::string& name, std::string summary, PlacementFactory factory);

  /// Throws UnknownPolicy listing the known names.
  std::unique_ptr<SchedulingPolicy> make_policy(const std::string& name, const PolicyOptions& options,
                                                const std::string& placement = "") const;
  std::unique_ptr<PlacementPolicy> make_placement(const std::string& name, const PolicyOptions& options) const;

  struct Entry {
    std::string name, summary;
  };
  std::vector<Entry> policies() const;
  std::vector<Entry> placements() const;

 private:
  struct PolicyEntry {
    std::string summary, default_placement;
    PolicyFactory factory;
  };
  struct PlacementEntry {
    std::string summary;
    PlacementFactory factory;
  };
  std::map<std::string, PolicyEntry> policies_;
  std::map<std::string, PlacementEntry> placements_;
};

}  // namespace gcsim
