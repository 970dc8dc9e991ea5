// machine_cluster.hpp: a traced cluster's machine list (PAI's
// pai_machine_spec, a Kubernetes-style node list) as a gcsim cluster
// description: one node group per machine shape.
//
// Machines with the same GPU type, GPU count, cores and memory form one node
// group, in order of first appearance, named like "v100m32-c96-m384" (type,
// cores, GiB; "-g<N>" added unless the machine has 2 or 8 GPUs). Each GPU
// model is resolved through gpu_models.hpp: a model gcsim has no figures for
// and the user did not map is an InputError naming the file, the line of its
// first machine, the model and the --gpu-type option that maps it; no
// machine is left out for it. Machines without GPUs are left out and
// counted, or, when asked, form CPU node groups ("cpu-c32-m128": cores and
// GiB; no GPU, no GPU interconnect) where CPU jobs and CPU workers run.
//
// What machine lists do not give is assumed, and listed in `assumptions`: the
// GPUs' figures (nominal FP32 peaks, or the mapping's), NVLink 150 GB/s inside
// 8-GPU V100 machines and PCIe 15.75 GB/s elsewhere, 25 Gb/s NICs, racks of
// 32 machines without oversubscription.
//
//   std::vector<TracedMachine> machines = ...;  // read from the list
//   MachineCluster cluster = machine_cluster_json(machines, "pai-2020", "pai_machine_spec.csv", "gpu_type", {});
//   write_file_atomically("pai.json", cluster.cluster.dump(2) + "\n");
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "traces/gpu_models.hpp"

namespace gcsim {

/// One machine of a list, as the list gives it.
struct TracedMachine {
  std::string gpu_model;  // as the list names it; ignored when gpus is 0
  std::uint32_t gpus = 0;
  std::uint32_t cpu_cores = 0;
  double memory_bytes = 0;
  std::size_t line = 0;  // where the list gives it
};

struct MachineCluster {
  nlohmann::json cluster;  // a gcsim cluster description (docs/cluster-format.md)
  std::vector<std::string> assumptions;
  std::size_t machines = 0;  // machines in the cluster (with GPUs, and CPU-only ones when kept)
  std::size_t groups = 0;
};

/// The machines with GPUs (and with `cpu_machines` those without, as CPU
/// node groups) as a gcsim cluster named `name`. `file` and `model_field`
/// (the list's GPU model column) locate errors: InputError (file, "line N",
/// model_field) for a model neither known nor mapped, InputError(file, "",
/// model_field) when two models become one GPU type with different figures,
/// and InputError(file) when the cluster would have no machine.
MachineCluster machine_cluster_json(const std::vector<TracedMachine>& machines, const std::string& name,
                                    const std::string& file, const std::string& model_field, const GpuModelMap& models,
                                    bool cpu_machines = false);

}  // namespace gcsim
