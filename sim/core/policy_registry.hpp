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
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/policy.hpp"

namespace gcsim {

/// Key=value options for a policy and its placement (`--policy-opt k=v`),
/// read by the factories with the typed readers (flag, number) or with
/// find(), count() or at(). The registry rejects any option no factory looked
/// up, so a misspelt option is an error rather than silently ignored, and
/// prefixes a factory's std::invalid_argument with the policy's name. "seed"
/// is always given and never required.
///
///   bool preemptive = options.flag("preemptive", true);
///   Time timeout = options.number("hold_timeout", kNever, PolicyOptions::Above{0});
class PolicyOptions {
 public:
  using Map = std::map<std::string, std::string>;
  using const_iterator = Map::const_iterator;

  /// Lower bounds of a number: at least `value`, or strictly above it.
  struct AtLeast {
    double value;
  };
  struct Above {
    double value;
  };

  PolicyOptions() = default;
  PolicyOptions(std::initializer_list<Map::value_type> values) : values_(values) {}

  /// Parses "KEY=VALUE" pairs; throws std::invalid_argument on a pair without '=' or key.
  static PolicyOptions from_pairs(const std::vector<std::string>& pairs, std::uint64_t seed);

  const_iterator find(const std::string& key) const {
    looked_up_.insert(key);
    return values_.find(key);
  }
  std::size_t count(const std::string& key) const {
    looked_up_.insert(key);
    return values_.count(key);
  }
  const std::string& at(const std::string& key) const {
    looked_up_.insert(key);
    return values_.at(key);
  }
  /// "true" or "false"; `fallback` when absent. Otherwise std::invalid_argument:
  /// "option KEY must be true or false, got 'TEXT'".
  bool flag(const std::string& key, bool fallback) const;
  /// A finite number within the bound; `fallback` (not checked) when absent.
  /// Otherwise std::invalid_argument: "option KEY must be a number >= 0, got 'TEXT'".
  double number(const std::string& key, double fallback, AtLeast bound) const;
  double number(const std::string& key, double fallback, Above bound) const;
  /// A comma-separated list of numbers, each within the bound; `fallback` when absent.
  std::vector<double> numbers(const std::string& key, std::vector<double> fallback, Above bound) const;

  const_iterator begin() const { return values_.begin(); }
  const_iterator end() const { return values_.end(); }
  bool empty() const { return values_.empty(); }
  std::string& operator[](const std::string& key) { return values_[key]; }

  /// Options given but never looked up, "seed" aside.
  std::vector<std::string> never_looked_up() const;

 private:
  Map values_;
  mutable std::set<std::string> looked_up_;
};

class UnknownPolicy : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class PolicyRegistry {
 public:
  using PlacementFactory = std::function<std::unique_ptr<PlacementPolicy>(const PolicyOptions&)>;
  /// A scheduling policy receives its placement (chosen by `--placement` or its default).
  using PolicyFactory =
      std::function<std::unique_ptr<SchedulingPolicy>(const PolicyOptions&, std::unique_ptr<PlacementPolicy>)>;

  /// A policy that wraps another, named "WRAPPER:INNER" (`power-budget:fifo`):
  /// it receives the inner policy, made with the same options and placement.
  using WrapperFactory =
      std::function<std::unique_ptr<SchedulingPolicy>(const PolicyOptions&, std::unique_ptr<SchedulingPolicy>)>;

  void add_policy(const std::string& name, std::string summary, std::string default_placement, PolicyFactory factory);
  void add_wrapper(const std::string& name, std::string summary, WrapperFactory factory);
  void add_placement(const std::string& name, std::string summary, PlacementFactory factory);

  /// `name` is a policy's, or "WRAPPER:NAME" for a wrapper around one. Throws
  /// UnknownPolicy listing the known names, and std::invalid_argument for an
  /// option neither the policy, its wrapper nor its placement takes.
  std::unique_ptr<SchedulingPolicy> make_policy(const std::string& name, const PolicyOptions& options,
                                                const std::string& placement = "") const;
  /// As make_policy, but options nobody looked up are returned in `unused`
  /// instead of rejected (a comparison hands each policy only its own options).
  std::unique_ptr<SchedulingPolicy> make_policy_reporting_unused(const std::string& name, const PolicyOptions& options,
                                                                 const std::string& placement,
                                                                 std::vector<std::string>& unused) const;
  std::unique_ptr<PlacementPolicy> make_placement(const std::string& name, const PolicyOptions& options) const;

  struct Entry {
    std::string name, summary;
  };
  std::vector<Entry> policies() const;
  std::vector<Entry> placements() const;
  std::vector<Entry> wrappers() const;

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
  struct WrapperEntry {
    std::string summary;
    WrapperFactory factory;
  };
  std::map<std::string, WrapperEntry> wrappers_;
};

}  // namespace gcsim
