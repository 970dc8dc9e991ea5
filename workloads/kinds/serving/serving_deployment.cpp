#include "workloads/kinds/serving/serving_deployment.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "sim/core/input_error.hpp"
#include "sim/io/csv_records.hpp"
#include "sim/io/work_horizon.hpp"

namespace gcsim {
namespace {

const std::set<std::string> kServingFields = {"length",   "rate",       "rates",   "rates_csv",   "throughput",
                                              "latency",  "queue",      "slo",     "queue_limit", "startup",
                                              "replicas", "autoscaler", "rollouts"};
const std::set<std::string> kRateFields = {"at", "rate"};
const std::set<std::string> kAutoscalerFields = {
    "metric", "target", "min_replicas", "max_replicas", "sync_period", "scale_down_window", "tolerance"};
const std::set<std::string> kRolloutFields = {"at", "max_surge", "max_unavailable"};

// Most replicas one deployment may run: each is a job of the workload.
constexpr std::uint64_t kMostReplicas = 100000;

double within(const JsonObject& owner, std::string_view field, double value) {
  if (const auto problem = beyond_horizon(value, HorizonQuantity::kTime)) owner.fail(field, *problem);
  return value;
}

std::uint32_t replica_count(const JsonObject& owner, std::string_view field, std::uint64_t fallback,
                            std::uint64_t min) {
  const std::uint64_t value = owner.optional_uint(field, fallback, min);
  if (value > kMostReplicas)
    owner.fail(field, "at most " + std::to_string(kMostReplicas) + " replicas, got " + std::to_string(value));
  return static_cast<std::uint32_t>(value);
}

std::string relative_to(const std::string& base_dir, const std::string& path) {
  if (path.empty() || path.front() == '/' || base_dir.empty()) return path;
  return base_dir + "/" + path;
}

// The rate schedule: "rate" (constant), "rates" (listed) or "rates_csv" (a file), exactly one.
std::vector<RequestRate> read_rates(const JsonObject& serving, const std::string& base_dir) {
  const int given = serving.has("rate") + serving.has("rates") + serving.has("rates_csv");
  if (given != 1)
    serving.fail(serving.has("rates") ? "rates" : "rate",
                 "exactly one of 'rate' (requests a second, Poisson), 'rates' (a list of {at, rate}) or 'rates_csv' "
                 "(a CSV file of time,rate) is given");
  std::vector<RequestRate> rates;
  if (serving.has("rate")) {
    rates.push_back({0, serving.required_quantity("rate", Quantity::kPlain)});
  } else if (serving.has("rates")) {
    const nlohmann::json& list = serving.required_array("rates");
    if (list.empty()) serving.fail("rates", "expected at least one {at, rate}");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const JsonObject point = element_of(serving, "rates", i, list[i]);
      point.reject_unknown_fields(kRateFields);
      const RequestRate rate{within(point, "at", point.required_quantity("at", Quantity::kTime)),
                             point.required_quantity("rate", Quantity::kPlain)};
      if (!rates.empty() && rate.at <= rates.back().at)
        point.fail("at", "rates are listed in increasing 'at', and " + std::to_string(rate.at) + " s follows " +
                             std::to_string(rates.back().at) + " s");
      rates.push_back(rate);
    }
  } else {
    rates = read_request_rates_csv(relative_to(base_dir, serving.required_string("rates_csv")));
  }
  // No request before the first point.
  if (rates.front().at > 0) rates.insert(rates.begin(), {0, 0});
  return rates;
}

void read_autoscaler(const JsonObject& serving, ServingSpec& spec) {
  const JsonObject scaler = serving.required_object("autoscaler");
  scaler.reject_unknown_fields(kAutoscalerFields);
  spec.autoscaled = true;
  const std::string metric = scaler.optional_string("metric", "utilization");
  if (metric != "utilization" && metric != "requests_per_replica")
    scaler.fail("metric",
                "expected 'utilization' (the replicas' busy fraction) or 'requests_per_replica' "
                "(requests a second per ready replica), got '" +
                    metric + "'");
  spec.utilization_metric = metric == "utilization";
  spec.target = scaler.required_quantity("target", Quantity::kPlain, true);
  if (spec.utilization_metric && spec.target > 1)
    scaler.fail("target", "a utilization target is a busy fraction in (0, 1], got " + std::to_string(spec.target));
  spec.min_replicas = replica_count(scaler, "min_replicas", 1, 1);
  if (!scaler.has("max_replicas")) scaler.fail("max_replicas", "missing: the autoscaler needs an upper bound");
  spec.max_replicas = replica_count(scaler, "max_replicas", 1, 1);
  if (spec.min_replicas > spec.max_replicas)
    scaler.fail("min_replicas", "min_replicas (" + std::to_string(spec.min_replicas) + ") exceeds max_replicas (" +
                                    std::to_string(spec.max_replicas) + ")");
  spec.sync_period = within(scaler, "sync_period", scaler.optional_quantity("sync_period", Quantity::kTime, 15, true));
  spec.scale_down_window =
      within(scaler, "scale_down_window", scaler.optional_quantity("scale_down_window", Quantity::kTime, 300));
  spec.tolerance = scaler.optional_quantity("tolerance", Quantity::kPlain, 0.1);
  if (spec.tolerance >= 1)
    scaler.fail("tolerance", "expected a fraction below 1, got " + std::to_string(spec.tolerance));
}

std::vector<ServingRollout> read_rollouts(const JsonObject& serving, Time length) {
  std::vector<ServingRollout> rollouts;
  const nlohmann::json& list = serving.required_array("rollouts");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonObject entry = element_of(serving, "rollouts", i, list[i]);
    entry.reject_unknown_fields(kRolloutFields);
    ServingRollout rollout;
    rollout.at = within(entry, "at", entry.required_quantity("at", Quantity::kTime));
    rollout.max_surge = replica_count(entry, "max_surge", 1, 0);
    rollout.max_unavailable = replica_count(entry, "max_unavailable", 0, 0);
    if (rollout.max_surge == 0 && rollout.max_unavailable == 0)
      entry.fail("max_surge", "max_surge and max_unavailable are both 0: the rollout could never replace a replica");
    if (rollout.at >= length)
      entry.fail("at", "the deployment serves for " + std::to_string(length) + " s, the rollout starts after");
    if (!rollouts.empty() && rollout.at <= rollouts.back().at)
      entry.fail("at", "rollouts are listed in increasing 'at'");
    rollouts.push_back(rollout);
  }
  return rollouts;
}

