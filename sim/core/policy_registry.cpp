#include "sim/core/policy_registry.hpp"

#include <cmath>
#include <optional>
#include <sstream>

#include "sim/core/number_text.hpp"

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

namespace {

std::string bound_text(const char* relation, double value) {
  std::ostringstream text;
  text << relation << ' ' << value;
  return text.str();
}

}  // namespace

bool PolicyOptions::flag(const std::string& key, bool fallback) const {
  const auto it = find(key);
  if (it == end()) return fallback;
  if (it->second == "true") return true;
  if (it->second == "false") return false;
  throw std::invalid_argument("option " + key + " must be true or false, got '" + it->second + "'");
}

double PolicyOptions::number(const std::string& key, double fallback, AtLeast bound) const {
  const auto it = find(key);
  if (it == end()) return fallback;
  const std::optional<double> value = finite_number(it->second);
  if (!value || *value < bound.value)
    throw std::invalid_argument("option " + key + " must be a number " + bound_text(">=", bound.value) + ", got '" +
                                it->second + "'");
  return *value;
}

double PolicyOptions::number(const std::string& key, double fallback, Above bound) const {
  const auto it = find(key);
  if (it == end()) return fallback;
  const std::optional<double> value = finite_number(it->second);
  if (!value || !(*value > bound.value))
    throw std::invalid_argument("option " + key + " must be a number " + bound_text(">", bound.value) + ", got '" +
                                it->second + "'");
  return *value;
}

std::vector<double> PolicyOptions::numbers(const std::string& key, std::vector<double> fallback, Above bound) const {
  const auto it = find(key);
  if (it == end()) return fallback;
  std::vector<double> values;
  std::stringstream items(it->second);
  std::string item;
  while (std::getline(items, item, ',')) {
    const std::optional<double> value = finite_number(item);
    if (!value || !(*value > bound.value))
      throw std::invalid_argument("option " + key + " must be a list of numbers " + bound_text(">", bound.value) +
                                  ", got '" + it->second + "'");
    values.push_back(*value);
  }
  if (values.empty() || it->second.back() == ',')
    throw std::invalid_argument("option " + key + " must be a list of numbers " + bound_text(">", bound.value) +
                                ", got '" + it->second + "'");
  return values;
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

void PolicyRegistry::add_wrapper(const std::string& name, std::string summary, WrapperFactory factory) {
  if (wrappers_.count(name) || policies_.count(name)) throw std::logic_error("policy '" + name + "' registered twice");
  wrappers_[name] = {std::move(summary), std::move(factory)};
}

void PolicyRegistry::add_placement(const std::string& name, std::string summary, PlacementFactory factory) {
  if (placements_.count(name)) throw std::logic_error("placement '" + name + "' registered twice");
  placements_[name] = {std::move(summary), std::move(factory)};
}

std::unique_ptr<SchedulingPolicy> PolicyRegistry::make_policy_reporting_unused(const std::string& name,
                                                                               const PolicyOptions& options,
                                                                               const std::string& placement,
                                                                               std::vector<std::string>& unused) const {
  // A registered name holding ':' ("python:Mine") is a policy's, not a wrapper's.
  if (const std::size_t colon = name.find(':'); colon != std::string::npos && !policies_.count(name)) {
    const std::string wrapper = name.substr(0, colon);
    const auto w = wrappers_.find(wrapper);
    if (w == wrappers_.end())
      throw UnknownPolicy("unknown policy wrapper '" + wrapper + "' (known: " + known_names(wrappers_) + ")");
    std::unique_ptr<SchedulingPolicy> inner =
        make_policy_reporting_unused(name.substr(colon + 1), options, placement, unused);
    try {
      std::unique_ptr<SchedulingPolicy> policy = w->second.factory(options, std::move(inner));
      unused = options.never_looked_up();
      return policy;
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(wrapper + ": " + e.what());  // a bad option value, named with its wrapper
    }
  }
  auto it = policies_.find(name);
  if (it == policies_.end())
    throw UnknownPolicy("unknown policy '" + name + "' (known: " + known_names(policies_) + ")");
  const std::string& chosen = placement.empty() ? it->second.default_placement : placement;
  std::unique_ptr<SchedulingPolicy> policy;
  try {
    policy = it->second.factory(options, chosen.empty() ? nullptr : make_placement(chosen, options));
  } catch (const UnknownPolicy&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(name + ": " + e.what());  // a bad option value, named with its policy
  }
  unused = options.never_looked_up();
  return policy;
}

std::unique_ptr<SchedulingPolicy> PolicyRegistry::make_policy(const std::string& name, const PolicyOptions& options,
                                                              const std::string& placement) const {
  std::vector<std::string> unused;
  auto policy = make_policy_reporting_unused(name, options, placement, unused);
  if (!unused.empty())
    throw std::invalid_argument("policy '" + name + "'" +
                                (placement.empty() ? "" : " with placement '" + placement + "'") +
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

std::vector<PolicyRegistry::Entry> PolicyRegistry::wrappers() const {
  std::vector<Entry> out;
  for (const auto& [name, e] : wrappers_) out.push_back({name, e.summary});
  return out;
}

std::vector<PolicyRegistry::Entry> PolicyRegistry::placements() const {
  std::vector<Entry> out;
  for (const auto& [name, e] : placements_) out.push_back({name, e.summary});
  return out;
}

}  // namespace gcsim
