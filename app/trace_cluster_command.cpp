// `gcsim trace cluster`: a traced cluster as a gcsim cluster description.
// Its virtual clusters (Philly's VC sizes, a Helios per-VC GPU table) become
// a node group per VC and a capacity-scheduler configuration with a queue per
// VC (traces/vc_cluster.hpp); a node list (`--format nodes`)
// becomes a node group per node shape (traces/node_list.hpp).
#include <algorithm>
#include <iostream>
#include <set>
#include <stdexcept>

#include "app/arguments.hpp"
#include "app/commands.hpp"
#include "app/output_files.hpp"
#include "app/trace_cluster_command.hpp"
#include "sim/core/input_error.hpp"
#include "traces/gpu_models.hpp"
#include "traces/machine_cluster.hpp"
#include "traces/node_list.hpp"
#include "traces/trace_formats.hpp"
#include "traces/vc_cluster.hpp"

namespace gcsim {

const char* const kTraceClusterUsage =
    R"(       gcsim trace cluster TABLE --format philly-vcs|helios-vcs --out CLUSTER.json
                           [--capacity-out QUEUES.json] [--queues-of FORMAT:TRACE]
                           [--date YYYY-MM-DD] [--name NAME] [--gpus-per-node N]
                           [--gpu-type T] [--gpu-flops F] [--gpu-memory M]
       gcsim trace cluster NODES.csv --format nodes --map model=COL,gpus=COL[,cpu=COL][,memory=COL]
                           --out CLUSTER.json [--cpu-unit cores|milli] [--memory-unit U]
                           [--gpu-type MODEL=NAME[:FLOPS[:MEMORY]]]... [--cpu-nodes] [--name NAME]

cluster  writes a traced cluster's virtual clusters as a gcsim cluster (a node
         group "vc-<vc>" per VC) and, with --capacity-out, a capacity-scheduler
         configuration with a queue per VC whose capacity and maximum-capacity
         are its share of the GPUs. philly-vcs reads `vc,node num` (servers of
         --gpus-per-node GPUs, default 8); helios-vcs reads a per-VC GPU table
         `date,<vc>...,total` on --date (default: its last row). --queues-of
         adds a queue of capacity 0 (maximum 100) for every VC the trace's
         jobs use and the table lacks. The node shape (8 V100 of 15.7 TFLOP/s
         and 32 GB, NVLink, 100 Gb/s NICs, racks of 16) is assumed: the tables
         give no hardware.
         nodes reads a node list, one row per node (as Kubernetes-style traces
         publish them), through --map: the GPU model and GPU count, and
         optionally the CPU (in --cpu-unit: cores, the default, or milli) and
         host memory (in --memory-unit: B, KB, MB, GB, TB, KiB, MiB, GiB (the
         default) or TiB). Identical nodes form one node group; nodes without
         GPUs are left out, or with --cpu-nodes form CPU node groups
         ("cpu-c<cores>-m<GiB>", no GPU) where CPU jobs run. A GPU model
         gcsim has no figures for (it knows
         P100, T4, V100, V100M16, V100M32, A10, MISC) is an error naming its
         line, unless --gpu-type maps it: MODEL=NAME takes NAME's figures,
         MODEL=NAME:31.2TFLOPS[:24GB] gives them. The network is assumed:
         NVLink in 8-GPU V100 nodes, PCIe elsewhere, 25 Gb/s NICs, racks of 32.
)";

namespace {

int node_list_cluster(const std::string& path, const Arguments& args) {
  for (const char* other : {"capacity-out", "queues-of", "date", "gpus-per-node", "gpu-flops", "gpu-memory"})
    if (args.has(other)) throw UsageError(std::string("option '--") + other + "' does not apply to --format nodes");
  if (!args.has("map")) throw UsageError("--format nodes needs --map model=COL,gpus=COL[,cpu=COL][,memory=COL]");
  const std::string out = args.required("out");
  NodeListOptions options;
  GpuModelMap models;
  try {
    options.columns = parse_node_column_map(args.required("map"));
    options.cpu_unit = parse_cpu_unit(args.value_or("cpu-unit", "cores"));
    options.memory_unit = parse_memory_unit(args.value_or("memory-unit", "GiB"));
    for (const std::string& mapping : args.all("gpu-type"))
      add_gpu_model_mapping(models, parse_gpu_model_mapping(mapping));
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--format nodes: ") + e.what());
  }
  const NodeList list = read_node_list(path, options);
  const MachineCluster cluster = machine_cluster_json(list.machines, args.value_or("name", "nodes"), path,
                                                      list.model_column, models, args.has("cpu-nodes"));
  if (!write_output_files({{out, cluster.cluster.dump(2) + "\n"}})) return exit_codes::kOutputError;
  std::uint64_t gpus = 0;
  for (const TracedMachine& node : list.machines) gpus += node.gpus;
  std::cout << "table         " << path << " (nodes): " << list.rows << " nodes\n"
            << "cluster       " << out << ": " << cluster.machines << " nodes with " << gpus << " GPUs in "
            << cluster.groups << " node groups\n";
  for (const std::string& note : list.notes) std::cout << "assumed       " << note << "\n";
  for (const std::string& note : cluster.assumptions) std::cout << "assumed       " << note << "\n";
  return exit_codes::kOk;
}

}  // namespace