std::string trimmed(const std::string& field) {
  const auto first = field.find_first_not_of(" \t");
  const auto last = field.find_last_not_of(" \t");
  return first == std::string::npos ? "" : field.substr(first, last - first + 1);
}

// The fields as one line, for messages.
std::string joined(const std::vector<std::string>& fields) {
  std::string line;
  for (const std::string& field : fields) line += (line.empty() ? "" : ",") + field;
  return line;
}

double csv_number(const std::string& path, std::size_t line, const std::string& field, const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(value))
    throw InputError(path, "line " + std::to_string(line), field, "expected a number, got '" + text + "'");
  if (value < 0) throw InputError(path, "line " + std::to_string(line), field, "must not be negative, got " + text);
  return value;
}

}  // namespace

std::vector<RequestRate> read_request_rates_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "", "", "cannot open the request rates file");
  CsvRecords records(in, path);
  CsvRecord record;
  if (!records.next(record)) throw InputError(path, "line 1", "", "empty: expected the header 'time,rate'");
  for (std::string& field : record.fields) field = trimmed(field);
  if (record.fields != std::vector<std::string>{"time", "rate"})
    throw InputError(path, "line " + std::to_string(record.line), "",
                     "expected the header 'time,rate', got '" + joined(record.fields) + "'");
  std::vector<RequestRate> rates;
  while (records.next(record)) {
    const std::size_t number = record.line;
    std::vector<std::string>& fields = record.fields;
    if (fields.size() != 2)
      throw InputError(path, "line " + std::to_string(number), "",
                       "expected 2 fields (time,rate), got " + std::to_string(fields.size()));
    for (std::string& field : fields) field = trimmed(field);
    const RequestRate rate{csv_number(path, number, "time", fields[0]), csv_number(path, number, "rate", fields[1])};
    if (beyond_horizon(rate.at, HorizonQuantity::kTime))
      throw InputError(path, "line " + std::to_string(number), "time",
                       *beyond_horizon(rate.at, HorizonQuantity::kTime));
    if (!rates.empty() && rate.at <= rates.back().at)
      throw InputError(path, "line " + std::to_string(number), "time",
                       "times increase from row to row; " + fields[0] + " follows " + std::to_string(rates.back().at));
    rates.push_back(rate);
  }
  if (rates.empty()) throw InputError(path, "line 2", "", "no rate given: expected rows of time,rate");
  return rates;
}

