// work_forms.hpp: the questions the simulator asks of a job's form of work
// (JobWork), each answered in one place by a std::visit with a handler per
// form, so that a new form is answered for wherever it is asked.
//
// Besides these, sim/core/job_spec.hpp answers is_cpu_job(),
// compute_scale_on() and runs_on_cpu() the same way.
//
//   jobs_csv << form_name(job.work);                          // "training", ..., "cpu"
//   if (const InputPipeline* pipeline = input_pipeline_of(job.work)) ... decode on the job's cores ...
//   if (const ServingWork* replica = replica_of(job.work); replica && replica->slot > 0) ... later replica ...
#pragma once

#include <cstdint>
#include <iterator>
#include <string_view>
#include <variant>

#include "sim/core/job_spec.hpp"

namespace gcsim {

/// Every form's name, in the order of JobWork's alternatives: jobs.csv's
/// type column and the per-type figures (sim/report/job_type_metrics.hpp).
inline constexpr std::string_view kFormNames[] = {"training", "measured", "dag",         "notebook",
                                                  "serving",  "cpu",      "llm_training"};
static_assert(std::size(kFormNames) == std::variant_size_v<JobWork>, "a name for every form of work");

/// The form's name (kFormNames): "training", "measured", "dag", "notebook", "serving" or "cpu".
std::string_view form_name(const JobWork& work);

/// The input pipeline that decodes the work's samples on its cores while its
/// GPUs compute (a training job's on real data); null when its GPUs never
/// wait for input (synthetic data, or a form without one).
const InputPipeline* input_pipeline_of(const JobWork& work);

/// The work's workers that run on cores, each a CPU host's (a DAG's CPU
/// pools'); 0 for a form that runs no such workers.
std::uint32_t cpu_workers_of(const JobWork& work);

/// A serving deployment's replica: its deployment and slot; null for the
/// other forms, which run their own work to its end.
const ServingWork* replica_of(const JobWork& work);

/// A notebook's activity and hold; null for the other forms.
const NotebookWork* notebook_of(const JobWork& work);

}  // namespace gcsim
