#include "app/bench_suite.hpp"

#include <set>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"

namespace gcsim {
namespace {

const std::set<std::string> kSuiteFields = {"metrics", "scenarios"};
const std::set<std::string> kScenarioFields = {"name", "cluster", "workload", "policy", "options", "metrics"};
const std::set<std::string> kMetricFields = {"path", "better", "relative", "absolute"};

std::vector<BenchMetric> read_metrics(const JsonObject& owner) {
  std::vector<BenchMetric> metrics;
  const nlohmann::json& list = owner.required_array("metrics");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonObject entry = element_of(owner, "metrics", i, list[i]);
    entry.reject_unknown_fields(kMetricFields);
    BenchMetric metric;
    metric.path = entry.required_string("path");
    const std::string better = entry.optional_string("better", "equal");
    if (better == "lower")
      metric.better = Better::kLower;
    else if (better == "higher")
      metric.better = Better::kHigher;
    else if (better != "equal")
      entry.fail("better", "expected 'lower', 'higher' or 'equal', got '" + better + "'");
    metric.relative = entry.optional_quantity("relative", Quantity::kPlain, 0);
    metric.absolute = entry.optional_quantity("absolute", Quantity::kPlain, 0);
    for (const BenchMetric& earlier : metrics)
      if (earlier.path == metric.path) entry.fail("path", "'" + metric.path + "' is listed twice");
    metrics.push_back(metric);
  }
  if (metrics.empty()) owner.fail("metrics", "expected at least one metric");
  return metrics;
}

}  // namespace

BenchSuite read_bench_suite(const std::string& path) {
  const nlohmann::json document = read_json_file(path);
  const JsonObject suite(document, {path, ""});
  suite.reject_unknown_fields(kSuiteFields);
  const std::vector<BenchMetric> shared = suite.has("metrics") ? read_metrics(suite) : std::vector<BenchMetric>{};
  const nlohmann::json& list = suite.required_array("scenarios");
  if (list.empty()) suite.fail("scenarios", "expected at least one scenario");
  BenchSuite out;
  const auto slash = path.rfind('/');
  out.folder = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  std::set<std::string> names;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonObject entry = element_of(suite, "scenarios", i, list[i]);
    entry.reject_unknown_fields(kScenarioFields);
    BenchScenario scenario;
    scenario.name = entry.required_string("name");
    if (scenario.name.empty() || scenario.name.find_first_of("/\\ ") != std::string::npos || scenario.name[0] == '.')
      entry.fail("name", "a scenario's name names its run's folder: letters, digits, '-', '_' and '.', not '" +
                             scenario.name + "'");
    if (!names.insert(scenario.name).second) entry.fail("name", "'" + scenario.name + "' is used twice");
    scenario.cluster = entry.required_string("cluster");
    scenario.workload = entry.required_string("workload");
    scenario.policy = entry.required_string("policy");
    if (entry.has("options")) {
      const nlohmann::json& options = entry.required_array("options");
      for (const nlohmann::json& option : options) {
        if (!option.is_string()) entry.fail("options", "expected `gcsim run` options as strings, got " + option.dump());
        scenario.options.push_back(option.get<std::string>());
      }
    }
    scenario.metrics = entry.has("metrics") ? read_metrics(entry) : shared;
    if (scenario.metrics.empty()) entry.fail("metrics", "no metrics: give them here or at the top level of the suite");
    out.scenarios.push_back(std::move(scenario));
  }
  return out;
}

BenchBaseline read_bench_baseline(const std::string& path) {
  const nlohmann::json document = read_json_file(path);
  const JsonObject baseline(document, {path, ""});
  baseline.reject_unknown_fields({"scenarios"});
  const JsonObject scenarios = baseline.required_object("scenarios");
  BenchBaseline out;
  for (const auto& [name, metrics] : scenarios.value().items()) {
    if (!metrics.is_object()) baseline.fail("scenarios", "'" + name + "' is not an object of metric values");
    const JsonObject entry(metrics, {path, "scenarios." + name});
    for (const auto& [metric, value] : metrics.items()) {
      if (!value.is_number()) entry.fail(metric, "expected a number, got " + value.dump());
      out[name][metric] = value.get<double>();
    }
  }
  return out;
}

std::string bench_baseline_json(const BenchBaseline& baseline) {
  nlohmann::ordered_json out;
  out["scenarios"] = nlohmann::ordered_json::object();
  for (const auto& [name, metrics] : baseline)
    for (const auto& [metric, value] : metrics) out["scenarios"][name][metric] = value;
  return out.dump(2) + "\n";
}

}  // namespace gcsim