ServingSpec read_serving(const JsonObject& job, const std::string& base_dir) {
  const JsonObject serving = job.required_object("serving");
  serving.reject_unknown_fields(kServingFields);
  ServingSpec spec;
  spec.id = job.required_string("id");
  spec.length = within(serving, "length", serving.required_quantity("length", Quantity::kTime, true));
  spec.rates = read_rates(serving, base_dir);
  spec.throughput = serving.required_quantity("throughput", Quantity::kPlain, true);
  spec.latency = serving.required_quantity("latency", Quantity::kTime, true);
  const std::string queue = serving.optional_string("queue", "shared");
  if (queue != "shared" && queue != "per_replica")
    serving.fail("queue", "expected 'shared' (one queue for all replicas) or 'per_replica', got '" + queue + "'");
  spec.shared_queue = queue == "shared";
  spec.slo = serving.optional_quantity("slo", Quantity::kTime, 0);
  spec.queue_limit = serving.optional_quantity("queue_limit", Quantity::kPlain, 0);
  spec.startup = within(serving, "startup", serving.optional_quantity("startup", Quantity::kTime, 0));
  if (serving.has("autoscaler")) read_autoscaler(serving, spec);
  spec.replicas = replica_count(serving, "replicas", spec.autoscaled ? spec.min_replicas : 1, 1);
  if (spec.autoscaled && (spec.replicas < spec.min_replicas || spec.replicas > spec.max_replicas))
    serving.fail("replicas", "starts outside the autoscaler's bounds [" + std::to_string(spec.min_replicas) + ", " +
                                 std::to_string(spec.max_replicas) + "]: " + std::to_string(spec.replicas));
  if (serving.has("rollouts")) spec.rollouts = read_rollouts(serving, spec.length);
  if (spec.slots() > kMostReplicas)
    serving.fail("rollouts", "the deployment would run more than " + std::to_string(kMostReplicas) + " replicas");
  return spec;
}

nlohmann::json serving_json(const ServingSpec& spec) {
  nlohmann::json out = {{"length", spec.length},
                        {"throughput", spec.throughput},
                        {"latency", spec.latency},
                        {"queue", spec.shared_queue ? "shared" : "per_replica"},
                        {"replicas", spec.replicas}};
  out["rates"] = nlohmann::json::array();
  for (const RequestRate& rate : spec.rates) out["rates"].push_back({{"at", rate.at}, {"rate", rate.rate}});
  if (spec.slo > 0) out["slo"] = spec.slo;
  if (spec.queue_limit > 0) out["queue_limit"] = spec.queue_limit;
  if (spec.startup > 0) out["startup"] = spec.startup;
  if (spec.autoscaled)
    out["autoscaler"] = {{"metric", spec.utilization_metric ? "utilization" : "requests_per_replica"},
                         {"target", spec.target},
                         {"min_replicas", spec.min_replicas},
                         {"max_replicas", spec.max_replicas},
                         {"sync_period", spec.sync_period},
                         {"scale_down_window", spec.scale_down_window},
                         {"tolerance", spec.tolerance}};
  if (!spec.rollouts.empty()) {
    out["rollouts"] = nlohmann::json::array();
    for (const ServingRollout& r : spec.rollouts)
      out["rollouts"].push_back({{"at", r.at}, {"max_surge", r.max_surge}, {"max_unavailable", r.max_unavailable}});
  }
  return out;
}

}  // namespace gcsim
