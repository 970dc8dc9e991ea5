#include "traces/throughput_table.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {
namespace fs = std::filesystem;

/// "('ResNet-50 (batch size 64)', 4)" -> ("ResNet-50 (batch size 64)", 4).
std::optional<std::pair<std::string, std::uint32_t>> parse_gavel_key(const std::string& key) {
  if (key.size() < 7 || key.compare(0, 2, "('") != 0 || key.back() != ')') return std::nullopt;
  const auto quote = key.rfind("', ");
  if (quote == std::string::npos || quote < 2) return std::nullopt;
  const auto count = parse_trace_number(std::string_view(key).substr(quote + 3, key.size() - quote - 4));
  if (!count || *count < 1 || *count != std::floor(*count) || *count > 1e6) return std::nullopt;
  return std::make_pair(key.substr(2, quote - 2), static_cast<std::uint32_t>(*count));
}

/// One profiled configuration of a Pollux/Sia model.
struct StepTimeRow {
  std::string gpu_type;
  std::uint32_t gpus = 0, nodes = 0, local_bsz = 0;
  double step_time = 0;
};

std::optional<std::string> sia_machine_type(const std::string& machine) {
  static const std::map<std::string, std::string> types = {{"aws", "T4"},       {"azure", "V100"},
                                                           {"dgx", "A100"},     {"dgx-ext", "A100"},
                                                           {"quad", "RTX6000"}, {"rtx", "RTX2080Ti"}};
  const auto it = types.find(machine);
  if (it == types.end()) return std::nullopt;
  return it->second;
}

/// Reads placements*.csv or scalability*.csv into rows.
void read_step_time_file(const std::string& path, bool placements, const std::string& gpu_type,
                         std::vector<StepTimeRow>& rows) {
  std::ifstream in = open_trace_file(path);
  CsvRecords records(in, path);
  const CsvHeader header = read_csv_header(records);
  const std::size_t bsz = header.require("local_bsz"), step = header.require("step_time");
  const std::size_t first = header.require(placements ? "placement" : "num_nodes");
  const std::size_t replicas = placements ? 0 : header.require("num_replicas");
  for (CsvRecord record; records.next(record);) {
    const std::vector<std::string>& fields = record.fields;
    const std::string where = "line " + std::to_string(record.line);
    if (fields.size() != header.size())
      throw InputError(path, where, "",
                       "expected " + std::to_string(header.size()) + " fields, got " + std::to_string(fields.size()));
    StepTimeRow row;
    row.gpu_type = gpu_type;
    const auto number = [&](std::size_t column) {
      const auto value = parse_trace_number(fields[column]);
      if (!value || *value <= 0)
        throw InputError(path, where, header.names()[column],
                         "expected a positive number, got '" + fields[column] + "'");
      return *value;
    };
    const auto count = [&](std::size_t column) {
      const auto value = parse_trace_number(fields[column]);
      if (!value || *value < 1 || *value != std::floor(*value) || *value > 4294967295.0)
        throw InputError(path, where, header.names()[column],
                         "expected a whole number from 1 to 4294967295, got '" + fields[column] + "'");
      return static_cast<std::uint32_t>(*value);
    };
    row.step_time = number(step);
    row.local_bsz = count(bsz);
    if (placements) {
      const std::string placement(trim(fields[first]));
      if (placement.empty() ||
          !std::all_of(placement.begin(), placement.end(), [](char c) { return c >= '0' && c <= '9'; }))
        throw InputError(path, where, "placement", "expected digits (GPUs per node), got '" + placement + "'");
      for (char c : placement) row.gpus += static_cast<std::uint32_t>(c - '0');
      row.nodes = static_cast<std::uint32_t>(placement.size());
    } else {
      row.nodes = count(first);
      row.gpus = count(replicas);
    }
    if (row.gpus == 0) throw InputError(path, where, "placement", "a placement of 0 GPUs");
    rows.push_back(row);
  }
}

}  // namespace

std::optional<ThroughputSource> parse_throughput_source(const std::string& name) {
  if (name == "gavel") return ThroughputSource::kGavel;
  if (name == "pollux") return ThroughputSource::kPollux;
  if (name == "sia") return ThroughputSource::kSia;
  return std::nullopt;
}

std::string throughput_source_name(ThroughputSource source) {
  switch (source) {
    case ThroughputSource::kGavel:
      return "gavel";
    case ThroughputSource::kPollux:
      return "pollux";
    case ThroughputSource::kSia:
      return "sia";
  }
  return "";
}

