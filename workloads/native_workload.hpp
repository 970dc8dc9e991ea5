// native_workload.hpp: gcsim's own workload format, a JSON list of jobs.
//
// Each job is either data-parallel training ("training": per-GPU FLOPs and
// gradient bytes per iteration, iteration count) or a run time measured on a
// named GPU type ("duration"). Jobs keep the order of the file; the engine
// orders them by submit time, ties by that order. docs/workload-format.md
// describes every field and its units.
//
//   {"jobs": [
//     {"id": "resnet50-a", "user": "alice", "queue": "research", "submit": 0, "gpus": 8,
//      "gpu_memory": "12GB",
//      "training": {"flops_per_iteration": 1.2e13, "gradient_bytes": "100MB", "iterations": 1000}},
//     {"id": "trace-17", "submit": "2h", "gpus": 2,
//      "duration": {"seconds": 3600, "gpu_type": "V100"}}]}
//
//   std::vector<JobSpec> jobs = read_native_workload("scenarios/workloads/default.json");
//   write_file_atomically("copy.json", native_workload_json(jobs).dump(2));
//
// Reading checks the file on its own (unique ids, non-negative submit times,
// at least one GPU, ...); whether the jobs fit a given cluster is checked by
// validate_workload_against_cluster (workload_validation.hpp).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/job_spec.hpp"

namespace gcsim {

/// Reads and validates a workload file. Throws InputError naming the file,
/// the job ("jobs[3] (id 'x')") and the field on any problem.
std::vector<JobSpec> read_native_workload(const std::string& path);

/// Validates and converts an already parsed document; `file_label` names the
/// source in error messages.
std::vector<JobSpec> parse_native_workload(const nlohmann::json& doc, const std::string& file_label);

/// The document read back by parse_native_workload as the same jobs: numbers
/// are written in base units (seconds, bytes, FLOPs) and doubles survive the
/// round trip exactly. `gpu_memory` is omitted when it is 0.
nlohmann::json native_workload_json(const std::vector<JobSpec>& jobs);

}  // namespace gcsim
