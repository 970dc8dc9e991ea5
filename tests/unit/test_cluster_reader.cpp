// Tests for the cluster description reader: the bundled clusters parse into
// the hardware they describe, and each kind of bad input is rejected with an
// InputError that names the file and the offending field or line.
#include "sim/topology/cluster_reader.hpp"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/input_error.hpp"
#include "tests/support/crafted_specs.hpp"

namespace gcsim {
namespace {

std::string bundled(const std::string& file) { return std::string(GCSIM_SOURCE_DIR) + "/scenarios/clusters/" + file; }

// ---- bundled clusters -------------------------------------------------------

struct BundledCluster {
  std::string file;
  std::size_t node_groups;
  std::size_t nodes;
  std::size_t gpus;
  std::size_t racks;
};

class BundledClusterTest : public ::testing::TestWithParam<BundledCluster> {};

TEST_P(BundledClusterTest, ParsesWithExpectedCounts) {
  const BundledCluster& expected = GetParam();
  const ClusterSpec spec = read_cluster_file(bundled(expected.file));
  const ClusterLayout layout(spec);
  EXPECT_EQ(spec.node_groups.size(), expected.node_groups);
  EXPECT_EQ(layout.node_count(), expected.nodes);
  EXPECT_EQ(layout.gpu_count(), expected.gpus);
  EXPECT_EQ(layout.rack_count(), expected.racks);
}

INSTANTIATE_TEST_SUITE_P(Clusters, BundledClusterTest,
                         ::testing::Values(BundledCluster{"node-8gpu-nvlink.json", 1, 1, 8, 1},
                                           BundledCluster{"rack-32gpu.json", 1, 4, 32, 1},
                                           BundledCluster{"cluster-512gpu.json", 1, 64, 512, 4},
                                           BundledCluster{"hetero-2types.json", 2, 4, 24, 2},
                                           BundledCluster{"cluster-20k-gpu.json", 1, 2500, 20000, 79},
                                           BundledCluster{"pooled-6500gpu.json", 1, 1, 6500, 1},
                                           BundledCluster{"h100-rails-1024gpu.json", 1, 128, 1024, 4},
                                           BundledCluster{"h100-rails-16k-gpu.json", 1, 2048, 16384, 64}),
                         [](const ::testing::TestParamInfo<BundledCluster>& info) {
                           std::string name;
                           for (char c : info.param.file.substr(0, info.param.file.find('.')))
                             name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

// The smallest GPU memory counts the types nodes carry: not a type no node
// group uses, nor a group of no nodes.
TEST(ClusterLayoutMemory, TheSmallestGpuMemoryIsAmongTheGpusNodesCarry) {
  ClusterSpec spec;
  spec.name = "mixed";
  spec.gpu_types = {GpuType{"small-unused", 1e12, 8e9}, GpuType{"mid", 1e12, 16e9}, GpuType{"big", 1e12, 32e9},
                    GpuType{"tiny-empty-group", 1e12, 4e9}};
  spec.node_groups = {testing::crafted_node_group("big-nodes", 2, 4, "big"),
                      testing::crafted_node_group("none", 0, 4, "tiny-empty-group"),
                      testing::crafted_node_group("mid-nodes", 1, 2, "mid")};
  EXPECT_EQ(ClusterLayout(spec).smallest_gpu_memory(), 16e9);
  spec.node_groups.pop_back();
  EXPECT_EQ(ClusterLayout(spec).smallest_gpu_memory(), 32e9);
}

TEST(ClusterReader, ConvertsUnitsToBaseUnits) {
  const ClusterSpec spec = read_cluster_file(bundled("node-8gpu-nvlink.json"));
  ASSERT_EQ(spec.gpu_types.size(), 1u);
  EXPECT_DOUBLE_EQ(spec.gpu_types[0].flops, 15.7e12);
  EXPECT_DOUBLE_EQ(spec.gpu_types[0].memory_bytes, 32e9);
  const NodeGroup& group = spec.node_groups.at(0);
  EXPECT_EQ(group.intra_kind, IntraNodeKind::kNvlink);
  EXPECT_DOUBLE_EQ(group.intra.bandwidth, 150e9);
  EXPECT_DOUBLE_EQ(group.intra.latency, 2e-6);
  EXPECT_DOUBLE_EQ(group.nic.bandwidth, 100e9 / 8);  // 100 Gbit/s = 12.5 GB/s
  EXPECT_DOUBLE_EQ(group.nic.latency, 5e-6);
  EXPECT_DOUBLE_EQ(group.memory_bytes, 512e9);
  EXPECT_EQ(group.cpu_cores, 40u);
}

TEST(ClusterReader, ReadsFabricAndNetworkModel) {
  const ClusterSpec spec = read_cluster_file(bundled("cluster-512gpu.json"));
  EXPECT_EQ(spec.fabric.nodes_per_rack, 16u);
  EXPECT_DOUBLE_EQ(spec.fabric.oversubscription, 2.0);
  EXPECT_DOUBLE_EQ(spec.fabric.uplink_latency, 1e-6);
  EXPECT_EQ(spec.network.model, "CM02");
  EXPECT_DOUBLE_EQ(spec.network.tcp_window_bytes, 0.0);
  EXPECT_FALSE(spec.network.crosstraffic);
}

TEST(ClusterReader, ReadsPcieNodeGroup) {
  const ClusterSpec spec = read_cluster_file(bundled("hetero-2types.json"));
  const NodeGroup& k80 = spec.node_groups.at(1);
  EXPECT_EQ(k80.gpu_type, "K80");
  EXPECT_EQ(k80.intra_kind, IntraNodeKind::kPcie);
  EXPECT_DOUBLE_EQ(k80.intra.bandwidth, 15.75e9);
}

// ---- crafted inputs ---------------------------------------------------------

// A small valid description; bad-input cases each change one thing.
nlohmann::json minimal_cluster() {
  return nlohmann::json::parse(R"({
    "name": "tiny",
    "gpu_types": [{"name": "V100", "flops": "15.7TFLOPS", "memory": "32GB"}],
    "node_groups": [
      {"name": "dgx", "count": 2, "gpus_per_node": 8, "gpu_type": "V100", "cpu_cores": 40, "memory": "512GB",
       "intra_node": {"kind": "nvlink", "bandwidth": "150GB/s", "latency": "2us"},
       "nic": {"bandwidth": "100Gbps", "latency": "5us"}}
    ]
  })");
}

TEST(ClusterReader, ReadsGpuPowerNodeBaseWattsAndPue) {
  nlohmann::json doc = minimal_cluster();
  doc["gpu_types"][0]["power"] = {{"idle_watts", 55}, {"busy_watts", 290}, {"communicating_watts", 120}};
  doc["node_groups"][0]["base_watts"] = 800;
  doc["pue"] = 1.4;
  const ClusterSpec spec = parse_cluster_json(doc, "tiny.json");
  ASSERT_TRUE(spec.gpu_types[0].power.has_value());
  EXPECT_EQ(spec.gpu_types[0].power->idle_watts, 55);
  EXPECT_EQ(spec.gpu_types[0].power->busy_watts, 290);
  EXPECT_EQ(spec.gpu_types[0].power->communicating_watts, 120);
  EXPECT_EQ(spec.node_groups[0].base_watts, 800);
  EXPECT_EQ(spec.pue, 1.4);
}

TEST(ClusterReader, OmittedPowerFieldsTakeTheirDefaults) {
  nlohmann::json doc = minimal_cluster();
  const ClusterSpec without = parse_cluster_json(doc, "tiny.json");
  EXPECT_FALSE(without.gpu_types[0].power.has_value());  // the bundled default applies when energy is accounted
  EXPECT_EQ(without.node_groups[0].base_watts, 0);
  EXPECT_EQ(without.pue, 1.0);
  doc["gpu_types"][0]["power"] = {{"idle_watts", 55}, {"busy_watts", 290}};
  const ClusterSpec spec = parse_cluster_json(doc, "tiny.json");
  EXPECT_EQ(spec.gpu_types[0].power->communicating_watts, 55);  // communicating draws the idle figure
}

TEST(ClusterReader, OmittedFabricMeansOneNonBlockingRack) {
  const ClusterSpec spec = parse_cluster_json(minimal_cluster(), "tiny.json");
  EXPECT_EQ(spec.fabric.nodes_per_rack, 2u);
  EXPECT_DOUBLE_EQ(spec.fabric.oversubscription, 1.0);
  EXPECT_DOUBLE_EQ(spec.fabric.uplink_latency, 0.0);
  EXPECT_EQ(ClusterLayout(spec).rack_count(), 1u);
}

TEST(ClusterReader, OmittedNodesPerRackMeansOneRack) {
  nlohmann::json doc = minimal_cluster();
  doc["fabric"] = {{"oversubscription", 3}};
  const ClusterSpec spec = parse_cluster_json(doc, "tiny.json");
  EXPECT_EQ(spec.fabric.nodes_per_rack, 2u);
  EXPECT_DOUBLE_EQ(spec.fabric.oversubscription, 3.0);
}

TEST(ClusterReader, OmittedNetworkModelMeansCm02WithUnitFactors) {
  const ClusterSpec spec = parse_cluster_json(minimal_cluster(), "tiny.json");
  EXPECT_EQ(spec.network.model, "CM02");
  EXPECT_DOUBLE_EQ(spec.network.latency_factor, 1.0);
  EXPECT_DOUBLE_EQ(spec.network.bandwidth_factor, 1.0);
  EXPECT_DOUBLE_EQ(spec.network.tcp_window_bytes, 0.0);
  EXPECT_FALSE(spec.network.crosstraffic);
}

// A CPU node group: no GPU, no GPU type, no GPU interconnect; its nodes
// are numbered among the others and carry cores, memory and a NIC.
nlohmann::json cpu_group(const std::string& name, int count) {
  return {{"name", name},    {"count", count},    {"gpus_per_node", 0},
          {"cpu_cores", 28}, {"memory", "192GB"}, {"nic", {{"bandwidth", "25Gbps"}, {"latency", "5us"}}}};
}

TEST(ClusterReader, ReadsCpuNodeGroupsBesideGpuGroups) {
  nlohmann::json doc = minimal_cluster();
  doc["node_groups"].insert(doc["node_groups"].begin(), cpu_group("cpu", 3));
  const ClusterSpec spec = parse_cluster_json(doc, "tiny.json");
  ASSERT_EQ(spec.node_groups.size(), 2u);
  EXPECT_EQ(spec.node_groups[0].gpus_per_node, 0u);
  EXPECT_EQ(spec.node_groups[0].gpu_type, "");
  EXPECT_EQ(spec.node_groups[0].cpu_cores, 28u);
  EXPECT_DOUBLE_EQ(spec.node_groups[0].nic.bandwidth, 25e9 / 8);
  const ClusterLayout layout(spec);
  EXPECT_EQ(layout.node_count(), 5u);
  EXPECT_EQ(layout.gpu_count(), 16u);
  EXPECT_TRUE(layout.node(0).gpus.empty());
  EXPECT_FALSE(layout.has_gpus(2));
  EXPECT_TRUE(layout.has_gpus(3));
  EXPECT_EQ(layout.node(3).name, "dgx-0");
  EXPECT_EQ(layout.node_of(0), 3u);  // GPUs are numbered from the first node that has any
  EXPECT_EQ(layout.gpu_label(0), "dgx-0:0");
  EXPECT_EQ(layout.smallest_gpu_memory(), 32e9);
}

TEST(ClusterReader, ACpuClusterHasNoGpuTypeAndNoGpu) {
  nlohmann::json doc = minimal_cluster();
  doc["gpu_types"] = nlohmann::json::array();
  doc["node_groups"] = nlohmann::json::array({cpu_group("ray", 3)});
  const ClusterSpec spec = parse_cluster_json(doc, "ray.json");
  const ClusterLayout layout(spec);
  EXPECT_EQ(layout.node_count(), 3u);
  EXPECT_EQ(layout.gpu_count(), 0u);
  EXPECT_EQ(layout.smallest_gpu_memory(), 0);
  doc.erase("gpu_types");
  EXPECT_EQ(ClusterLayout(parse_cluster_json(doc, "ray.json")).node_count(), 3u);
}

TEST(ClusterReader, ReadsLv08WithTcpWindow) {
  nlohmann::json doc = minimal_cluster();
  doc["network_model"] = {{"model", "LV08"}, {"tcp_window", "4MiB"}, {"crosstraffic", true}};
  const ClusterSpec spec = parse_cluster_json(doc, "tiny.json");
  EXPECT_EQ(spec.network.model, "LV08");
  EXPECT_DOUBLE_EQ(spec.network.tcp_window_bytes, 4.0 * 1024 * 1024);
  EXPECT_TRUE(spec.network.crosstraffic);
}

// ---- rails and pods ----------------------------------------------------------

nlohmann::json rail_cluster() {
  nlohmann::json doc = minimal_cluster();
  doc["node_groups"][0]["nic"] = {{"bandwidth", "400Gbps"}, {"latency", "2us"}, {"per_gpu", true}};
  doc["fabric"] = {{"nodes_per_rack", 1}, {"rail_optimized", true},    {"pxn", true},
                   {"racks_per_pod", 1},  {"pod_oversubscription", 2}, {"pod_uplink_latency", "3us"}};
  return doc;
}

TEST(ClusterReader, ReadsPerGpuNicsRailsPxnAndPods) {
  const ClusterSpec spec = parse_cluster_json(rail_cluster(), "rails.json");
  EXPECT_TRUE(spec.node_groups[0].nic_per_gpu);
  EXPECT_DOUBLE_EQ(spec.node_groups[0].nic.bandwidth, 50e9);
  EXPECT_TRUE(spec.fabric.rail_optimized);
  EXPECT_TRUE(spec.fabric.pxn);
  EXPECT_EQ(spec.fabric.racks_per_pod, 1u);
  EXPECT_DOUBLE_EQ(spec.fabric.pod_oversubscription, 2.0);
  EXPECT_DOUBLE_EQ(spec.fabric.pod_uplink_latency, 3e-6);
  const ClusterLayout layout(spec);
  EXPECT_EQ(layout.fabric().links().nics.size(), 16u);          // 2 nodes x 8 GPUs
  EXPECT_EQ(layout.fabric().links().leaf_uplinks.size(), 16u);  // 2 racks x 8 rails
  EXPECT_EQ(layout.fabric().links().pod_uplinks.size(), 2u);
}

TEST(ClusterReader, BundledRailClustersGiveEachGpuA400GbpsNicOnItsRail) {
  for (const char* file : {"h100-rails-1024gpu.json", "h100-rails-16k-gpu.json"}) {
    SCOPED_TRACE(file);
    const ClusterLayout layout(read_cluster_file(bundled(file)));
    const FabricLayout& fabric = layout.fabric();
    EXPECT_TRUE(layout.spec().node_groups[0].nic_per_gpu);
    EXPECT_DOUBLE_EQ(layout.spec().node_groups[0].intra.bandwidth, 450e9);
    EXPECT_EQ(fabric.links().nics.size(), layout.gpu_count());
    EXPECT_DOUBLE_EQ(fabric.links().nics[0].bandwidth, 50e9);               // 400 Gb/s
    EXPECT_EQ(fabric.leaf_count(0), 8u);                                    // 8 rails a rail group of 32 nodes
    EXPECT_DOUBLE_EQ(fabric.links().leaf_uplinks[0].bandwidth, 32 * 50e9);  // non-blocking
    EXPECT_EQ(fabric.gpu_place(8 + 5).rail, 5u);
    EXPECT_TRUE(fabric.pxn());
  }
  // 16,384 GPUs: 16 pods of 4 rail groups under a non-blocking core.
  const ClusterLayout large(read_cluster_file(bundled("h100-rails-16k-gpu.json")));
  EXPECT_EQ(large.fabric().pod_count(), 16u);
  EXPECT_DOUBLE_EQ(large.fabric().links().pod_uplinks[0].bandwidth, 4 * 8 * 32 * 50e9);
}

// Every file written before rails and pods existed describes the same cluster.
TEST(ClusterReader, OmittedRailAndPodFieldsMeanOneSharedNicPerNodeInOnePod) {
  const ClusterSpec spec = read_cluster_file(bundled("cluster-512gpu.json"));
  EXPECT_FALSE(spec.node_groups[0].nic_per_gpu);
  EXPECT_FALSE(spec.fabric.rail_optimized);
  EXPECT_FALSE(spec.fabric.pxn);
  EXPECT_EQ(spec.fabric.racks_per_pod, 0u);
  const ClusterLayout layout(spec);
  EXPECT_EQ(layout.fabric().links().nics.size(), 64u);
  EXPECT_EQ(layout.fabric().links().leaf_uplinks.size(), 4u);
  EXPECT_EQ(layout.fabric().pod_count(), 1u);
}

struct BadInput {
  std::string name;
  std::function<void(nlohmann::json&)> change;
  std::string where;  // expected InputError::where()
  std::string field;  // expected InputError::field()
  std::string says;   // a phrase the problem must contain
};

std::ostream& operator<<(std::ostream& out, const BadInput& bad) { return out << bad.name; }

class BadClusterTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadClusterTest, ThrowsInputErrorNamingFileAndField) {
  const BadInput& bad = GetParam();
  nlohmann::json doc = minimal_cluster();
  bad.change(doc);
  try {
    parse_cluster_json(doc, "bad.json");
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), "bad.json");
    EXPECT_EQ(error.where(), bad.where);
    EXPECT_EQ(error.field(), bad.field);
    EXPECT_NE(error.problem().find(bad.says), std::string::npos) << error.what();
    const std::string what = error.what();
    EXPECT_NE(what.find("bad.json"), std::string::npos) << what;
    EXPECT_NE(what.find("'" + bad.field + "'"), std::string::npos) << what;
  }
}

