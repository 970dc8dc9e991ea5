// study_entry.hpp: a hyperparameter-search study of the workload's
// "studies" list (docs/workload-format.md) read into its trial jobs
// (study_expansion.hpp). A trial's work is given as a job's is, in the field
// of a kind whose trials may be a share of its work (training, duration).
//
//   {"studies": [{"id": "lr-search", "trials": 27, "gpus_per_trial": 2, "min_gpus": 4, "max_gpus": 16,
//                 "training": {...}, "successive_halving": {"rungs": 3, "eta": 3}, "seed": 1}]}
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/job_spec.hpp"
#include "workloads/kinds/kind_registry.hpp"

namespace gcsim {

/// The trials of studies[index]. Throws InputError naming the file, the
/// study ("studies[0] (id 'lr-search')") and the field.
std::vector<JobSpec> read_study(const nlohmann::json& value, std::size_t index, const std::string& file_label,
                                const KindRegistry& kinds);

}  // namespace gcsim