std::string gpu_type_key(const std::string& name) {
  std::string key;
  for (char c : name)
    if (std::isalnum(static_cast<unsigned char>(c)))
      key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

std::vector<std::string> ThroughputTable::models() const {
  std::vector<std::string> names;
  for (const auto& entry : iterations_per_second) names.push_back(entry.first);
  return names;
}

std::vector<std::string> ThroughputTable::gpu_types(const std::string& model) const {
  std::vector<std::string> types;
  const auto it = iterations_per_second.find(model);
  if (it != iterations_per_second.end())
    for (const auto& entry : it->second)
      if (!entry.second.empty()) types.push_back(entry.first);
  return types;
}

std::optional<std::string> ThroughputTable::table_gpu_type(const std::string& model,
                                                           const std::string& cluster_type) const {
  const std::string key = gpu_type_key(cluster_type);
  for (const std::string& type : gpu_types(model))
    if (gpu_type_key(type) == key) return type;
  return std::nullopt;
}

std::optional<ThroughputLookup> ThroughputTable::lookup(const std::string& model, const std::string& gpu_type,
                                                        std::uint32_t gpus) const {
  const auto type = table_gpu_type(model, gpu_type);
  if (!type) return std::nullopt;
  const std::map<std::uint32_t, double>& counts = iterations_per_second.at(model).at(*type);
  if (counts.empty()) return std::nullopt;
  auto it = counts.upper_bound(gpus);  // first count above
  if (it != counts.begin()) --it;      // the nearest at or below, if any
  const double scale = per_worker_iterations ? static_cast<double>(gpus) / static_cast<double>(it->first) : 1.0;
  return ThroughputLookup{it->second * scale, it->first};
}

ThroughputTable read_gavel_throughputs(const std::string& path) {
  const nlohmann::json doc = read_json_file(path);
  if (!doc.is_object()) throw InputError(path, "", "", "expected an object of worker types");
  ThroughputTable table;
  table.source = ThroughputSource::kGavel;
  table.path = path;
  table.per_worker_iterations = true;
  const std::map<std::string, std::string> worker_types = {{"k80", "K80"}, {"p100", "P100"}, {"v100", "V100"}};
  for (const auto& [worker, jobs] : doc.items()) {
    const auto type = worker_types.find(worker);
    if (type == worker_types.end()) continue;  // *_unconsolidated: jobs spread over servers, not read
    if (!jobs.is_object()) throw InputError(path, worker, "", "expected an object of job types");
    for (const auto& [key, entry] : jobs.items()) {
      const auto job = parse_gavel_key(key);
      if (!job) throw InputError(path, worker, key, "expected a key ('<job type>', <GPU count>)");
      if (!entry.is_object() || !entry.contains("null") || !entry["null"].is_number())
        throw InputError(path, worker + "." + key, "null", "expected the isolated throughput (a number)");
      const double throughput = entry["null"].get<double>();
      if (!(std::isfinite(throughput) && throughput >= 0))
        throw InputError(path, worker + "." + key, "null", "expected a throughput >= 0, got " + entry["null"].dump());
      // 0: Gavel could not run this configuration (it did not fit in the GPU's memory).
      if (throughput == 0) {
        ++table.unprofiled;
        continue;
      }
      table.iterations_per_second[job->first][type->second][job->second] = throughput;
    }
  }
  if (table.iterations_per_second.empty())
    throw InputError(path, "", "", "no k80, p100 or v100 worker type: not a Gavel throughput file");
  return table;
}

ThroughputTable read_step_time_throughputs(const std::string& folder, ThroughputSource source) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    throw InputError(folder, "", "", "expected the throughput_traces folder (one sub-folder per model)");
  ThroughputTable table;
  table.source = source;
  table.path = folder;
  table.per_worker_iterations = false;
  std::vector<fs::path> models;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.is_directory()) models.push_back(entry.path());
  std::sort(models.begin(), models.end());
  for (const fs::path& model_dir : models) {
    // Machines in a fixed order: dgx before dgx-ext, so dgx-ext only fills gaps.
    std::map<std::string, std::vector<fs::path>> files;  // machine ("" = un-suffixed) -> files
    for (const auto& entry : fs::directory_iterator(model_dir)) {
      const std::string name = entry.path().filename().string();
      for (const std::string kind : {"placements", "scalability"}) {
        if (name.rfind(kind, 0) != 0 || name.size() < kind.size() + 4 || name.substr(name.size() - 4) != ".csv")
          continue;
        std::string machine = name.substr(kind.size(), name.size() - 4 - kind.size());
        if (!machine.empty() && machine[0] == '-')
          machine = machine.substr(1);
        else if (!machine.empty())
          continue;
        files[machine].push_back(entry.path());
      }
    }
    if (files.empty()) continue;  // not a model folder
    std::vector<StepTimeRow> rows;
    for (auto& [machine, paths] : files) {
      const auto type = machine.empty() ? std::optional<std::string>("T4") : sia_machine_type(machine);
      if (!type)
        throw InputError(paths.front().string(), "", "",
                         "unknown machine '" + machine + "' (expected aws, azure, dgx, dgx-ext, quad or rtx)");
      std::sort(paths.begin(), paths.end());
      for (const fs::path& path : paths)
        read_step_time_file(path.string(), path.filename().string().rfind("placements", 0) == 0,
                            machine == "dgx-ext" ? "A100 (dgx-ext)" : *type, rows);
    }
    if (rows.empty()) continue;
    const std::string model = model_dir.filename().string();
    std::uint32_t batch = std::numeric_limits<std::uint32_t>::max();
    for (const StepTimeRow& row : rows) batch = std::min(batch, row.local_bsz);
    table.local_batch_size[model] = batch;
    // type -> count -> (nodes, step time) of the best row at that batch size.
    std::map<std::string, std::map<std::uint32_t, std::pair<std::uint32_t, double>>> best;
    for (const StepTimeRow& row : rows) {
      if (row.local_bsz != batch) continue;
      auto [it, inserted] = best[row.gpu_type].emplace(row.gpus, std::make_pair(row.nodes, row.step_time));
      if (!inserted && std::make_pair(row.nodes, row.step_time) < it->second) it->second = {row.nodes, row.step_time};
    }
    auto& speeds = table.iterations_per_second[model];
    for (const auto& [type, counts] : best) {
      const bool extension = type == "A100 (dgx-ext)";
      auto& target = speeds[extension ? "A100" : type];
      for (const auto& [gpus, nodes_and_time] : counts)
        if (!extension || !target.count(gpus)) target[gpus] = 1.0 / nodes_and_time.second;
    }
  }
  if (table.iterations_per_second.empty())
    throw InputError(folder, "", "", "no model folder with placements*.csv or scalability*.csv");
  return table;
}

ThroughputTable read_throughput_table(ThroughputSource source, const std::string& path) {
  return source == ThroughputSource::kGavel ? read_gavel_throughputs(path) : read_step_time_throughputs(path, source);
}

}  // namespace gcsim
