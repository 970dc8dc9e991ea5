#include "traces/vc_cluster.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>

#include "sim/core/input_error.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {

std::string line_label(std::size_t line) { return "line " + std::to_string(line); }

std::uint32_t count_field(const std::string& file, std::size_t line, const std::string& column,
                          const std::string& text) {
  const std::optional<double> value = parse_trace_number(text);
  if (!value || *value < 0 || *value != std::floor(*value) || *value > 4294967295.0)
    throw InputError(file, line_label(line), column, "expected a whole number >= 0, got '" + text + "'");
  return static_cast<std::uint32_t>(*value);
}

VcTable read_philly(std::istream& in, const std::string& file, const VcTableOptions& options) {
  CsvRecords records(in, file);
  const CsvHeader header = read_csv_header(records);
  const std::size_t c_vc = header.require("vc");
  const std::size_t c_nodes = header.require("node num");
  VcTable table;
  for (CsvRecord record; records.next(record);) {
    const std::vector<std::string>& fields = record.fields;
    if (fields.size() != header.size())
      throw InputError(file, line_label(record.line), "",
                       "expected " + std::to_string(header.size()) + " fields, got " + std::to_string(fields.size()));
    const std::string vc(trim(fields[c_vc]));
    if (vc.empty()) throw InputError(file, line_label(record.line), "vc", "empty VC name");
    const std::uint32_t nodes = count_field(file, record.line, "node num", std::string(trim(fields[c_nodes])));
    table.vcs.push_back({vc, nodes * options.gpus_per_node});
  }
  table.notes.push_back("Philly's table gives servers per VC: " + std::to_string(options.gpus_per_node) +
                        " GPUs per server assumed");
  return table;
}

VcTable read_helios(std::istream& in, const std::string& file, const VcTableOptions& options) {
  CsvRecords records(in, file);
  const CsvHeader header = read_csv_header(records);
  const std::size_t c_date = header.require("date");
  const std::size_t c_total = header.require("total");
  std::vector<std::string> row;
  std::size_t row_line = 0;
  for (CsvRecord record; records.next(record);) {
    std::vector<std::string>& fields = record.fields;
    if (fields.size() != header.size())
      throw InputError(file, line_label(record.line), "",
                       "expected " + std::to_string(header.size()) + " fields, got " + std::to_string(fields.size()));
    if (options.date.empty() || std::string(trim(fields[c_date])) == options.date) {
      row = std::move(fields);
      row_line = record.line;
      if (!options.date.empty()) break;
    }
  }
  if (row.empty())
    throw InputError(file, "", "date",
                     options.date.empty() ? "no data row" : "no row for the date '" + options.date + "'");
  VcTable table;
  std::uint64_t sum = 0;
  std::vector<std::string> empty;
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (c == c_date || c == c_total) continue;
    const std::uint32_t gpus = count_field(file, row_line, header.names()[c], std::string(trim(row[c])));
    sum += gpus;
    if (gpus == 0)
      empty.push_back(header.names()[c]);
    else
      table.vcs.push_back({header.names()[c], gpus});
  }
  const std::uint32_t total = count_field(file, row_line, "total", std::string(trim(row[c_total])));
  if (sum != total)
    throw InputError(file, line_label(row_line), "total",
                     "the VCs' GPUs add up to " + std::to_string(sum) + ", the row says " + std::to_string(total));
  table.notes.push_back("the row of " + std::string(trim(row[c_date])) + " (line " + std::to_string(row_line) +
                        "): " + std::to_string(total) + " GPUs in " + std::to_string(table.vcs.size()) + " VCs");
  if (!empty.empty()) {
    std::string names;
    for (const auto& n : empty) names += (names.empty() ? "" : ", ") + n;
    table.notes.push_back(std::to_string(empty.size()) + " VCs had no GPUs that day and are left out: " + names);
  }
  return table;
}

std::string share_text(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", share);
  return buf;
}

}  // namespace

