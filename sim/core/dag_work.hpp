// dag_work.hpp: what makes a DAG job's work valid, and its shape.
//
// The rules by which the workers run the tasks are in
// sim/model/dag_schedule.hpp; these are the checks and counts that a
// workload reader and the engine need.
//
//   if (auto problem = dag_error(work)) ... *problem names the tasks ...
//   job.gpus = dag_gpu_workers(work);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/job_spec.hpp"

namespace gcsim {

/// The first problem of a DAG, or nothing: no pool or no task, a pool of no
/// workers, a task of an unknown pool or predecessor, a negative cost, FLOPs
/// on a CPU pool, a task waiting for itself, or a cycle (named task by task:
/// "cycle: a -> b -> a").
std::optional<std::string> dag_error(const DagWork& work);

/// Successor lists: for every task, the tasks that name it in `after`, in task order.
std::vector<std::vector<std::size_t>> dag_successors(const DagWork& work);

/// The part of a task's cost that does not depend on its GPU's speed: its
/// seconds plus the DAG's task overhead (its FLOPs come on top, at the GPU's speed).
double dag_task_fixed_seconds(const DagWork& work, std::size_t task);

/// Workers of GPU pools (the GPUs the job holds) and of CPU pools (its CPU cores).
std::uint32_t dag_gpu_workers(const DagWork& work);
std::uint32_t dag_cpu_workers(const DagWork& work);

}  // namespace gcsim
