// serving_deployment.hpp: a job's "serving" entry read into a ServingSpec
// (sim/core/serving_spec.hpp) and written back, and request rates read from
// a CSV file.
//
//   "serving": {"length": "24h", "rates_csv": "rates.csv", "throughput": 100, "latency": 0.05,
//               "slo": 0.2, "startup": 30,
//               "autoscaler": {"target": 0.7, "min_replicas": 2, "max_replicas": 12},
//               "rollouts": [{"at": "12h", "max_surge": 2}]}
//
//   ServingSpec spec = read_serving(job_object, "scenarios/workloads");
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/serving_spec.hpp"
#include "sim/io/json_input.hpp"

namespace gcsim {

/// The job's "serving" object. `base_dir` is where a "rates_csv" path is
/// relative to (the workload file's folder). Throws InputError naming the
/// file, job and field: a negative rate, min_replicas above max_replicas, a
/// rollout that may neither add nor remove a replica, ...
ServingSpec read_serving(const JsonObject& job, const std::string& base_dir);

/// A CSV of request rates: a header `time,rate`, then one row per change,
/// times in seconds from the deployment's start, increasing. Throws
/// InputError naming the file, line and field.
std::vector<RequestRate> read_request_rates_csv(const std::string& path);

/// The "serving" object read back by read_serving as `spec` (rates listed, in base units).
nlohmann::json serving_json(const ServingSpec& spec);

}  // namespace gcsim
