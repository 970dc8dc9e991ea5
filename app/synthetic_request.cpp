#include "app/synthetic_request.hpp"

#include "sim/core/cluster_layout.hpp"
#include "sim/core/input_error.hpp"
#include "sim/core/usage_error.hpp"
#include "sim/io/json_input.hpp"
#include "sim/topology/cluster_reader.hpp"

namespace gcsim {

SyntheticWorkloadSpec synthetic_spec(const SyntheticRequest& request) {
  SyntheticWorkloadSpec spec;
  if (request.config_document)
    spec = synthetic_spec_from_json(*request.config_document, request.config);
  else if (!request.config.empty())
    spec = synthetic_spec_from_json(read_json_file(request.config), request.config);
  spec.jobs = request.jobs.value_or(spec.jobs);
  spec.mean_interarrival_s = request.mean_interarrival_s.value_or(spec.mean_interarrival_s);
  if (request.checkpoint) {
    const std::optional<bool> saves = checkpoint_mode_saves(*request.checkpoint);
    if (!saves) throw UsageError("--checkpoint expects at_preemption or none, got '" + *request.checkpoint + "'");
    spec.checkpoint_at_preemption = *saves;
  }
  if (request.cluster_document || !request.cluster.empty()) {
    const ClusterLayout layout(request.cluster_document ? parse_cluster_json(*request.cluster_document, request.cluster)
                                                        : read_cluster_file(request.cluster));
    const int type = layout.find_gpu_type(spec.gpu_type);
    if (type < 0)
      throw InputError(request.cluster, "gpu_types", "name",
                       "the generator's GPU type '" + spec.gpu_type + "' is not in this cluster");
    spec.gpu_flops = layout.spec().gpu_types[static_cast<std::size_t>(type)].flops;
  }
  return spec;
}

std::vector<JobSpec> synthesize(const SyntheticRequest& request) {
  return generate_synthetic_workload(synthetic_spec(request), request.seed);
}

}  // namespace gcsim