const std::string kGroup = "node_groups[0] (name 'dgx')";

INSTANTIATE_TEST_SUITE_P(
    Cases, BadClusterTest,
    ::testing::Values(
        BadInput{"MissingName", [](nlohmann::json& d) { d.erase("name"); }, "", "name", "missing"},
        BadInput{"UnknownTopLevelField", [](nlohmann::json& d) { d["fabrik"] = nlohmann::json::object(); }, "",
                 "fabrik", "unknown field"},
        BadInput{"MissingGpusPerNode", [](nlohmann::json& d) { d["node_groups"][0].erase("gpus_per_node"); }, kGroup,
                 "gpus_per_node", "missing"},
        BadInput{"MisspelledNodeGroupField",
                 [](nlohmann::json& d) {
                   d["node_groups"][0]["gpu_per_node"] = d["node_groups"][0]["gpus_per_node"];
                   d["node_groups"][0].erase("gpus_per_node");
                 },
                 kGroup, "gpu_per_node", "unknown field"},
        BadInput{"UnknownGpuTypeField", [](nlohmann::json& d) { d["gpu_types"][0]["tdp"] = "300W"; },
                 "gpu_types[0] (name 'V100')", "tdp", "unknown field"},
        BadInput{"UnknownNicField", [](nlohmann::json& d) { d["node_groups"][0]["nic"]["mtu"] = 9000; },
                 kGroup + ".nic", "mtu", "unknown field"},
        BadInput{"NegativeGpusPerNode", [](nlohmann::json& d) { d["node_groups"][0]["gpus_per_node"] = -1; }, kGroup,
                 "gpus_per_node", ">= 0"},
        BadInput{"GpuTypeOnCpuGroup", [](nlohmann::json& d) { d["node_groups"][0]["gpus_per_node"] = 0; }, kGroup,
                 "gpu_type", "a CPU node group (gpus_per_node 0) carries no GPU: leave 'gpu_type' out"},
        BadInput{"IntraNodeOnCpuGroup",
                 [](nlohmann::json& d) {
                   d["node_groups"][0]["gpus_per_node"] = 0;
                   d["node_groups"][0].erase("gpu_type");
                 },
                 kGroup, "intra_node", "leave 'intra_node' out"},
        BadInput{"MissingGpuTypeOnGpuGroup", [](nlohmann::json& d) { d["node_groups"][0].erase("gpu_type"); }, kGroup,
                 "gpu_type", "missing"},
        BadInput{"NoGpuTypesForAGpuGroup", [](nlohmann::json& d) { d["gpu_types"] = nlohmann::json::array(); }, kGroup,
                 "gpu_type", "unknown GPU type 'V100' (gpu_types defines: none)"},
        BadInput{"ZeroNodeCount", [](nlohmann::json& d) { d["node_groups"][0]["count"] = 0; }, kGroup, "count", ">= 1"},
        BadInput{"FractionalCount", [](nlohmann::json& d) { d["node_groups"][0]["count"] = 1.5; }, kGroup, "count",
                 "integer"},
        BadInput{"NegativeIntraLatency",
                 [](nlohmann::json& d) { d["node_groups"][0]["intra_node"]["latency"] = "-2us"; },
                 kGroup + ".intra_node", "latency", "negative"},
        BadInput{"NegativeNicLatency", [](nlohmann::json& d) { d["node_groups"][0]["nic"]["latency"] = -1e-6; },
                 kGroup + ".nic", "latency", "negative"},
        BadInput{"ZeroNicBandwidth", [](nlohmann::json& d) { d["node_groups"][0]["nic"]["bandwidth"] = "0Gbps"; },
                 kGroup + ".nic", "bandwidth", "greater than zero"},
        BadInput{"BandwidthWithoutUnitOrNumber",
                 [](nlohmann::json& d) { d["node_groups"][0]["nic"]["bandwidth"] = "fast"; }, kGroup + ".nic",
                 "bandwidth", "bandwidth"},
        BadInput{"ZeroFlops", [](nlohmann::json& d) { d["gpu_types"][0]["flops"] = 0; }, "gpu_types[0] (name 'V100')",
                 "flops", "greater than zero"},
        BadInput{"UnknownIntraKind", [](nlohmann::json& d) { d["node_groups"][0]["intra_node"]["kind"] = "infinity"; },
                 kGroup + ".intra_node", "kind", "\"nvlink\" or \"pcie\""},
        BadInput{"UnknownGpuType", [](nlohmann::json& d) { d["node_groups"][0]["gpu_type"] = "A100"; }, kGroup,
                 "gpu_type", "unknown GPU type 'A100' (gpu_types defines: V100)"},
        BadInput{"DuplicateGpuTypeName", [](nlohmann::json& d) { d["gpu_types"].push_back(d["gpu_types"][0]); },
                 "gpu_types[1] (name 'V100')", "name", "duplicate"},
        BadInput{"DuplicateNodeGroupName", [](nlohmann::json& d) { d["node_groups"].push_back(d["node_groups"][0]); },
                 "node_groups[1] (name 'dgx')", "name", "duplicate"},
        BadInput{"EmptyNodeGroupName", [](nlohmann::json& d) { d["node_groups"][0]["name"] = ""; }, "node_groups[0]",
                 "name", "empty"},
        BadInput{"NoNodeGroups", [](nlohmann::json& d) { d["node_groups"] = nlohmann::json::array(); }, "",
                 "node_groups", "at least one"},
        BadInput{"UnknownNetworkModel", [](nlohmann::json& d) { d["network_model"] = {{"model", "SMPI"}}; },
                 "network_model", "model", "expected one of: CM02, LV08"},
        BadInput{"OversubscriptionBelowOne", [](nlohmann::json& d) { d["fabric"] = {{"oversubscription", 0.5}}; },
                 "fabric", "oversubscription", "at least 1"},
        BadInput{"ZeroNodesPerRack", [](nlohmann::json& d) { d["fabric"] = {{"nodes_per_rack", 0}}; }, "fabric",
                 "nodes_per_rack", ">= 1"},
        BadInput{"PerGpuNicOnCpuGroup",
                 [](nlohmann::json& d) {
                   d["node_groups"][0] = cpu_group("cpu", 1);
                   d["node_groups"][0]["nic"]["per_gpu"] = true;
                 },
                 "node_groups[0] (name 'cpu').nic", "per_gpu", "no GPU to give a NIC"},
        BadInput{"PerGpuNotBoolean", [](nlohmann::json& d) { d["node_groups"][0]["nic"]["per_gpu"] = 8; },
                 kGroup + ".nic", "per_gpu", "true or false"},
        BadInput{"RailsWithoutPerGpuNics", [](nlohmann::json& d) { d["fabric"] = {{"rail_optimized", true}}; },
                 "fabric", "rail_optimized", "set 'per_gpu'"},
        BadInput{"PxnWithoutRails", [](nlohmann::json& d) { d["fabric"] = {{"pxn", true}}; }, "fabric", "pxn",
                 "needs a rail-optimized fabric"},
        BadInput{"ZeroRacksPerPod", [](nlohmann::json& d) { d["fabric"] = {{"racks_per_pod", 0}}; }, "fabric",
                 "racks_per_pod", ">= 1"},
        BadInput{"PodOversubscriptionWithoutPods", [](nlohmann::json& d) { d["fabric"] = {{"pod_oversubscription", 2}}; },
                 "fabric", "pod_oversubscription", "set 'racks_per_pod'"},
        BadInput{"PodUplinkLatencyWithoutPods",
                 [](nlohmann::json& d) { d["fabric"] = {{"pod_uplink_latency", "1us"}}; }, "fabric",
                 "pod_uplink_latency", "set 'racks_per_pod'"},
        BadInput{"PodOversubscriptionBelowOne",
                 [](nlohmann::json& d) { d["fabric"] = {{"racks_per_pod", 2}, {"pod_oversubscription", 0.5}}; },
                 "fabric", "pod_oversubscription", "at least 1"},
        BadInput{"UnknownFabricField", [](nlohmann::json& d) { d["fabric"] = {{"planes", 2}}; }, "fabric", "planes",
                 "unknown field"},
        BadInput{"CrosstrafficNotBoolean", [](nlohmann::json& d) { d["network_model"] = {{"crosstraffic", "yes"}}; },
                 "network_model", "crosstraffic", "true or false"},
        BadInput{"NegativeIdleWatts",
                 [](nlohmann::json& d) { d["gpu_types"][0]["power"] = {{"idle_watts", -1}, {"busy_watts", 300}}; },
                 "gpu_types[0] (name 'V100').power", "idle_watts", "must not be negative"},
        BadInput{"BusyWattsBelowIdle",
                 [](nlohmann::json& d) { d["gpu_types"][0]["power"] = {{"idle_watts", 100}, {"busy_watts", 50}}; },
                 "gpu_types[0] (name 'V100').power", "busy_watts", "must be at least idle_watts (100)"},
        BadInput{"MissingBusyWatts", [](nlohmann::json& d) { d["gpu_types"][0]["power"] = {{"idle_watts", 50}}; },
                 "gpu_types[0] (name 'V100').power", "busy_watts", "missing"},
        BadInput{"NegativeCommunicatingWatts",
                 [](nlohmann::json& d) {
                   d["gpu_types"][0]["power"] = {{"idle_watts", 50}, {"busy_watts", 300}, {"communicating_watts", -5}};
                 },
                 "gpu_types[0] (name 'V100').power", "communicating_watts", "must not be negative"},
        BadInput{"UnknownPowerField",
                 [](nlohmann::json& d) {
                   d["gpu_types"][0]["power"] = {{"idle_watts", 50}, {"busy_watts", 300}, {"tdp", 300}};
                 },
                 "gpu_types[0] (name 'V100').power", "tdp", "unknown field"},
        BadInput{"NegativeBaseWatts", [](nlohmann::json& d) { d["node_groups"][0]["base_watts"] = -400; }, kGroup,
                 "base_watts", "must not be negative"},
        BadInput{"PueBelowOne", [](nlohmann::json& d) { d["pue"] = 0.9; }, "", "pue", "at least 1"}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return info.param.name; });

