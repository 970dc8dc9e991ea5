#include "sim/report/capacity_plan.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gcsim {
namespace {

const std::map<std::string, std::string> kAliases = {
    {"makespan", "makespan_s"},
    {"utilization", "gpu_utilization.busy_share"},
    {"allocation", "gpu_utilization.allocated_share"},
    {"energy_kwh", "energy.facility_kwh"},
    {"it_kwh", "energy.it_kwh"},
    {"mean_kw", "energy.mean_kw"},
    {"peak_kw", "energy.peak_kw"},
};

// 97.5% quantiles of Student's t for 1 to 30 degrees of freedom; 1.96 beyond.
constexpr double kT975[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                            2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                            2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

std::string metric_of(const std::string& name) {
  if (const auto alias = kAliases.find(name); alias != kAliases.end()) return alias->second;
  for (const char* prefix : {"wait_", "jct_"}) {
    const std::string p = prefix;
    if (name.rfind(p, 0) != 0) continue;
    const std::string statistic = name.substr(p.size());
    if (statistic != "mean" && statistic != "p50" && statistic != "p95" && statistic != "p99" && statistic != "max")
      throw std::invalid_argument("'" + name + "': expected " + p + "mean, p50, p95, p99 or max");
    return (p == "wait_" ? "queueing_delay_s." : "jct_s.") + statistic;
  }
  return name;  // a dotted path into summary.json
}

}  // namespace

Slo parse_slo(const std::string& text) {
  Slo slo;
  slo.text = text;
  std::size_t op = text.find("<=");
  slo.at_most = op != std::string::npos;
  if (!slo.at_most) op = text.find(">=");
  if (op == std::string::npos || op == 0)
    throw std::invalid_argument("'" + text + "': expected METRIC<=BOUND or METRIC>=BOUND, e.g. 'wait_p95<=3600'");
  slo.metric = metric_of(text.substr(0, op));
  std::string bound = text.substr(op + 2);
  if (const auto at = bound.find('@'); at != std::string::npos) {
    const std::string share = bound.substr(at + 1);
    bound.resize(at);
    std::size_t used = 0;
    double p = 0;
    try {
      p = std::stod(share, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (share.empty() || used != share.size() || !(p > 0 && p < 1))
      throw std::invalid_argument("'" + text + "': the share after '@' must be a number between 0 and 1, e.g. '@0.95'");
    slo.share = p;
  }
  std::size_t used = 0;
  try {
    slo.bound = std::stod(bound, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (bound.empty() || used != bound.size() || !std::isfinite(slo.bound))
    throw std::invalid_argument("'" + text + "': the bound '" + bound + "' is not a number");
  return slo;
}

bool bounds_energy(const Slo& slo) { return slo.metric.rfind("energy.", 0) == 0; }

MeanInterval mean_interval(const std::vector<double>& values) {
  MeanInterval m;
  if (values.empty()) return m;
  double sum = 0;
  for (double v : values) sum += v;
  m.mean = sum / static_cast<double>(values.size());
  if (values.size() < 2) return m;
  double squares = 0;
  for (double v : values) squares += (v - m.mean) * (v - m.mean);
  const std::size_t freedom = values.size() - 1;
  const double t = freedom <= 30 ? kT975[freedom - 1] : 1.96;
  m.half_width = t * std::sqrt(squares / static_cast<double>(freedom) / static_cast<double>(values.size()));
  return m;
}

bool meets(const Slo& slo, const MeanInterval& interval) {
  return slo.at_most ? interval.mean + interval.half_width <= slo.bound
                     : interval.mean - interval.half_width >= slo.bound;
}

std::size_t runs_within(const Slo& slo, const std::vector<double>& values) {
  std::size_t within = 0;
  for (double v : values) within += slo.at_most ? v <= slo.bound : v >= slo.bound;
  return within;
}

bool slo_met(const Slo& slo, const std::vector<double>& values) {
  if (!slo.share) return meets(slo, mean_interval(values));
  return !values.empty() &&
         static_cast<double>(runs_within(slo, values)) >= *slo.share * static_cast<double>(values.size()) - 1e-9;
}

std::size_t fewest_runs_for(double share) {
  // 1 - 0.9 is 0.09999999999999998 in binary: without the tolerance 0.9 would ask for 11 runs.
  return static_cast<std::size_t>(std::ceil(1 / (1 - share) - 1e-9));
}

bool identical_runs(const std::vector<double>& values) {
  if (values.size() < 2) return false;
  // Equal to a billionth: summing the same times in another order may differ in the last bits.
  for (double v : values)
    if (std::fabs(v - values.front()) > 1e-9 * std::max(1.0, std::fabs(values.front()))) return false;
  return true;
}

std::optional<int> PlanSearch::next() {
  if (done_) return std::nullopt;
  // The largest size first: if it fails, no size up to it meets the SLOs.
  if (!tried_.count(high_)) return high_;
  if (!tried_.at(high_)) {
    done_ = true;
    return std::nullopt;
  }
  // Bisection between the largest failing size at or above the floor (or
  // floor - 1) and the smallest meeting size above it.
  int meeting = high_;
  for (const auto& [size, ok] : tried_)
    if (ok && size >= low_) meeting = std::min(meeting, size);
  int failing = low_ - 1;
  for (const auto& [size, ok] : tried_)
    if (!ok && size < meeting) failing = std::max(failing, size);
  if (meeting - failing > 1) return failing + (meeting - failing) / 2;
  // `meeting` meets and the size below fails: its neighbour above must meet too.
  if (meeting < high_) {
    if (!tried_.count(meeting + 1)) return meeting + 1;
    if (!tried_.at(meeting + 1)) {
      // Not monotone here: the answer lies above the size that failed.
      low_ = meeting + 2;
      return next();
    }
  }
  answer_ = meeting;
  done_ = true;
  return std::nullopt;
}

void PlanSearch::record(int size, bool meets_every_slo) { tried_[size] = meets_every_slo; }

}  // namespace gcsim
