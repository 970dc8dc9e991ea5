#include "traces/machine_cluster.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "sim/core/input_error.hpp"
#include "traces/trace_setting_error.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {

constexpr double kGiB = 1073741824.0;

struct Shape {
  std::string type;  // the gcsim type name
  std::uint32_t gpus = 0, cpu_cores = 0;
  double memory_bytes = 0;
  bool operator==(const Shape& o) const {
    return type == o.type && gpus == o.gpus && cpu_cores == o.cpu_cores && memory_bytes == o.memory_bytes;
  }
};

struct Group {
  Shape shape;
  std::uint32_t count = 0;
  bool nvlink = false;
};

// "v100m32-c96-m384": 2- and 8-GPU machines (PAI's shapes) need no GPU
// count; "cpu-c32-m128" for machines without GPUs.
std::string base_group_name(const Shape& shape) {
  if (shape.gpus == 0)
    return "cpu-c" + std::to_string(shape.cpu_cores) + "-m" + describe_number(shape.memory_bytes / kGiB);
  std::string type = shape.type;
  for (char& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return type + "-c" + std::to_string(shape.cpu_cores) + "-m" + describe_number(shape.memory_bytes / kGiB) +
         (shape.gpus == 8 || shape.gpus == 2 ? "" : "-g" + std::to_string(shape.gpus));
}

std::string figures_text(const GpuFigures& figures) {
  return describe_number(figures.flops / 1e12) + " TFLOP/s " + describe_number(figures.memory / 1e9) + " GB";
}

}  // namespace

MachineCluster machine_cluster_json(const std::vector<TracedMachine>& machines, const std::string& name,
                                    const std::string& file, const std::string& model_field, const GpuModelMap& models,
                                    bool cpu_machines) {
  std::vector<Group> groups;
  std::vector<std::pair<std::string, GpuFigures>> types;  // model, figures; in order of first appearance
  std::size_t cpu_only = 0;
  for (const TracedMachine& machine : machines) {
    if (machine.gpus == 0) {
      ++cpu_only;
      if (!cpu_machines) continue;
      const Shape shape{"", 0, std::max<std::uint32_t>(machine.cpu_cores, 1), std::max(machine.memory_bytes, kGiB)};
      auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.shape == shape; });
      if (it == groups.end())
        groups.push_back({shape, 1, false});
      else
        ++it->count;
      continue;
    }
    const auto known =
        std::find_if(types.begin(), types.end(), [&](const auto& t) { return t.first == machine.gpu_model; });
    if (known == types.end()) {
      const std::optional<GpuFigures> figures = resolve_gpu_model(machine.gpu_model, models);
      const std::string line = "line " + std::to_string(machine.line);
      if (!figures && machine.gpu_model.empty())
        throw InputError(file, line, model_field,
                         "no GPU model given for a machine with " + std::to_string(machine.gpus) + " GPUs");
      if (!figures) throw unknown_gpu_model_error(file, line, model_field, machine.gpu_model);
      for (const auto& [model, other] : types)
        if (other.name == figures->name && (other.flops != figures->flops || other.memory != figures->memory))
          throw TraceSettingError(file, "", model_field,
                                  "GPU models '" + model + "' and '" + machine.gpu_model + "' both become GPU type '" +
                                      figures->name + "', with different figures (" + figures_text(other) + " and " +
                                      figures_text(*figures) + "); map them to different names with ",
                                  {"gpu_type", ""}, "");
      types.emplace_back(machine.gpu_model, *figures);
    }
    const GpuFigures& figures =
        std::find_if(types.begin(), types.end(), [&](const auto& t) { return t.first == machine.gpu_model; })->second;
    const Shape shape{figures.name, machine.gpus, std::max<std::uint32_t>(machine.cpu_cores, 1),
                      std::max(machine.memory_bytes, kGiB)};
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.shape == shape; });
    if (it == groups.end())
      groups.push_back({shape, 1, figures.nvlink && machine.gpus == 8});
    else
      ++it->count;
  }
  if (groups.empty())
    throw InputError(file, "", "",
                     cpu_machines ? "the machine list has no machine" : "the machine list has no machine with GPUs");

  MachineCluster result;
  nlohmann::json gpu_types = nlohmann::json::array();
  std::set<std::string> type_names;
  std::string figures_known, figures_mapped;
  for (const auto& [model, figures] : types) {
    if (!type_names.insert(figures.name).second) continue;  // two models, one type
    gpu_types.push_back({{"name", figures.name}, {"flops", figures.flops}, {"memory", figures.memory}});
    if (!models.count(model)) {
      figures_known += (figures_known.empty() ? "" : ", ") + model + " " + figures_text(figures) +
                       (figures.note.empty() ? "" : " (" + figures.note + ")");
    } else {
      figures_mapped +=
          (figures_mapped.empty() ? "" : "; ") + model + " as " + figures.name + ", " + figures_text(figures) +
          (figures.memory_assumed ? " (memory assumed: give it as --gpu-type " + model + "=" + figures.name + ":" +
                                        describe_number(figures.flops / 1e12) + "TFLOPS:MEMORY)"
                                  : "");
    }
  }
  nlohmann::json node_groups = nlohmann::json::array();
  std::set<std::string> group_names;
  for (const Group& group : groups) {
    std::string group_name = base_group_name(group.shape);
    if (group_names.count(group_name)) group_name += "-g" + std::to_string(group.shape.gpus);
    for (int k = 2; group_names.count(group_name); ++k)
      group_name = base_group_name(group.shape) + "-" + std::to_string(k);
    group_names.insert(group_name);
    nlohmann::json node_group = {
        {"name", group_name},
        {"count", group.count},
        {"gpus_per_node", group.shape.gpus},
        {"gpu_type", group.shape.type},
        {"cpu_cores", group.shape.cpu_cores},
        {"memory", group.shape.memory_bytes},
        {"intra_node", group.nvlink ? nlohmann::json{{"kind", "nvlink"}, {"bandwidth", 150e9}, {"latency", 2e-6}}
                                    : nlohmann::json{{"kind", "pcie"}, {"bandwidth", 15.75e9}, {"latency", 8e-6}}},
        {"nic", {{"bandwidth", 25e9 / 8}, {"latency", 5e-6}}}};
    if (group.shape.gpus == 0) {  // a CPU node group: nothing about GPUs
      node_group.erase("gpu_type");
      node_group.erase("intra_node");
    }
    node_groups.push_back(std::move(node_group));
    result.machines += group.count;
  }
  result.groups = groups.size();
  result.cluster = {{"name", name},
                    {"gpu_types", gpu_types},
                    {"node_groups", node_groups},
                    {"fabric",
                     {{"nodes_per_rack", std::min<std::uint64_t>(32, result.machines)},
                      {"oversubscription", 1},
                      {"uplink_latency", 1e-6}}}};
  if (!figures_known.empty())
    result.assumptions.push_back("GPU figures are nominal FP32 peaks, not in the list: " + figures_known);
  if (!figures_mapped.empty()) result.assumptions.push_back("GPU models mapped with --gpu-type: " + figures_mapped);
  result.assumptions.push_back(
      "the list does not describe the network: NVLink 150 GB/s inside 8-GPU V100, V100M16 and V100M32 machines, "
      "PCIe 15.75 GB/s inside the others, 25 Gb/s NICs, racks of 32 machines, no oversubscription");
  if (cpu_only > 0)
    result.assumptions.push_back(std::to_string(cpu_only) +
                                 (cpu_machines ? " CPU-only machines form CPU node groups (no GPU; CPU jobs run there)"
                                               : " CPU-only machines are left out"));
  return result;
}

}  // namespace gcsim
