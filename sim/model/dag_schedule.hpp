// dag_schedule.hpp: the rules by which a DAG job's workers run its tasks, and
// the schedule they give when nothing else shares the job's GPUs and links.
//
// A task is ready once all its predecessors have finished. Ready tasks wait
// in their pool's FIFO queue: the tasks ready at the start in task order,
// then each task as its last predecessor finishes, successors in the order
// they were listed (a task's successors are the tasks naming it in `after`,
// in task order). An idle worker takes the head of its pool's queue; a
// worker that finishes a task goes on at once with the next, while one that
// had to wait for work starts `wake_up` late (a blocked thread is not
// running). A task costs its worker seconds + flops / speed + task_overhead,
// after its predecessors' data arrived. These are the rules of the real
// render farm's executor (real/renderfarm), so the two can be compared.
//
// The checks of a DAG are in sim/core/dag_work.hpp.
//
//   double makespan = dag_list_schedule_seconds(work, 1e13);  // data transfers not counted
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/dag_work.hpp"
#include "sim/core/job_spec.hpp"

namespace gcsim {

/// The makespan of the rules above on GPUs of `gpu_flops`, data transfers
/// taking no time. The work must be valid (dag_error).
double dag_list_schedule_seconds(const DagWork& work, double gpu_flops);

}  // namespace gcsim
