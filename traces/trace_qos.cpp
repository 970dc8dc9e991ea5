#include "traces/trace_qos.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include "sim/io/csv_records.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

bool listed(const std::vector<std::string>& values, const std::string& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// An integer priority within the doubles' exact range.
std::optional<std::int64_t> integer(std::string_view text) {
  const std::optional<double> number = parse_trace_number(text);
  if (!number || *number != std::floor(*number) || std::fabs(*number) > 9007199254740992.0) return std::nullopt;
  return static_cast<std::int64_t>(*number);
}

}  // namespace

const std::vector<std::string>& default_spot_values() {
  static const std::vector<std::string> values = {"spot",        "be",          "besteffort",   "best-effort",
                                                  "best_effort", "preemptible", "opportunistic"};
  return values;
}

const std::vector<std::string>& default_guaranteed_values() {
  static const std::vector<std::string> values = {"guaranteed", "burstable", "ls",      "lsr",
                                                  "lse",        "prod",      "regular", "on-demand"};
  return values;
}

std::optional<QosClass> trace_qos_class(std::string_view field, const TraceReadOptions& options) {
  if (field.empty()) return QosClass::kGuaranteed;
  const std::string value = lower(field);
  if (listed(options.spot_values ? *options.spot_values : default_spot_values(), value)) return QosClass::kSpot;
  if (listed(options.guaranteed_values ? *options.guaranteed_values : default_guaranteed_values(), value))
    return QosClass::kGuaranteed;
  return std::nullopt;
}

std::optional<std::int64_t> trace_priority(std::string_view field, const TraceReadOptions& options) {
  if (field.empty()) return 0;
  if (const auto level = options.priority_levels.find(lower(field)); level != options.priority_levels.end())
    return level->second;
  return integer(field);
}

std::vector<std::string> parse_qos_values(const std::string& text) {
  std::vector<std::string> values;
  for (const std::string& value : csv_fields(text, ',')) {
    if (value.empty()) throw std::invalid_argument("expects a comma-separated list of values, got '" + text + "'");
    values.push_back(lower(value));
  }
  return values;
}

std::map<std::string, std::int64_t> parse_priority_levels(const std::string& text) {
  std::map<std::string, std::int64_t> levels;
  for (const std::string& pair : csv_fields(text, ',')) {
    const auto eq = pair.find('=');
    const std::optional<std::int64_t> number =
        eq == std::string::npos ? std::nullopt : integer(std::string_view(pair).substr(eq + 1));
    if (eq == 0 || !number)
      throw std::invalid_argument("expects NAME=INTEGER pairs such as low=0,high=10, got '" + pair + "'");
    levels[lower(pair.substr(0, eq))] = *number;
  }
  return levels;
}

}  // namespace gcsim
