#include "sim/topology/cluster_reader.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/gpu_power_states.hpp"
#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"

namespace gcsim {
namespace {

constexpr std::uint64_t kMaxIndex = std::numeric_limits<std::uint32_t>::max();

const std::vector<std::string>& network_models() {
  static const std::vector<std::string> models = {"CM02", "LV08"};
  return models;
}

std::string join(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

std::string format_number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// "node_groups[1]", or "node_groups[1] (name 'dgx')" when the element carries a
// usable name, so that errors point at the object the user wrote.
std::string element_path(const std::string& array, std::size_t index, const nlohmann::json& item) {
  std::string path = array + "[" + std::to_string(index) + "]";
  if (item.is_object() && item.contains("name") && item.at("name").is_string() &&
      !item.at("name").get<std::string>().empty())
    path += " (name '" + item.at("name").get<std::string>() + "')";
  return path;
}

std::uint32_t read_count(const JsonObject& object, const std::string& field, std::uint64_t min = 1) {
  const std::uint64_t value = object.required_uint(field, min);
  if (value > kMaxIndex) object.fail(field, "must be at most " + std::to_string(kMaxIndex));
  return static_cast<std::uint32_t>(value);
}

LinkSpec read_link(const JsonObject& object) {
  LinkSpec link;
  link.bandwidth = object.required_quantity("bandwidth", Quantity::kBandwidth, /*strictly_positive=*/true);
  link.latency = object.required_quantity("latency", Quantity::kTime);
  return link;
}

// Watts: a plain number, never negative.
double read_watts(const JsonObject& object, const char* field, std::optional<double> fallback = std::nullopt) {
  const double watts = fallback ? object.optional_quantity(field, Quantity::kPlain, *fallback)
                                : object.required_quantity(field, Quantity::kPlain);
  if (watts < 0) object.fail(field, "must not be negative, got " + format_number(watts));
  return watts;
}

GpuPower read_gpu_power(const JsonObject& object) {
  object.reject_unknown_fields({"idle_watts", "busy_watts", "communicating_watts"});
  GpuPower power;
  power.idle_watts = read_watts(object, "idle_watts");
  power.busy_watts = read_watts(object, "busy_watts");
  if (power.busy_watts < power.idle_watts)
    object.fail("busy_watts", "must be at least idle_watts (" + format_number(power.idle_watts) + "), got " +
                                  format_number(power.busy_watts));
  power.communicating_watts = read_watts(object, "communicating_watts", power.idle_watts);
  return power;
}

// "power_states": [{"watts": 700, "speed": 1}, ...]: highest first, the
// watts falling and the speeds not rising from one state to the next.
std::vector<PowerState> read_power_states(const JsonObject& type) {
  const nlohmann::json& list = type.required_array("power_states");
  if (list.empty()) type.fail("power_states", "must list at least one state (leave it out for the bundled table)");
  std::vector<PowerState> states;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonObject state = element_of(type, "power_states", i, list[i]);
    state.reject_unknown_fields({"watts", "speed"});
    PowerState read;
    read.watts = state.required_quantity("watts", Quantity::kPlain, /*strictly_positive=*/true);
    read.speed = state.required_quantity("speed", Quantity::kPlain, /*strictly_positive=*/true);
    if (read.speed > 1)
      state.fail("speed", "must be in (0, 1], relative to full speed, got " + format_number(read.speed));
    if (!states.empty() && read.watts >= states.back().watts)
      state.fail("watts", "must be below the state before (" + format_number(states.back().watts) +
                              "): list the states highest first, got " + format_number(read.watts));
    if (!states.empty() && read.speed > states.back().speed)
      state.fail("speed", "must not exceed the speed of the state before (" + format_number(states.back().speed) +
                              ") at a lower limit, got " + format_number(read.speed));
    states.push_back(read);
  }
  return states;
}

// "power_cap_watts": kNever when absent.
double read_power_cap(const JsonObject& object) {
  return object.has("power_cap_watts")
             ? object.required_quantity("power_cap_watts", Quantity::kPlain, /*strictly_positive=*/true)
             : kNever;
}

GpuType read_gpu_type(const JsonObject& object) {
  object.reject_unknown_fields({"name", "flops", "memory", "power", "power_states", "power_cap_watts"});
  GpuType type;
  type.name = object.required_string("name");
  type.flops = object.required_quantity("flops", Quantity::kFlops, /*strictly_positive=*/true);
  type.memory_bytes = object.required_quantity("memory", Quantity::kBytes, /*strictly_positive=*/true);
  if (object.has("power")) type.power = read_gpu_power(object.required_object("power"));
  if (object.has("power_states")) type.power_states = read_power_states(object);
  type.power_cap_watts = read_power_cap(object);
  return type;
}

double read_oversubscription(const JsonObject& object, const char* field) {
  const double value = object.optional_quantity(field, Quantity::kPlain, 1.0);
  if (value < 1.0) object.fail(field, "must be at least 1 (1 = non-blocking), got " + format_number(value));
  return value;
}

IntraNodeKind read_intra_kind(const JsonObject& object) {
  const std::string kind = object.required_string("kind");
  if (kind == "nvlink") return IntraNodeKind::kNvlink;
  if (kind == "pcie") return IntraNodeKind::kPcie;
  object.fail("kind", "expected \"nvlink\" or \"pcie\", got \"" + kind + "\"");
}

// "sleep_after", "sleep_watts", "wake_up": a node that sleeps when no run
// has held it for a while; the other two say nothing without sleep_after.
void read_node_sleep(const JsonObject& object, NodeGroup& group) {
  if (!object.has("sleep_after")) {
    for (const char* field : {"sleep_watts", "wake_up"})
      if (object.has(field))
        object.fail(field, "describes a node's sleep, and the group gives no sleep_after: its nodes never sleep");
    return;
  }
  group.sleep_after = object.required_quantity("sleep_after", Quantity::kTime);
  group.sleep_watts = read_watts(object, "sleep_watts", 0.0);
  group.wake_up = object.optional_quantity("wake_up", Quantity::kTime, 0);
}

NodeGroup read_node_group(const JsonObject& object) {
  object.reject_unknown_fields({"name", "count", "gpus_per_node", "gpu_type", "cpu_cores", "memory", "rnics", "disk",
                                "role", "intra_node", "nic", "base_watts", "power_cap_watts", "sleep_after",
                                "sleep_watts", "wake_up"});
  NodeGroup group;
  group.name = object.required_string("name");
  group.count = read_count(object, "count");
  group.gpus_per_node = read_count(object, "gpus_per_node", 0);
  group.cpu_cores = read_count(object, "cpu_cores");
  group.memory_bytes = object.required_quantity("memory", Quantity::kBytes, /*strictly_positive=*/true);
  group.rnics = object.has("rnics") ? read_count(object, "rnics", 0) : 0;
  group.disk_bytes = object.optional_quantity("disk", Quantity::kBytes, 0);
  group.base_watts = read_watts(object, "base_watts", 0.0);
  group.power_cap_watts = read_power_cap(object);
  read_node_sleep(object, group);
  if (object.has("role")) {
    const nlohmann::json& role = object.raw("role");
    const std::optional<NodeRole> known =
        role.is_string() ? parse_node_role(role.get<std::string>()) : std::optional<NodeRole>();
    if (!known) object.fail("role", "expected \"CN\" (CPU nodes) or \"HN\" (GPU nodes), got " + role.dump());
    group.role = *known;
  }

  if (group.gpus_per_node == 0) {
    // A CPU node group: what describes GPUs would describe nothing.
    for (const char* field : {"gpu_type", "intra_node"})
      if (object.has(field))
        object.fail(field, std::string("a CPU node group (gpus_per_node 0) carries no GPU: leave '") + field + "' out");
  } else {
    group.gpu_type = object.required_string("gpu_type");
    const JsonObject intra = object.required_object("intra_node");
    intra.reject_unknown_fields({"kind", "bandwidth", "latency"});
    group.intra_kind = read_intra_kind(intra);
    group.intra = read_link(intra);
  }

  const JsonObject nic = object.required_object("nic");
  nic.reject_unknown_fields({"bandwidth", "latency", "per_gpu"});
  group.nic = read_link(nic);
  group.nic_per_gpu = nic.optional_bool("per_gpu", false);
  if (group.nic_per_gpu && group.gpus_per_node == 0)
    nic.fail("per_gpu", "a CPU node group (gpus_per_node 0) has no GPU to give a NIC: leave 'per_gpu' out");
  return group;
}

FabricSpec read_fabric(const JsonObject& object, std::uint64_t total_nodes, const std::vector<NodeGroup>& groups) {
  object.reject_unknown_fields({"nodes_per_rack", "oversubscription", "uplink_latency", "rail_optimized", "pxn",
                                "racks_per_pod", "pod_oversubscription", "pod_uplink_latency"});
  FabricSpec fabric;
  const std::uint64_t per_rack = object.optional_uint("nodes_per_rack", total_nodes, 1);
  if (per_rack > kMaxIndex) object.fail("nodes_per_rack", "must be at most " + std::to_string(kMaxIndex));
  fabric.nodes_per_rack = static_cast<std::uint32_t>(per_rack);
  fabric.oversubscription = read_oversubscription(object, "oversubscription");
  fabric.uplink_latency = object.optional_quantity("uplink_latency", Quantity::kTime, 0.0);

  fabric.rail_optimized = object.optional_bool("rail_optimized", false);
  if (fabric.rail_optimized &&
      std::none_of(groups.begin(), groups.end(), [](const NodeGroup& g) { return g.nic_per_gpu; }))
    object.fail("rail_optimized",
                "rails connect per-GPU NICs, and no node group has them: set 'per_gpu' in a group's 'nic'");
  fabric.pxn = object.optional_bool("pxn", false);
  if (fabric.pxn && !fabric.rail_optimized)
    object.fail("pxn", "PXN relays traffic between rails, so it needs a rail-optimized fabric: set 'rail_optimized'");

  // A third tier: racks in pods under a spine each, pods under a core.
  if (object.has("racks_per_pod")) {
    const std::uint64_t per_pod = object.required_uint("racks_per_pod", 1);
    if (per_pod > kMaxIndex) object.fail("racks_per_pod", "must be at most " + std::to_string(kMaxIndex));
    fabric.racks_per_pod = static_cast<std::uint32_t>(per_pod);
  } else {
    for (const char* field : {"pod_oversubscription", "pod_uplink_latency"})
      if (object.has(field))
        object.fail(field, std::string("describes the uplinks of pods, and without 'racks_per_pod' all racks form one "
                                       "pod: set 'racks_per_pod' or leave '") +
                               field + "' out");
  }
  fabric.pod_oversubscription = read_oversubscription(object, "pod_oversubscription");
  fabric.pod_uplink_latency = object.optional_quantity("pod_uplink_latency", Quantity::kTime, 0.0);
  return fabric;
}

NetworkModelSpec read_network_model(const JsonObject& object) {
  object.reject_unknown_fields({"model", "latency_factor", "bandwidth_factor", "tcp_window", "crosstraffic"});
  NetworkModelSpec network;
  network.model = object.optional_string("model", network.model);
  bool known = false;
  for (const std::string& model : network_models()) known = known || model == network.model;
  if (!known)
    object.fail("model",
                "unknown network model '" + network.model + "' (expected one of: " + join(network_models()) + ")");
  network.latency_factor =
      object.optional_quantity("latency_factor", Quantity::kPlain, network.latency_factor, /*strictly_positive=*/true);
  network.bandwidth_factor = object.optional_quantity("bandwidth_factor", Quantity::kPlain, network.bandwidth_factor,
                                                      /*strictly_positive=*/true);
  network.tcp_window_bytes = object.optional_quantity("tcp_window", Quantity::kBytes, network.tcp_window_bytes);
  network.crosstraffic = object.optional_bool("crosstraffic", network.crosstraffic);
  return network;
}

// A cap (the cluster's, its GPU type's or the group's own) on GPUs whose
// type has no power-state table, own or bundled, cannot say how they slow.
void check_capped_group(const JsonObject& object, const NodeGroup& group, const ClusterSpec& spec, bool cluster_cap) {
  if (group.gpus_per_node == 0) {
    if (group.power_cap_watts != kNever)
      object.fail("power_cap_watts", "a CPU node group (gpus_per_node 0) has no GPU to cap: leave it out");
    return;
  }
  const auto type = std::find_if(spec.gpu_types.begin(), spec.gpu_types.end(),
                                 [&](const GpuType& t) { return t.name == group.gpu_type; });
  if (type == spec.gpu_types.end() || !power_states_of(*type).empty()) return;
  const char* where = group.power_cap_watts != kNever   ? "the group's"
                      : type->power_cap_watts != kNever ? "its GPU type's"
                      : cluster_cap                     ? "the cluster's"
                                                        : nullptr;
  if (where)
    object.fail("power_cap_watts", std::string("its GPUs are capped (") + where + " power_cap_watts), but GPU type '" +
                                       type->name +
                                       "' has no bundled power-state table: give the type its power_states");
}

}  // namespace

ClusterSpec parse_cluster_json(const nlohmann::json& doc, const std::string& file_label) {
  const JsonObject root(doc, {file_label, ""});
  root.reject_unknown_fields({"name", "gpu_types", "node_groups", "fabric", "network_model", "pue", "power_cap_watts"});

  ClusterSpec spec;
  spec.name = root.required_string("name");

  // A cluster of CPU nodes alone may leave its GPU types out (or list none);
  // a node group that has GPUs names one of them.
  static const nlohmann::json kNoGpuTypes = nlohmann::json::array();
  const nlohmann::json& gpu_types = root.has("gpu_types") ? root.required_array("gpu_types") : kNoGpuTypes;
  std::map<std::string, std::string> gpu_type_paths;  // name -> path of its first definition
  for (std::size_t i = 0; i < gpu_types.size(); ++i) {
    const std::string path = element_path("gpu_types", i, gpu_types[i]);
    const JsonObject object(gpu_types[i], {file_label, path});
    GpuType type = read_gpu_type(object);
    if (auto [it, inserted] = gpu_type_paths.emplace(type.name, path); !inserted)
      object.fail("name", "duplicate GPU type name '" + type.name + "' (first defined at " + it->second + ")");
    spec.gpu_types.push_back(std::move(type));
  }

  spec.gpu_power_cap_watts = read_power_cap(root);
  const bool gpu_caps_given = spec.gpu_power_cap_watts != kNever;
  const nlohmann::json& node_groups = root.required_array("node_groups");
  if (node_groups.empty()) root.fail("node_groups", "must list at least one node group");
  std::map<std::string, std::string> group_paths;
  std::uint64_t total_nodes = 0;
  std::uint64_t total_gpus = 0;
  for (std::size_t i = 0; i < node_groups.size(); ++i) {
    const std::string path = element_path("node_groups", i, node_groups[i]);
    const JsonObject object(node_groups[i], {file_label, path});
    NodeGroup group = read_node_group(object);
    if (auto [it, inserted] = group_paths.emplace(group.name, path); !inserted)
      object.fail("name", "duplicate node group name '" + group.name + "' (first defined at " + it->second + ")");
    if (group.gpus_per_node > 0 && !gpu_type_paths.count(group.gpu_type)) {
      std::vector<std::string> known;
      for (const GpuType& type : spec.gpu_types) known.push_back(type.name);
      object.fail("gpu_type", "unknown GPU type '" + group.gpu_type +
                                  "' (gpu_types defines: " + (known.empty() ? "none" : join(known)) + ")");
    }
    check_capped_group(object, group, spec, gpu_caps_given);
    total_nodes += group.count;
    total_gpus += static_cast<std::uint64_t>(group.count) * group.gpus_per_node;
    spec.node_groups.push_back(std::move(group));
  }
  if (total_nodes > kMaxIndex || total_gpus > kMaxIndex)
    root.fail("node_groups", "describes " + std::to_string(total_nodes) + " nodes and " + std::to_string(total_gpus) +
                                 " GPUs; at most " + std::to_string(kMaxIndex) + " of each are supported");

  if (root.has("fabric")) {
    spec.fabric = read_fabric(root.required_object("fabric"), total_nodes, spec.node_groups);
  } else {
    spec.fabric = FabricSpec{};
    spec.fabric.nodes_per_rack = static_cast<std::uint32_t>(total_nodes);  // one rack
  }
  if (root.has("network_model")) spec.network = read_network_model(root.required_object("network_model"));
  spec.pue = root.optional_quantity("pue", Quantity::kPlain, 1.0);
  if (spec.pue < 1.0)
    root.fail("pue", "must be at least 1 (the facility draws at least what its IT equipment does), got " +
                         format_number(spec.pue));
  return spec;
}

ClusterSpec read_cluster_file(const std::string& path) { return parse_cluster_json(read_json_file(path), path); }

}  // namespace gcsim
