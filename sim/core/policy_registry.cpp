#include "sim/core/policy_registry.hpp"

namespace gcsim {
namespace {

template <typename Map>
std::string known_names(const Map& map) {
  std::string names;
  for (const auto& [name, entry] : map) names += (names.empty() ? "" : ", ") + name;
  return names;
}

}  // namespace

PolicyOptions PolicyOptions::from_pairs(const std::vector<std::string>& pairs, std::uint64_t seed) {
  PolicyOptions options;
  for (const std::string& pair : pairs) {
    const auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) throw std::invalid_argument("expected KEY=VALUE, got '" + pair + "'");
    options[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  options.values_.emplace("seed", std::to_string(seed));
  return options;
}

std::vector<std::string> PolicyOptions::never_looked_up() const {
  std::vector<std::string> keys;
  for (const auto& [key, value] : values_)
    if (key != "seed" && !looked_up_.count(key)) keys.push_back(key);
  return keys;
}

void PolicyRegistry::add_policy(const std::string& name, std::string summary, std::string default_placement,
                                PolicyFactory factory) {
  if (policies_.count(name)) throw std::logic_error("policy '" + name + "' registered twice");
  policies_[name] = {std::move(summary), std::move(default_placement), std::move(factory)};
}

void PolicyRegistry::add_placement(const std::string& name, std::string summary, PlacementFactory factory) {
  if (placements_.count(name)) throw std::logic_error("placement '" + name + "' registered twice");
  placements_[name] = {std::move(summary), std::move(factory)};
}

std::unique_ptr<SchedulingPolicy> PolicyRegistry::make_policy_reporting_unused(const std::string& name,
                                                                               const PolicyOptions& options,
                                                                               const std::string& placement,
                                                                               std::vector<std::string>& unused) const {
  auto it = policies_.find(name);
  if (it == policies_.end())
    throw UnknownPolicy("unknown policy '" + name + "' (known: " + known_names(policies_) + ")");
  const std::string& chosen = placement.empty() ? it->second.default_placement : placement;
  auto policy = it->second.factory(options, chosen.empty() ? nullptr : make_placement(chosen, options));
  unused = options.never_looked_up();
  return policy;
}

std::unique_ptr<SchedulingPolicy> PolicyRegistry::make_policy(const std::string& name, const PolicyOptions& options,
                                                              const std::string& placement) const {
  std::vector<std::string> unused;
  auto policy = make_policy_reporting_unused(name, options, placement, unused);
  if (!unused.empty())
    throw std::invalid_argument("policy '" + name + "'" + (placement.empty() ? "" : " with placement '" + placement + "'") +
                                " takes no option '" + unused.front() + "'");
  return policy;
}

std::unique_ptr<PlacementPolicy> PolicyRegistry::make_placement(const std::string& name,
                                                                const PolicyOptions& options) const {
  auto it = placements_.find(name);
  if (it == placements_.end())
    throw UnknownPolicy("unknown placement '" + name + "' (known: " + known_names(placements_) + ")");
  return it->second.factory(options);
}

std::vector<PolicyRegistry::Entry> PolicyRegistry::policies() const {
  std::vector<Entry> out;
  for (const auto& [name, e] : policies_) out.push_back({name, e.summary});
  return out;
}

std::vector<PolicyRegistry::Entry> PolicyRegistry::placements() const {
  std::vector<Entry> out;
  for (const auto& [name, e] : placements_) out.push_back({name, e.summary});
  return out;
}

}  // namespace gcsim