std::optional<VcTableFormat> parse_vc_table_format(const std::string& name) {
  if (name == "philly-vcs") return VcTableFormat::kPhillyVcNodes;
  if (name == "helios-vcs") return VcTableFormat::kHeliosVcGpus;
  return std::nullopt;
}

VcTable read_vc_table(VcTableFormat format, const std::string& path, const VcTableOptions& options) {
  if (options.gpus_per_node == 0) throw InputError(path, "", "gpus_per_node", "must be at least 1");
  std::ifstream in = open_trace_file(path);
  VcTable table =
      format == VcTableFormat::kPhillyVcNodes ? read_philly(in, path, options) : read_helios(in, path, options);
  if (table.vcs.empty()) throw InputError(path, "", "", "no virtual cluster with GPUs");
  return table;
}

nlohmann::ordered_json vc_cluster_json(const std::string& name, const VcTable& table, const NodeShape& shape) {
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  for (const VirtualCluster& vc : table.vcs) {
    const std::uint32_t nodes = (vc.gpus + shape.gpus_per_node - 1) / shape.gpus_per_node;
    groups.push_back(
        {{"name", "vc-" + vc.name},
         {"count", nodes},
         {"gpus_per_node", shape.gpus_per_node},
         {"gpu_type", shape.gpu_type},
         {"cpu_cores", shape.cpu_cores},
         {"memory", shape.memory},
         {"intra_node", {{"kind", "nvlink"}, {"bandwidth", shape.intra_bandwidth}, {"latency", shape.intra_latency}}},
         {"nic", {{"bandwidth", shape.nic_bandwidth}, {"latency", shape.nic_latency}}}});
  }
  return {{"name", name},
          {"gpu_types", {{{"name", shape.gpu_type}, {"flops", shape.gpu_flops}, {"memory", shape.gpu_memory}}}},
          {"node_groups", groups},
          {"fabric",
           {{"nodes_per_rack", shape.nodes_per_rack},
            {"oversubscription", shape.oversubscription},
            {"uplink_latency", "1us"}}},
          {"network_model",
           {{"model", "CM02"},
            {"latency_factor", 1.0},
            {"bandwidth_factor", 1.0},
            {"tcp_window", 0},
            {"crosstraffic", false}}}};
}

nlohmann::ordered_json vc_capacity_json(const VcTable& table, const std::vector<std::string>& extra_queues) {
  double total = 0;
  for (const VirtualCluster& vc : table.vcs) total += vc.gpus;
  nlohmann::ordered_json config = nlohmann::ordered_json::object();
  std::string queues;
  for (const VirtualCluster& vc : table.vcs) queues += (queues.empty() ? "" : ",") + vc.name;
  for (const std::string& q : extra_queues) queues += "," + q;
  config["yarn.scheduler.capacity.root.queues"] = queues;
  // Shares rounded to 6 decimals; the largest VC takes the rounding residue so
  // that they add up to 100, as YARN requires of a queue's children.
  std::vector<double> shares;
  std::size_t largest = 0;
  double rounded_sum = 0;
  for (std::size_t i = 0; i < table.vcs.size(); ++i) {
    shares.push_back(std::stod(share_text(100.0 * table.vcs[i].gpus / total)));
    rounded_sum += shares.back();
    if (table.vcs[i].gpus > table.vcs[largest].gpus) largest = i;
  }
  shares[largest] = std::stod(share_text(shares[largest] + (100.0 - rounded_sum)));
  for (std::size_t i = 0; i < table.vcs.size(); ++i) {
    config["yarn.scheduler.capacity.root." + table.vcs[i].name + ".capacity"] = shares[i];
    config["yarn.scheduler.capacity.root." + table.vcs[i].name + ".maximum-capacity"] = shares[i];
  }
  for (const std::string& q : extra_queues) {
    config["yarn.scheduler.capacity.root." + q + ".capacity"] = 0;
    config["yarn.scheduler.capacity.root." + q + ".maximum-capacity"] = 100;
  }
  return config;
}

}  // namespace gcsim
