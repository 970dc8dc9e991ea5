// Virtual-cluster tables as a cluster and capacity queues: the real Philly and
// Helios tables (skipped when ../shared/traces is absent), with totals counted
// independently, and crafted bad rows located by line and field.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "sim/core/input_error.hpp"
#include "tests/support/trace_files.hpp"
#include "traces/vc_cluster.hpp"

namespace gcsim {
namespace {

using testing::bundled_excerpt;
using testing::for_each_line;
using testing::real_trace;
using testing::split_on;

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(VcCluster, PhillyTableGivesItsNodesAndShares) {
  const std::string path = real_trace("philly/philly_vc_nodes.csv");
  GCSIM_SKIP_UNLESS_PRESENT(path);
  std::map<std::string, double> nodes_in_file;
  double total_nodes = 0;
  for_each_line(path, [&](const std::string& line) {
    if (line.empty() || line.rfind("vc,", 0) == 0) return;
    const auto f = split_on(line, ',');
    nodes_in_file[f[0]] = std::stod(f[1]);
    total_nodes += std::stod(f[1]);
  });
  EXPECT_EQ(total_nodes, 352);  // as the traces' README states
  const VcTable table = read_vc_table(VcTableFormat::kPhillyVcNodes, path, {});
  ASSERT_EQ(table.vcs.size(), nodes_in_file.size());
  const auto cluster = vc_cluster_json("philly-vcs", table, NodeShape{});
  double nodes = 0;
  for (const auto& group : cluster["node_groups"]) {
    nodes += group["count"].get<double>();
    EXPECT_EQ(group["count"].get<double>(), nodes_in_file.at(group["name"].get<std::string>().substr(3)));
  }
  EXPECT_EQ(nodes, 352);
  const auto queues = vc_capacity_json(table, {"23dbec"});
  for (const auto& [vc, n] : nodes_in_file)
    EXPECT_NEAR(queues["yarn.scheduler.capacity.root." + vc + ".capacity"].get<double>(), 100 * n / 352, 1e-6);
  EXPECT_EQ(queues["yarn.scheduler.capacity.root.23dbec.capacity"].get<double>(), 0);
  EXPECT_EQ(queues["yarn.scheduler.capacity.root.23dbec.maximum-capacity"].get<double>(), 100);
}

TEST(VcCluster, HeliosDateGivesTheRowsTotal) {
  const std::string path = real_trace("helios/earth_cluster_gpu_number.csv");
  GCSIM_SKIP_UNLESS_PRESENT(path);
  std::vector<std::string> header, row;
  for_each_line(path, [&](const std::string& line) {
    if (line.rfind("date,", 0) == 0)
      header = split_on(line, ',');
    else if (line.rfind("2020-05-01,", 0) == 0)
      row = split_on(line, ',');
  });
  ASSERT_FALSE(row.empty());
  double total = std::stod(row.back());
  std::size_t nonzero = 0;
  for (std::size_t c = 1; c + 1 < row.size(); ++c) nonzero += std::stod(row[c]) > 0;
  VcTableOptions options;
  options.date = "2020-05-01";
  const VcTable table = read_vc_table(VcTableFormat::kHeliosVcGpus, path, options);
  double gpus = 0;
  for (const VirtualCluster& vc : table.vcs) gpus += vc.gpus;
  EXPECT_EQ(gpus, total);
  EXPECT_EQ(table.vcs.size(), nonzero);
  // The queues' capacities add up to 100 within YARN's check, whatever the rounding.
  const auto queues = vc_capacity_json(table, {});
  double sum = 0;
  for (const VirtualCluster& vc : table.vcs)
    sum += queues["yarn.scheduler.capacity.root." + vc.name + ".capacity"].get<double>();
  EXPECT_NEAR(sum, 100, 1e-9);
  // Without a date: the last row.
  const VcTable last = read_vc_table(VcTableFormat::kHeliosVcGpus, path, {});
  EXPECT_NE(last.notes.front().find("2020-09-28"), std::string::npos) << last.notes.front();
}

// The bundled copies of the same two tables, their figures counted by hand:
// Philly's 11 VCs hold 352 nodes (6214e9 64, ed69ec 8); Earth on 2020-05-01
// gives 856 GPUs to 16 of its 25 VCs, and its last row is 2020-09-28.
TEST(VcCluster, BundledPhillyTableGivesItsNodesAndShares) {
  const VcTable table = read_vc_table(VcTableFormat::kPhillyVcNodes, bundled_excerpt("philly/philly_vc_nodes.csv"), {});
  ASSERT_EQ(table.vcs.size(), 11u);
  const auto cluster = vc_cluster_json("philly-vcs", table, NodeShape{});
  std::map<std::string, double> nodes;
  double total = 0;
  for (const auto& group : cluster["node_groups"]) {
    nodes[group["name"].get<std::string>().substr(3)] = group["count"].get<double>();
    total += group["count"].get<double>();
  }
  EXPECT_EQ(total, 352);
  EXPECT_EQ(nodes.at("6214e9"), 64);
  EXPECT_EQ(nodes.at("ed69ec"), 8);
  const auto queues = vc_capacity_json(table, {});
  EXPECT_NEAR(queues["yarn.scheduler.capacity.root.6214e9.capacity"].get<double>(), 100.0 * 64 / 352, 1e-6);
}

TEST(VcCluster, BundledHeliosDateGivesTheRowsTotal) {
  const std::string path = bundled_excerpt("helios/earth_cluster_gpu_number.csv");
  VcTableOptions options;
  options.date = "2020-05-01";
  const VcTable table = read_vc_table(VcTableFormat::kHeliosVcGpus, path, options);
  double gpus = 0;
  for (const VirtualCluster& vc : table.vcs) gpus += vc.gpus;
  EXPECT_EQ(gpus, 856);
  EXPECT_EQ(table.vcs.size(), 16u);
  const VcTable last = read_vc_table(VcTableFormat::kHeliosVcGpus, path, {});
  EXPECT_NE(last.notes.front().find("2020-09-28"), std::string::npos) << last.notes.front();
}

TEST(VcCluster, GpusNotAMultipleOfTheNodeSizeRoundUpToWholeNodes) {
  const std::string path = write_temp("helios_odd.csv", "date,vcA,vcB,total\n2020-04-01,12,8,20\n");
  const VcTable table = read_vc_table(VcTableFormat::kHeliosVcGpus, path, {});
  const auto cluster = vc_cluster_json("odd", table, NodeShape{});
  EXPECT_EQ(cluster["node_groups"][0]["count"].get<int>(), 2);  // 12 GPUs: 2 nodes of 8
  EXPECT_EQ(cluster["node_groups"][1]["count"].get<int>(), 1);
}

void expect_error(VcTableFormat format, const std::string& name, const std::string& text,
                  const std::vector<std::string>& fragments, VcTableOptions options = {}) {
  const std::string path = write_temp(name, text);
  try {
    read_vc_table(format, path, options);
    ADD_FAILURE() << "accepted " << text;
  } catch (const InputError& e) {
    for (const std::string& f : fragments) EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << e.what();
  }
}

TEST(VcCluster, BadRowsAreErrorsNamingLineAndField) {
  expect_error(VcTableFormat::kPhillyVcNodes, "philly_bad.csv", "vc,node num\na1,8\nb2,eight\n",
               {"philly_bad.csv: line 3: field 'node num'", "'eight'"});
  expect_error(VcTableFormat::kPhillyVcNodes, "philly_cols.csv", "vc,nodes\na1,8\n", {"node num"});
  expect_error(VcTableFormat::kHeliosVcGpus, "helios_sum.csv", "date,vcA,vcB,total\n2020-04-01,8,8,24\n",
               {"line 2: field 'total'", "add up to 16, the row says 24"});
  VcTableOptions missing_day;
  missing_day.date = "2020-12-25";
  expect_error(VcTableFormat::kHeliosVcGpus, "helios_day.csv", "date,vcA,total\n2020-04-01,8,8\n",
               {"field 'date'", "no row for the date '2020-12-25'"}, missing_day);
  expect_error(VcTableFormat::kHeliosVcGpus, "helios_neg.csv", "date,vcA,total\n2020-04-01,-8,-8\n",
               {"line 2: field 'vcA'"});
}

}  // namespace
}  // namespace gcsim
