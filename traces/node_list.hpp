// node_list.hpp: a cluster's node list in CSV, one row per node, as
// Kubernetes-style traces publish it (GPU model, GPU count, CPU, memory),
// read into the machines of a gcsim cluster (machine_cluster.hpp).
//
//   gcsim trace cluster nodes.csv --format nodes --out cluster.json
//     --map model=model,gpus=gpu,cpu=cpu_milli,memory=memory_mib --cpu-unit milli --memory-unit MiB
//
// Properties a mapping may name (the value is the header name of the column):
//   model   (required) the node's GPU model: one gcsim knows, or one mapped
//           with --gpu-type MODEL=NAME[:FLOPS] (gpu_models.hpp)
//   gpus    (required) GPUs in the node, a whole number >= 0; 0 is a
//           CPU-only node, left out of the cluster and counted, or kept in
//           a CPU node group (machine_cluster_json's cpu_machines)
//   cpu     its CPU in `cpu_unit`s (cores, or milli-cores as Kubernetes
//           counts them); a fraction of a core is rounded down, and counted
//   memory  its host memory in `memory_unit`s (default GiB)
// Without a cpu column every node has 96 cores, without a memory column
// 512 GB, and the result says so. Identical nodes form one node group.
//
// Every bad row is an InputError naming the file, line and column: a cluster
// description must not lose nodes.
//
//   NodeListOptions options;
//   options.columns = parse_node_column_map("model=model,gpus=gpu,cpu=cpu_milli,memory=memory_mib");
//   options.cpu_unit = 1e-3;
//   options.memory_unit = 1048576;
//   NodeList nodes = read_node_list("nodes.csv", options);
//   MachineCluster cluster = machine_cluster_json(nodes.machines, "k8s", "nodes.csv", nodes.model_column, {});
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "traces/machine_cluster.hpp"

namespace gcsim {

struct NodeListOptions {
  std::map<std::string, std::string> columns;  // property -> column name
  double cpu_unit = 1;                         // cores per unit of the cpu column
  double memory_unit = 1073741824.0;           // bytes per unit of the memory column
  char delimiter = ',';
};

/// "model", "gpus", "cpu", "memory".
const std::vector<std::string>& node_list_properties();
/// Parses "model=COL,gpus=COL,...": throws std::invalid_argument naming an
/// unknown property, a missing '=', a property given twice, or a missing
/// model or gpus.
std::map<std::string, std::string> parse_node_column_map(const std::string& text);
/// "cores" (1) or "milli" (1e-3); throws std::invalid_argument otherwise.
double parse_cpu_unit(const std::string& text);
/// A size unit of the cluster format (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)
/// in bytes; throws std::invalid_argument otherwise.
double parse_memory_unit(const std::string& text);

struct NodeList {
  std::vector<TracedMachine> machines;  // every node, in file order, CPU-only ones included
  std::size_t rows = 0;
  std::string model_column;        // the column GPU models come from, for errors
  std::vector<std::string> notes;  // what was assumed or rounded, one sentence each
};

/// Reads the list. Throws InputError (file, "line N", column) for a bad row,
/// and for a header without a mapped column.
NodeList read_node_list(const std::string& path, const NodeListOptions& options);

}  // namespace gcsim