TEST(ClusterReader, RejectsNonObjectDocument) {
  EXPECT_THROW(parse_cluster_json(nlohmann::json::array(), "list.json"), InputError);
}

// ---- files ------------------------------------------------------------------

std::string write_temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(ClusterReader, MalformedJsonNamesFileAndLine) {
  const std::string path = write_temp_file("gcsim_malformed_cluster.json",
                                           "{\n"
                                           "  \"name\": \"broken\",\n"
                                           "  \"gpu_types\": [ {\"name\": \"V100\",, } ]\n"
                                           "}\n");
  try {
    read_cluster_file(path);
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find("line 3"), std::string::npos) << what;
  }
  std::remove(path.c_str());
}

TEST(ClusterReader, MissingFileNamesFile) {
  const std::string path = ::testing::TempDir() + "gcsim_no_such_cluster.json";
  try {
    read_cluster_file(path);
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), path);
  }
}

TEST(ClusterReader, FieldErrorsFromFileNameThePath) {
  const std::string path = write_temp_file("gcsim_bad_field_cluster.json", R"({
    "name": "bad", "gpu_types": [{"name": "V100", "flops": "15.7TFLOPS", "memory": "32GB"}],
    "node_groups": [{"name": "dgx", "count": 1, "gpus_per_node": 8, "gpu_type": "V100", "cpu_cores": 40,
                     "memory": "512GB", "intra_node": {"kind": "nvlink", "bandwidth": "150GB/s", "latency": "2us"},
                     "nic": {"bandwidth": "100Gbps", "latency": "-5us"}}]})");
  try {
    read_cluster_file(path);
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), path);
    EXPECT_EQ(error.where(), "node_groups[0] (name 'dgx').nic");
    EXPECT_EQ(error.field(), "latency");
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gcsim
