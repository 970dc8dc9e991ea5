// native_workload.hpp: gcsim's own workload format, a JSON list of jobs.
//
// Each job entry gives the fields every job has (id, user, submit, gpus,
// ...) and its work in the field of one kind (workloads/kinds/: "training",
// "duration", "dag", "notebook", "serving", "cpu", ...), which reads it.
// Jobs keep the order of the file; the engine orders them by submit time,
// ties by that order. docs/workload-format.md describes every field and its
// units. Every function takes the kinds it knows (builtin_kinds() unless a
// program adds its own).
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

#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/job_spec.hpp"
#include "workloads/kinds/kind_registry.hpp"

namespace gcsim {

/// Reads and validates a workload file. Throws InputError naming the file,
/// the job ("jobs[3] (id 'x')") and the field on any problem.
///
/// The file is read as a stream (SAX events, from read_plain_json_events
/// for plain JSON, else from nlohmann's sax_parse): each job is built as
/// a small JSON value, read into its JobSpec and dropped, so the memory it
/// takes is that of the JobSpecs, an index of their ids, and one job's JSON
/// at a time, whatever the size of the file. Errors are the same as those of
/// parse_native_workload on the whole document, in the same order: malformed
/// JSON anywhere in the file (by line and column) before any other problem,
/// then the top level, then the first bad job. Studies are held as JSON
/// until the end of the file (their trials follow the jobs).
std::vector<JobSpec> read_native_workload(const std::string& path, const KindRegistry& kinds = builtin_kinds());
/// The same from a stream, which must be seekable (a file or a string
/// stream): a syntax error is located by reading it again from the start.
/// `file_label` names the source in error messages.
std::vector<JobSpec> read_native_workload(std::istream& text, const std::string& file_label,
                                          const KindRegistry& kinds = builtin_kinds());

/// Validates and converts an already parsed document; `file_label` names the
/// source in error messages.
std::vector<JobSpec> parse_native_workload(const nlohmann::json& doc, const std::string& file_label,
                                           const KindRegistry& kinds = builtin_kinds());

/// The document read back by parse_native_workload as the same jobs: numbers
/// are written in base units (seconds, bytes, FLOPs) and doubles survive the
/// round trip exactly. `gpu_memory` is omitted when it is 0.
nlohmann::json native_workload_json(const std::vector<JobSpec>& jobs, const KindRegistry& kinds = builtin_kinds());

/// Writes native_workload_json(jobs).dump(1) and a newline, byte for byte,
/// one job at a time: no document of all the jobs is built.
void write_native_workload(std::ostream& out, const std::vector<JobSpec>& jobs,
                           const KindRegistry& kinds = builtin_kinds());

}  // namespace gcsim
