// one_gpu_type.hpp: GPUs of one type for a job that does not allow several.
//
// A job's run holds GPUs of one type unless the job allows several
// (may_mix_gpu_types(), sim/core/node_fit.hpp); the engine rejects a plan
// that breaks the rule. Every built-in placement chooses as it would for any
// job, then, when its choice spans types for a job that keeps to one,
// chooses again on one type at a time, every GPU of the other types counted
// as taken: the fastest type first (FLOP/s; ties to the type the cluster
// lists first) whose GPUs hold the whole job wins. A choice on one type is
// kept as it is, so the rule changes nothing where no job would span types.
//
//   std::optional<std::vector<GpuId>> MyPlacement::place(const JobSpec& job, const ClusterView& cluster,
//                                                        const std::vector<bool>& taken) const {
//     return on_one_gpu_type(job, cluster, taken, [&](const std::vector<bool>& t) { return choose(job, cluster, t); });
//   }
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "sim/core/cluster_view.hpp"
#include "sim/core/job_spec.hpp"

namespace gcsim {

/// A placement's own choice for the job among the GPUs not in `taken`.
using PlaceAmong = std::function<std::optional<std::vector<GpuId>>(const std::vector<bool>& taken)>;

/// `place(taken)`, kept to one GPU type as the file comment says. Costs one
/// placement, plus, only when that one spans types for a job that keeps to
/// one, O(GPUs) and one placement per GPU type tried.
std::optional<std::vector<GpuId>> on_one_gpu_type(const JobSpec& job, const ClusterView& cluster,
                                                  const std::vector<bool>& taken, const PlaceAmong& place);

/// The GPU types `job` may run on, as indices into ClusterSpec::gpu_types,
/// fastest first (ties: the order the cluster lists them): the order in
/// which on_one_gpu_type() tries them.
std::vector<std::uint32_t> gpu_types_fastest_first(const JobSpec& job, const ClusterLayout& layout);

}  // namespace gcsim