const std::vector<FlagSpec> kTraceClusterFlags = {
    {"format"}, {"out"},           {"capacity-out"},         {"queues-of"},       {"date"},
    {"name"},   {"gpus-per-node"}, {"gpu-type", true, true}, {"gpu-flops"},       {"gpu-memory"},
    {"map"},    {"cpu-unit"},      {"memory-unit"},          {"cpu-nodes", false}};

int trace_cluster(const std::string& path, const Arguments& args) {
  const std::string format_name = args.required("format");
  if (format_name == "nodes") return node_list_cluster(path, args);
  const auto format = parse_vc_table_format(format_name);
  if (!format)
    throw UsageError("option '--format' must be 'philly-vcs', 'helios-vcs' or 'nodes', got '" + format_name + "'");
  for (const char* nodes_only : {"map", "cpu-unit", "memory-unit", "cpu-nodes"})
    if (args.has(nodes_only)) throw UsageError(std::string("option '--") + nodes_only + "' applies to --format nodes");
  const std::vector<std::string> gpu_types = args.all("gpu-type");
  if (gpu_types.size() > 1 || (gpu_types.size() == 1 && gpu_types[0].find('=') != std::string::npos))
    throw UsageError(
        "option '--gpu-type' names the one GPU type of a VC table's nodes; MODEL=NAME mappings apply "
        "to --format nodes");
  const std::string out = args.required("out");
  VcTableOptions options;
  options.gpus_per_node = static_cast<std::uint32_t>(args.uint_or("gpus-per-node", 8));
  if (options.gpus_per_node == 0) throw UsageError("option '--gpus-per-node' must be at least 1");
  options.date = args.value_or("date", "");
  if (!options.date.empty() && *format != VcTableFormat::kHeliosVcGpus)
    throw UsageError("option '--date' is for helios-vcs tables");
  const VcTable table = read_vc_table(*format, path, options);

  NodeShape shape;
  shape.gpus_per_node = options.gpus_per_node;
  shape.gpu_type = args.value_or("gpu-type", shape.gpu_type);
  shape.gpu_flops = args.value_or("gpu-flops", shape.gpu_flops);
  shape.gpu_memory = args.value_or("gpu-memory", shape.gpu_memory);

  std::vector<std::string> extra;
  if (args.has("queues-of")) {
    const WorkloadSource source = parse_workload_source(args.required("queues-of"));
    if (!source.format)
      throw UsageError("option '--queues-of' must be FORMAT:TRACE (FORMAT one of " + trace_format_list() + "), got '" +
                       source.path + "'");
    const TraceReadResult trace = read_trace(*source.format, source.path, {});
    std::set<std::string> known;
    for (const VirtualCluster& vc : table.vcs) known.insert(vc.name);
    for (const JobSpec& job : trace.jobs)
      if (!known.count(job.queue) && std::find(extra.begin(), extra.end(), job.queue) == extra.end())
        extra.push_back(job.queue);
  }

  std::string name = args.value_or("name", "");
  if (name.empty()) name = format_name;
  std::vector<std::pair<std::string, std::string>> files{{out, vc_cluster_json(name, table, shape).dump(2) + "\n"}};
  if (args.has("capacity-out"))
    files.emplace_back(args.required("capacity-out"), vc_capacity_json(table, extra).dump(2) + "\n");
  if (!write_output_files(files)) return exit_codes::kOutputError;
  std::uint64_t gpus = 0;
  for (const VirtualCluster& vc : table.vcs) gpus += vc.gpus;
  std::cout << "table         " << path << " (" << format_name << ")\n"
            << "cluster       " << out << ": " << table.vcs.size() << " VCs, " << gpus << " GPUs in nodes of "
            << shape.gpus_per_node << " " << shape.gpu_type << "\n";
  for (const std::string& note : table.notes) std::cout << "note          " << note << "\n";
  if (args.has("capacity-out")) {
    std::cout << "queues        " << args.required("capacity-out") << ": one per VC, capacity = its share of the GPUs";
    if (!extra.empty()) {
      std::cout << "; " << extra.size() << " VCs of the trace missing from the table get capacity 0 (max 100):";
      for (const std::string& q : extra) std::cout << " " << q;
    }
    std::cout << "\n";
  }
  return exit_codes::kOk;
}

}  // namespace gcsim
