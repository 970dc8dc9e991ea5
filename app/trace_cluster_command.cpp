// `gcsim trace cluster`: a traced cluster's virtual clusters (Philly's VC
// sizes, a Helios per-VC GPU table) as a gcsim cluster description and a
// capacity-scheduler configuration with a queue per VC
// (traces/vc_cluster.hpp).
#include <algorithm>
#include <iostream>
#include <set>

#include "app/arguments.hpp"
#include "app/commands.hpp"
#include "app/output_files.hpp"
#include "app/trace_cluster_command.hpp"
#include "sim/core/input_error.hpp"
#include "traces/trace_formats.hpp"
#include "traces/vc_cluster.hpp"

namespace gcsim {

const char* const kTraceClusterUsage =
    R"(       gcsim trace cluster TABLE --format philly-vcs|helios-vcs --out CLUSTER.json
                           [--capacity-out QUEUES.json] [--queues-of FORMAT:TRACE]
                           [--date YYYY-MM-DD] [--name NAME] [--gpus-per-node N]
                           [--gpu-type T] [--gpu-flops F] [--gpu-memory M]

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
)";

int trace_cluster(const std::string& path, int argc, char** argv) {
  const Arguments args(argc, argv,
                       {{"format"}, {"out"}, {"capacity-out"}, {"queues-of"}, {"date"}, {"name"}, {"gpus-per-node"},
                        {"gpu-type"}, {"gpu-flops"}, {"gpu-memory"}});
  const std::string format_name = args.required("format");
  const auto format = parse_vc_table_format(format_name);
  if (!format) throw UsageError("option '--format' must be 'philly-vcs' or 'helios-vcs', got '" + format_name + "'");
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
    if (!source.format) throw UsageError("option '--queues-of' must be FORMAT:TRACE, got '" + source.path + "'");
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
