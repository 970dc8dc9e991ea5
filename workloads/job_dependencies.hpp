// job_dependencies.hpp: the jobs a job waits for (JobSpec::after), named by
// id in a workload and resolved to indices once every job is read.
//
// A job may name any job of the workload, before or after it in the file. An
// id the workload does not list is an error naming the job and the id; so is
// a cycle (a job that waits, directly or not, for itself), named in order:
// "a -> b -> a".
//
//   std::vector<NamedDependencies> named = {{2, {"prepare"}}};
//   resolve_dependencies(jobs, named, "workload.json", where);  // jobs[2].after == {index of "prepare"}
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "sim/core/job_spec.hpp"

namespace gcsim {

/// The ids `jobs[job]` named in its "after" field.
struct NamedDependencies {
  std::size_t job;
  std::vector<std::string> after;
};

/// Sets each named job's `after`; throws InputError (file, where the job is
/// in the file as `where` says, field "after") for an unknown id or a cycle.
void resolve_dependencies(std::vector<JobSpec>& jobs, const std::vector<NamedDependencies>& named,
                          const std::string& file_label, const std::function<std::string(JobIndex)>& where);

}  // namespace gcsim
