// Machine lists as clusters: the GPU models gcsim knows and the user's
// --gpu-type mappings, a Kubernetes-style node list read through a column
// map, identical nodes grouped, and every machine of an unknown model an
// error rather than left out. Counts by hand beside each assertion.
#include <gtest/gtest.h>

#include <stdexcept>

#include "app/trace_setting_flags.hpp"
#include "sim/core/cluster_layout.hpp"
#include "sim/core/input_error.hpp"
#include "sim/topology/cluster_reader.hpp"
#include "tests/support/trace_files.hpp"
#include "traces/gpu_models.hpp"
#include "traces/machine_cluster.hpp"
#include "traces/node_list.hpp"

namespace gcsim {
namespace {

using testing::TempFolder;

TEST(GpuModels, AMappingNamesATypeWithKnownOrGivenFigures) {
  const GpuModelMapping own = parse_gpu_model_mapping("G2=G2:31.2TFLOPS");
  EXPECT_EQ(own.model, "G2");
  EXPECT_EQ(own.name, "G2");
  EXPECT_EQ(*own.flops, 31.2e12);
  EXPECT_FALSE(own.memory);
  const GpuModelMapping full = parse_gpu_model_mapping("G3=A10X:100TFLOPS:80GiB");
  EXPECT_EQ(*full.memory, 80.0 * 1073741824);
  const GpuModelMapping known = parse_gpu_model_mapping("V100M16=V100");
  EXPECT_FALSE(known.flops);

  GpuModelMap models;
  add_gpu_model_mapping(models, own);
  add_gpu_model_mapping(models, full);
  add_gpu_model_mapping(models, known);
  EXPECT_THROW(add_gpu_model_mapping(models, parse_gpu_model_mapping("G2=T4")), std::invalid_argument);
  // A mapped model without memory: 16 GB, and said to be assumed.
  const GpuFigures g2 = *resolve_gpu_model("G2", models);
  EXPECT_EQ(g2.flops, 31.2e12);
  EXPECT_EQ(g2.memory, 16e9);
  EXPECT_TRUE(g2.memory_assumed);
  const GpuFigures v100 = *resolve_gpu_model("V100M16", models);  // V100's own figures
  EXPECT_EQ(v100.name, "V100");
  EXPECT_EQ(v100.flops, 15.7e12);
  EXPECT_FALSE(v100.memory_assumed);
  EXPECT_EQ(resolve_gpu_model("A10", models)->memory, 24e9);  // known without a mapping
  EXPECT_FALSE(resolve_gpu_model("G9", models));
  EXPECT_EQ(gpu_type_name("G3", models), "A10X");
  EXPECT_EQ(gpu_type_name("G9", models), "G9");
}

TEST(GpuModels, MappingMistakesAreNamed) {
  for (const char* bad : {"G2", "=T4", "G2=", "G2=:1TFLOPS", "G2=G2:fast", "G2=G2:1TFLOPS:lots", "G2=G2:-1TFLOPS"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(parse_gpu_model_mapping(bad), std::invalid_argument);
  }
  try {
    parse_gpu_model_mapping("G2=G2");  // no figures for G2 anywhere
    FAIL() << "a mapping to an unknown type without its FLOP/s was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("give its FLOP/s"), std::string::npos) << e.what();
  }
}

// A Kubernetes-style node list: CPU in milli-cores, memory in MiB.
const std::string kNodes =
    "sn,cpu_milli,memory_mib,gpu,model\n"
    "n1,96000,786432,8,V100M32\n"  // line 2
    "n2,96000,786432,8,V100M32\n"  // line 3: as n1
    "n3,64000,262144,2,T4\n"       // line 4
    "n4,32000,131072,0,\n"         // line 5: no GPU
    "n5,94500,786432,8,G2\n"       // line 6: 94.5 cores
    "n6,96000,786432,8,G2\n"       // line 7
    "n7,64000,262144,2,T4\n";      // line 8: as n3

NodeListOptions kubernetes_options() {
  NodeListOptions options;
  options.columns = parse_node_column_map("model=model,gpus=gpu,cpu=cpu_milli,memory=memory_mib");
  options.cpu_unit = parse_cpu_unit("milli");
  options.memory_unit = parse_memory_unit("MiB");
  return options;
}

TEST(NodeList, IdenticalNodesFormOneNodeGroupEach) {
  TempFolder dir;
  const std::string path = dir.write("nodes.csv", kNodes);
  const NodeList list = read_node_list(path, kubernetes_options());
  EXPECT_EQ(list.rows, 7u);
  ASSERT_EQ(list.machines.size(), 7u);
  EXPECT_EQ(list.machines[4].cpu_cores, 94u);                    // 94,500 milli-cores, rounded down
  EXPECT_EQ(list.machines[0].memory_bytes, 786432.0 * 1048576);  // 768 GiB
  GpuModelMap models;
  add_gpu_model_mapping(models, parse_gpu_model_mapping("G2=G2:20TFLOPS:24GB"));
  const MachineCluster cluster = machine_cluster_json(list.machines, "k8s", path, list.model_column, models);
  const ClusterLayout layout(parse_cluster_json(cluster.cluster, "k8s.json"));
  // n1-n2 (V100M32, 96 cores), n3 and n7 (T4), n5 (G2, 94 cores), n6 (G2, 96 cores); n4 left out.
  EXPECT_EQ(cluster.groups, 4u);
  EXPECT_EQ(cluster.machines, 6u);
  EXPECT_EQ(layout.node_count(), 6u);
  EXPECT_EQ(layout.gpu_count(), 8u + 8 + 2 + 8 + 8 + 2);
  const auto& groups = layout.spec().node_groups;
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(groups[0].name, "v100m32-c96-m768");
  EXPECT_EQ(groups[0].count, 2u);
  EXPECT_EQ(groups[0].intra_kind, IntraNodeKind::kNvlink);  // 8 V100s
  EXPECT_EQ(groups[1].name, "t4-c64-m256");
  EXPECT_EQ(groups[1].count, 2u);
  EXPECT_EQ(groups[1].intra_kind, IntraNodeKind::kPcie);
  EXPECT_EQ(groups[2].cpu_cores, 94u);
  EXPECT_EQ(groups[3].cpu_cores, 96u);
  const int g2 = layout.find_gpu_type("G2");
  ASSERT_GE(g2, 0);
  EXPECT_EQ(layout.spec().gpu_types[static_cast<std::size_t>(g2)].flops, 20e12);
  EXPECT_EQ(layout.spec().gpu_types[static_cast<std::size_t>(g2)].memory_bytes, 24e9);
  std::string notes;
  for (const std::string& note : list.notes) notes += note + "\n";
  for (const std::string& note : cluster.assumptions) notes += note + "\n";
  EXPECT_NE(notes.find("1 nodes' CPU is not a whole number of cores"), std::string::npos) << notes;
  EXPECT_NE(notes.find("1 CPU-only machines are left out"), std::string::npos) << notes;
}

// Kept, machines without GPUs form CPU node groups: n4 (32 cores, 128 GiB)
// and a second node like it, a group of two listed where the first appears.
TEST(NodeList, KeptCpuOnlyMachinesFormCpuNodeGroups) {
  TempFolder dir;
  const std::string path = dir.write("nodes.csv", kNodes + "n8,32000,131072,0,\n");
  const NodeList list = read_node_list(path, kubernetes_options());
  GpuModelMap models;
  add_gpu_model_mapping(models, parse_gpu_model_mapping("G2=G2:20TFLOPS:24GB"));
  const MachineCluster cluster =
      machine_cluster_json(list.machines, "k8s", path, list.model_column, models, /*cpu_machines=*/true);
  const ClusterLayout layout(parse_cluster_json(cluster.cluster, "k8s.json"));
  EXPECT_EQ(cluster.groups, 5u);
  EXPECT_EQ(cluster.machines, 8u);
  EXPECT_EQ(layout.node_count(), 8u);
  EXPECT_EQ(layout.gpu_count(), 8u + 8 + 2 + 8 + 8 + 2);
  const NodeGroup& cpus = layout.spec().node_groups.at(2);  // after V100M32 and T4, as n4 comes
  EXPECT_EQ(cpus.name, "cpu-c32-m128");
  EXPECT_EQ(cpus.count, 2u);
  EXPECT_EQ(cpus.gpus_per_node, 0u);
  EXPECT_EQ(cpus.cpu_cores, 32u);
  EXPECT_EQ(cpus.memory_bytes, 128.0 * 1073741824);
  std::string notes;
  for (const std::string& note : cluster.assumptions) notes += note + "\n";
  EXPECT_NE(notes.find("2 CPU-only machines form CPU node groups"), std::string::npos) << notes;
  // A list of CPU machines alone is a CPU cluster.
  const MachineCluster only_cpus = machine_cluster_json({list.machines[3]}, "cpus", path, "model", {}, true);
  EXPECT_EQ(ClusterLayout(parse_cluster_json(only_cpus.cluster, "cpus.json")).gpu_count(), 0u);
  EXPECT_THROW(machine_cluster_json({list.machines[3]}, "cpus", path, "model", {}), InputError);
}

TEST(NodeList, ANodeOfAModelGcsimHasNoFiguresForIsAnErrorNamingItsLineAndTheOption) {
  TempFolder dir;
  const std::string path = dir.write("nodes.csv", kNodes);
  const NodeList list = read_node_list(path, kubernetes_options());
  try {
    machine_cluster_json(list.machines, "k8s", path, list.model_column, {});
    FAIL() << "a node of model G2 was accepted without figures";
  } catch (const TraceSettingError& error) {
    const InputError e = command_line_error(error);  // as the commands report it
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.where(), "line 6");  // n5, the first G2 node
    EXPECT_EQ(e.field(), "model");
    EXPECT_NE(e.problem().find("'G2'"), std::string::npos) << e.what();
    EXPECT_NE(e.problem().find("--gpu-type G2="), std::string::npos) << e.what();
  }
}

TEST(NodeList, TwoModelsBecomingOneTypeMustAgreeOnItsFigures) {
  TempFolder dir;
  const std::string path = dir.write("nodes.csv", kNodes);
  const NodeList list = read_node_list(path, kubernetes_options());
  GpuModelMap same, clash;
  add_gpu_model_mapping(same, parse_gpu_model_mapping("G2=T4"));  // T4's figures: one type T4
  const MachineCluster merged = machine_cluster_json(list.machines, "k8s", path, list.model_column, same);
  EXPECT_EQ(merged.cluster["gpu_types"].size(), 2u);  // V100M32 and T4
  add_gpu_model_mapping(clash, parse_gpu_model_mapping("G2=T4:20TFLOPS"));
  EXPECT_THROW(machine_cluster_json(list.machines, "k8s", path, list.model_column, clash), InputError);
}

TEST(NodeList, BadRowsAreErrorsNamingTheLineAndColumn) {
  TempFolder dir;
  const auto error_of = [&](const std::string& row, const NodeListOptions& options) -> InputError {
    try {
      read_node_list(dir.write("n.csv", "sn,cpu_milli,memory_mib,gpu,model\n" + row), options);
    } catch (const InputError& e) {
      return e;
    }
    ADD_FAILURE() << "accepted: " << row;
    return InputError("", "", "", "");
  };
  const NodeListOptions options = kubernetes_options();
  EXPECT_EQ(error_of("n1,96000,786432,eight,T4\n", options).field(), "gpu");
  EXPECT_EQ(error_of("n1,96000,786432,1.5,T4\n", options).field(), "gpu");
  EXPECT_EQ(error_of("n1,500,786432,2,T4\n", options).problem(), "a node needs at least one core, got 0.5 cores");
  EXPECT_EQ(error_of("n1,96000,0,2,T4\n", options).field(), "memory_mib");
  const InputError short_row = error_of("n1,96000\n", options);
  EXPECT_EQ(short_row.where(), "line 2");
  NodeListOptions renamed = options;
  renamed.columns["gpus"] = "num_gpu";
  EXPECT_EQ(error_of("n1,96000,786432,2,T4\n", renamed).field(), "num_gpu");  // missing column
}

TEST(NodeList, MappingAndUnitMistakesAreNamed) {
  EXPECT_THROW(parse_node_column_map("model=m"), std::invalid_argument);  // no gpus
  EXPECT_THROW(parse_node_column_map("model=m,gpus=g,disk=d"), std::invalid_argument);
  EXPECT_THROW(parse_cpu_unit("cpus"), std::invalid_argument);
  EXPECT_THROW(parse_memory_unit("GBs"), std::invalid_argument);
  EXPECT_EQ(parse_memory_unit("GB"), 1e9);
  EXPECT_EQ(parse_cpu_unit("cores"), 1);
}

TEST(NodeList, WithoutCpuAndMemoryColumnsTheAssumedShapeIsSaid) {
  TempFolder dir;
  NodeListOptions options;
  options.columns = parse_node_column_map("model=model,gpus=gpu");
  const NodeList list = read_node_list(dir.write("n.csv", "model,gpu\nT4,4\n"), options);
  ASSERT_EQ(list.machines.size(), 1u);
  EXPECT_EQ(list.machines[0].cpu_cores, 96u);
  EXPECT_EQ(list.machines[0].memory_bytes, 512e9);
  EXPECT_EQ(list.notes.size(), 2u);
}

}  // namespace
}  // namespace gcsim
