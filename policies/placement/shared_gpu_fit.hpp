// shared_gpu_fit.hpp: where a job asking a fraction of a GPU goes.
//
// A job with JobSpec::gpu_share < 1 needs `gpus` distinct GPUs, each with at
// least that share and its gpu_memory left free. Best fit: GPUs already
// shared come first, the fullest first, so that fractional jobs pack together
// and whole GPUs stay free for whole-GPU jobs; then free GPUs on the nodes
// with the fewest free GPUs. Ties go to the lower GPU id. Every built-in
// placement hands fractional jobs to this rule: packing or spreading whole
// GPUs is their own choice, but a shared GPU has no ring to optimise.
//
//   if (job.gpu_share < 1) return fit_on_shared_gpus(job, cluster, taken);
#pragma once

#include <optional>
#include <vector>

#include "sim/core/job_spec.hpp"
#include "sim/core/scheduler_state.hpp"

namespace gcsim {

/// GPUs for the fractional job `job` among those `cluster` leaves room on and
/// not in `taken`, in ascending id order (the ring order); nullopt when fewer
/// than job.gpus GPUs have room.
std::optional<std::vector<GpuId>> fit_on_shared_gpus(const JobSpec& job, const ClusterView& cluster,
                                                     const std::vector<bool>& taken);

}  // namespace gcsim
