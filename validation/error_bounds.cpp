#include "validation/error_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace gcsim::validation {

namespace {
constexpr double kMiB = 1048576.0;

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}
}  // namespace

double error_pct(const ValidationRow& row) {
  if (row.reference == 0)
    throw std::invalid_argument(row.experiment + " " + row.configuration + ": the reference is 0");
  return (row.simulated - row.reference) / row.reference * 100;
}

std::optional<BoundGroup> shaped_allreduce_bound(double bytes) {
  if (bytes >= 16 * kMiB) return BoundGroup{"allreduce-shaped S >= 16 MiB", BoundRule::kMedianAbsError, 2};
  if (bytes >= 1 * kMiB && bytes <= 4 * kMiB)
    return BoundGroup{"allreduce-shaped 1 MiB <= S <= 4 MiB", BoundRule::kMedianAbsError, 5};
  return std::nullopt;
}

std::optional<BoundGroup> shaped_alltoall_bound(double bytes) {
  if (bytes >= 16 * kMiB) return BoundGroup{"alltoall-shaped S >= 16 MiB", BoundRule::kMedianAbsError, 3};
  return std::nullopt;
}

std::optional<BoundGroup> renderfarm_bound(double task_seconds) {
  // Tasks a hair under their nominal length (a float 0.05) still count as 50 ms.
  if (task_seconds >= 0.05 - 1e-9) return BoundGroup{"renderfarm tasks >= 50 ms", BoundRule::kEveryAbsError, 2};
  if (task_seconds >= 0.01 - 1e-9) return BoundGroup{"renderfarm tasks 10-50 ms", BoundRule::kEveryAbsError, 5};
  return std::nullopt;
}

BoundGroup closed_form_bound() { return {"gcsim vs closed form", BoundRule::kEveryAbsError, 0.1}; }

BoundGroup hand_count_bound() { return {"gcsim vs hand count", BoundRule::kEveryAbsError, 1e-6}; }

std::vector<BoundCheck> check_bounds(const std::vector<ValidationRow>& rows) {
  std::vector<std::string> order;
  std::map<std::string, std::pair<BoundGroup, std::vector<double>>> groups;
  for (const ValidationRow& row : rows) {
    if (!row.bound) continue;
    auto [it, fresh] = groups.try_emplace(row.bound->name, *row.bound, std::vector<double>{});
    if (fresh) order.push_back(row.bound->name);
    it->second.second.push_back(std::fabs(error_pct(row)));
  }
  std::vector<BoundCheck> checks;
  for (const std::string& name : order) {
    const auto& [group, errors] = groups.at(name);
    BoundCheck check;
    check.name = name;
    check.rows = errors.size();
    check.limit = group.limit_pct;
    if (group.rule == BoundRule::kMedianAbsError) {
      check.statistic = "median abs error";
      check.value = median_of(errors);
    } else {
      check.statistic = "max abs error";
      check.value = *std::max_element(errors.begin(), errors.end());
    }
    check.holds = check.value <= check.limit;
    checks.push_back(check);
  }
  return checks;
}

BoundCheck busbw_check(std::uint32_t ranks, double busbw_Bps, double goodput_Bps) {
  if (goodput_Bps <= 0) throw std::invalid_argument("busbw_check: the goodput must be positive");
  BoundCheck check;
  check.name = "ring busbw at 64 MiB, N=" + std::to_string(ranks);
  check.statistic = "busbw / goodput";
  check.rows = 1;
  check.value = busbw_Bps / goodput_Bps * 100;
  check.limit = 95;
  check.holds = check.value >= check.limit;
  return check;
}

}  // namespace gcsim::validation
