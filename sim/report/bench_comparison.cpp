#include "sim/report/bench_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace gcsim {

BenchVerdict judge(const BenchMetric& metric, double baseline, double value) {
  BenchVerdict v;
  v.metric = metric;
  v.baseline = baseline;
  v.value = value;
  v.allowed = std::max(metric.absolute, metric.relative * std::abs(baseline));
  const double change = value - baseline;
  if (change == 0) {
    v.status = BenchStatus::kSame;
  } else if (std::abs(change) <= v.allowed) {
    v.status = BenchStatus::kWithin;
  } else {
    const bool worse = metric.better == Better::kEqual || (metric.better == Better::kLower ? change > 0 : change < 0);
    v.status = worse ? BenchStatus::kRegressed : BenchStatus::kImproved;
  }
  return v;
}

std::optional<double> metric_value(const nlohmann::json& summary, const std::string& path) {
  const nlohmann::json* at = &summary;
  std::size_t begin = 0;
  while (begin <= path.size()) {
    const std::size_t dot = std::min(path.find('.', begin), path.size());
    const std::string key = path.substr(begin, dot - begin);
    if (at->is_object()) {
      const auto it = at->find(key);
      if (it == at->end()) return std::nullopt;
      at = &*it;
    } else if (at->is_array() && !key.empty() && key.find_first_not_of("0123456789") == std::string::npos) {
      const std::size_t index = std::stoul(key);
      if (index >= at->size()) return std::nullopt;
      at = &(*at)[index];
    } else {
      return std::nullopt;
    }
    begin = dot + 1;
  }
  if (at->is_number()) return at->get<double>();
  if (at->is_boolean()) return at->get<bool>() ? 1.0 : 0.0;
  return std::nullopt;
}

std::string to_string(BenchStatus status) {
  switch (status) {
    case BenchStatus::kSame:
      return "same";
    case BenchStatus::kWithin:
      return "within";
    case BenchStatus::kImproved:
      return "improved";
    case BenchStatus::kRegressed:
      return "regressed";
  }
  return "?";
}

std::string to_string(Better better) {
  switch (better) {
    case Better::kLower:
      return "lower";
    case Better::kHigher:
      return "higher";
    case Better::kEqual:
      return "equal";
  }
  return "?";
}

namespace {

std::string number(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

// "+12.5 (+3.10%)"; the share is left out when the baseline is 0.
std::string change_text(double baseline, double value) {
  const double change = value - baseline;
  std::string text = (change > 0 ? "+" : "") + number(change);
  if (baseline != 0) {
    char share[40];
    std::snprintf(share, sizeof share, " (%+.2f%%)", 100 * change / std::abs(baseline));
    text += share;
  }
  return text;
}

}  // namespace

std::string bench_json(const std::vector<BenchVerdict>& verdicts, const std::vector<BenchTiming>& timings) {
  nlohmann::ordered_json out;
  out["regressed"] = std::count_if(verdicts.begin(), verdicts.end(),
                                   [](const BenchVerdict& v) { return v.status == BenchStatus::kRegressed; });
  out["metrics"] = nlohmann::ordered_json::array();
  for (const BenchVerdict& v : verdicts)
    out["metrics"].push_back({{"scenario", v.scenario},
                              {"metric", v.metric.path},
                              {"better", to_string(v.metric.better)},
                              {"baseline", v.baseline},
                              {"value", v.value},
                              {"change", v.value - v.baseline},
                              {"allowed_change", v.allowed},
                              {"status", to_string(v.status)}});
  out["wall_time"] = nlohmann::ordered_json::array();
  for (const BenchTiming& t : timings)
    out["wall_time"].push_back(
        {{"scenario", t.scenario}, {"seconds", t.wall_seconds}, {"ratio_to_reference", t.ratio_to_reference}});
  return out.dump(2) + "\n";
}

std::string bench_markdown(const std::vector<BenchVerdict>& verdicts, const std::vector<BenchTiming>& timings) {
  std::ostringstream out;
  out << "| scenario | metric | better | baseline | now | change | allowed | verdict |\n"
         "|---|---|---|---:|---:|---:|---:|---|\n";
  for (const BenchVerdict& v : verdicts)
    out << "| " << v.scenario << " | " << v.metric.path << " | " << to_string(v.metric.better) << " | "
        << number(v.baseline) << " | " << number(v.value) << " | "
        << (v.status == BenchStatus::kSame ? "0" : change_text(v.baseline, v.value)) << " | " << number(v.allowed)
        << " | " << (v.status == BenchStatus::kRegressed ? "**regressed**" : to_string(v.status)) << " |\n";
  if (!timings.empty()) {
    out << "\n| scenario | wall time (s) | ratio to " << timings.front().scenario << " |\n|---|---:|---:|\n";
    for (const BenchTiming& t : timings)
      out << "| " << t.scenario << " | " << number(t.wall_seconds) << " | " << number(t.ratio_to_reference) << " |\n";
    out << "\nWall times are this machine's, in this invocation: compare the ratios, not the seconds.\n";
  }
  return out.str();
}

}  // namespace gcsim
