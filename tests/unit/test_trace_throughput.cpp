// Throughput tables (Gavel, Pollux, Sia) read from the real artifacts with
// figures checked against the files read independently, crafted tables for
// the count extrapolation, and a trace's jobs turned into training work whose
// run time on each GPU type follows from the table and the cluster by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/input_error.hpp"
#include "tests/support/crafted_specs.hpp"
#include "tests/support/trace_files.hpp"
#include "traces/csv_trace.hpp"
#include "traces/throughput_table.hpp"
#include "traces/throughput_work.hpp"

namespace gcsim {
namespace {

using testing::bundled_excerpt;
using testing::for_each_line;
using testing::real_trace;
using testing::split_on;
using testing::TempFolder;

// ---- the real tables ----------------------------------------------------------------------

TEST(ThroughputTable, GavelIsolatedThroughputsAreReadPerTypeAndCount) {
  const std::string path = real_trace("gavel/simulation_throughputs.json");
  GCSIM_SKIP_UNLESS_PRESENT(path);
  std::ifstream in(path);
  const nlohmann::json file = nlohmann::json::parse(in);
  const ThroughputTable table = read_gavel_throughputs(path);
  EXPECT_EQ(table.models().size(), 26u);  // traces/README: 26 job types
  const std::string key = "('ResNet-50 (batch size 64)', 4)";
  EXPECT_EQ(table.iterations_per_second.at("ResNet-50 (batch size 64)").at("V100").at(4),
            file["v100"][key]["null"].get<double>());
  EXPECT_EQ(table.iterations_per_second.at("ResNet-50 (batch size 64)").at("K80").at(4),
            file["k80"][key]["null"].get<double>());
  // Entries of 0 (did not run) are left out and counted.
  std::size_t zeros = 0, entries = 0;
  for (const char* worker : {"k80", "p100", "v100"})
    for (const auto& [job, figures] : file[worker].items()) {
      ++entries;
      zeros += figures["null"].get<double>() == 0 ? 1 : 0;
    }
  EXPECT_EQ(table.unprofiled, zeros);
  std::size_t read = 0;
  for (const auto& [model, types] : table.iterations_per_second)
    for (const auto& [type, counts] : types) read += counts.size();
  EXPECT_EQ(read + zeros, entries);
}

/// 1 / step_time of the row with the smallest local batch size and `placement`.
double step_rate(const std::string& placements_csv, const std::string& placement) {
  std::size_t placement_col = 0, bsz_col = 0, step_col = 0;
  double smallest_bsz = INFINITY, rate = 0;
  bool header = true;
  for_each_line(placements_csv, [&](const std::string& line) {
    const auto f = split_on(line, ',');
    if (header) {
      for (std::size_t i = 0; i < f.size(); ++i) {
        if (f[i] == "placement") placement_col = i;
        if (f[i] == "local_bsz") bsz_col = i;
        if (f[i] == "step_time") step_col = i;
      }
      header = false;
      return;
    }
    if (f.size() <= step_col || f[placement_col] != placement) return;
    const double bsz = std::stod(f[bsz_col]);
    if (bsz < smallest_bsz) {
      smallest_bsz = bsz;
      rate = 1 / std::stod(f[step_col]);
    }
  });
  return rate;
}

TEST(ThroughputTable, PolluxStepTimesOnT4AtTheSmallestBatch) {
  const std::string folder = real_trace("pollux/throughput_traces");
  GCSIM_SKIP_UNLESS_PRESENT(folder);
  const ThroughputTable table = read_step_time_throughputs(folder, ThroughputSource::kPollux);
  EXPECT_EQ(table.models(), (std::vector<std::string>{"bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3"}));
  EXPECT_EQ(table.gpu_types("cifar10"), std::vector<std::string>{"T4"});
  EXPECT_EQ(table.local_batch_size.at("cifar10"), 32u);
  const double one = step_rate(folder + "/cifar10/placements.csv", "1");
  const double four = step_rate(folder + "/cifar10/placements.csv", "4");  // one node of 4: the fewest nodes
  EXPECT_EQ(table.iterations_per_second.at("cifar10").at("T4").at(1), one);
  EXPECT_EQ(table.iterations_per_second.at("cifar10").at("T4").at(4), four);
  // The scalability runs go beyond the placements' 16 GPUs.
  EXPECT_EQ(table.iterations_per_second.at("cifar10").at("T4").rbegin()->first, 64u);
}

// The bundled copy of Pollux's cifar10 tables, its figures found by hand: the
// smallest per-GPU batch is 32; 1 to 16 GPUs from placements.csv on the
// fewest nodes, 20 to 64 from scalability.csv.
TEST(ThroughputTable, BundledPolluxCifar10StepTimesAtTheSmallestBatchOnTheFewestNodes) {
  const ThroughputTable table =
      read_step_time_throughputs(bundled_excerpt("pollux/throughput_traces"), ThroughputSource::kPollux);
  EXPECT_EQ(table.models(), std::vector<std::string>{"cifar10"});
  EXPECT_EQ(table.gpu_types("cifar10"), std::vector<std::string>{"T4"});
  EXPECT_EQ(table.local_batch_size.at("cifar10"), 32u);
  const std::map<std::uint32_t, double>& speeds = table.iterations_per_second.at("cifar10").at("T4");
  std::vector<std::uint32_t> counts;
  for (const auto& entry : speeds) counts.push_back(entry.first);
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                                                13, 14, 15, 16, 20, 24, 28, 32, 40, 48, 56, 64}));
  EXPECT_EQ(speeds.at(1), 1 / 0.0427886962890625);   // placement 1
  EXPECT_EQ(speeds.at(8), 1 / 0.18453335762023926);  // placement 44: two nodes, not 6 as in scalability.csv
  EXPECT_EQ(speeds.at(9), 1 / 0.11556906700134277);  // placement 333
  EXPECT_EQ(speeds.at(64), 1 / 0.2692412376403809);  // 16 nodes
}

TEST(ThroughputTable, SiaMachinesBecomeGpuTypes) {
  const std::string folder = real_trace("sia/throughput_traces");
  GCSIM_SKIP_UNLESS_PRESENT(folder);
  const ThroughputTable table = read_step_time_throughputs(folder, ThroughputSource::kSia);
  EXPECT_EQ(table.gpu_types("cifar10"), (std::vector<std::string>{"A100", "RTX2080Ti", "RTX6000", "T4", "V100"}));
  EXPECT_EQ(table.gpu_types("gpt_pmp"), (std::vector<std::string>{"A100", "RTX2080Ti"}));  // dgx-ext and rtx only
  EXPECT_EQ(table.iterations_per_second.at("cifar10").at("V100").at(1),
            step_rate(folder + "/cifar10/placements-azure.csv", "1"));
  // dgx first; dgx-ext only where dgx has no figure.
  EXPECT_EQ(table.iterations_per_second.at("cifar10").at("A100").at(1),
            step_rate(folder + "/cifar10/placements-dgx.csv", "1"));
  EXPECT_TRUE(table.table_gpu_type("cifar10", "rtx 2080 ti").has_value());
}

// ---- crafted tables --------------------------------------------------------------------------

TEST(ThroughputTable, MissingCountsTakeTheNearestBelowScaledForGavelKeptForStepTimes) {
  ThroughputTable gavel;
  gavel.per_worker_iterations = true;
  gavel.iterations_per_second["m"]["V100"] = {{1, 10}, {4, 30}};
  EXPECT_EQ(gavel.lookup("m", "V100", 4)->iterations_per_second, 30);
  EXPECT_EQ(gavel.lookup("m", "V100", 8)->iterations_per_second, 60);  // 30 x 8 / 4
  EXPECT_EQ(gavel.lookup("m", "V100", 8)->profiled_gpus, 4u);
  EXPECT_EQ(gavel.lookup("m", "v100", 2)->iterations_per_second, 20);  // 10 x 2 / 1; names match ignoring case
  EXPECT_FALSE(gavel.lookup("m", "K80", 1));
  ThroughputTable steps = gavel;
  steps.per_worker_iterations = false;
  EXPECT_EQ(steps.lookup("m", "V100", 8)->iterations_per_second, 30);
  steps.iterations_per_second["m"]["V100"] = {{8, 5}};
  EXPECT_EQ(steps.lookup("m", "V100", 2)->iterations_per_second, 5);  // only a count above
}

TEST(ThroughputTable, MalformedFilesNameTheFileAndPlace) {
  TempFolder dir;
  const std::string gavel = dir.write("t.json", R"j({"v100": {"('m', x)": {"null": 3}}})j");
  EXPECT_THROW(read_gavel_throughputs(gavel), InputError);
  const std::string negative = dir.write("n.json", R"j({"v100": {"('m', 1)": {"null": -3}}})j");
  EXPECT_THROW(read_gavel_throughputs(negative), InputError);
  std::filesystem::create_directories(dir / "steps/m");
  dir.write("steps/m/placements.csv", "placement,local_bsz,step_time,sync_time\n1,4,zero,0\n");
  try {
    read_step_time_throughputs(dir / "steps", ThroughputSource::kPollux);
    FAIL() << "a malformed step time was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "line 2");
    EXPECT_EQ(e.field(), "step_time");
  }
}

TEST(ThroughputTable, ABatchSizeBeyondAnyCountIsAnErrorNamingItsLineAndColumn) {
  TempFolder dir;
  std::filesystem::create_directories(dir / "steps/m");
  dir.write("steps/m/placements.csv", "placement,local_bsz,step_time,sync_time\n1,1e300,0.5,0\n");
  try {
    read_step_time_throughputs(dir / "steps", ThroughputSource::kPollux);
    FAIL() << "a batch size of 1e300 was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(e.file().find("placements.csv"), std::string::npos) << e.what();
    EXPECT_EQ(e.where(), "line 2");
    EXPECT_EQ(e.field(), "local_bsz");
  }
}

TEST(ThroughputTable, AFractionOfAReplicaIsAnErrorNamingItsColumn) {
  TempFolder dir;
  std::filesystem::create_directories(dir / "steps/m");
  dir.write("steps/m/scalability.csv", "num_nodes,num_replicas,local_bsz,step_time,sync_time\n1,0.5,64,0.5,0\n");
  try {
    read_step_time_throughputs(dir / "steps", ThroughputSource::kPollux);
    FAIL() << "half a replica was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "line 2");
    EXPECT_EQ(e.field(), "num_replicas");
  }
}

// ---- work from a table -----------------------------------------------------------------------

const JobTypeRule kFromTrace = parse_job_type_rule("trace", 0);

/// `fast` nodes of 8 "V100" (1e12 FLOP/s) and `slow` nodes of 8 "K80" (0.25e12).
ClusterLayout two_type_cluster(std::uint32_t fast, std::uint32_t slow) {
  ClusterSpec spec;
  spec.name = "crafted";
  spec.gpu_types = {{"V100", 1e12, 32e9}, {"K80", 0.25e12, 12e9}};
  spec.node_groups = {testing::crafted_node_group("fast", fast, 8, "V100"),
                      testing::crafted_node_group("slow", slow, 8, "K80")};
  return ClusterLayout(spec);
}

/// Model "m": 10 it/s on V100, 2 on K80 (the table says K80 is 5x slower for
/// it, the FLOP/s only 4x); model "n" only on V100.
ThroughputTable crafted_table() {
  ThroughputTable table;
  table.source = ThroughputSource::kGavel;
  table.path = "crafted.json";
  table.per_worker_iterations = true;
  table.iterations_per_second["m"]["V100"] = {{1, 10}};
  table.iterations_per_second["m"]["K80"] = {{1, 2}};
  table.iterations_per_second["n"]["V100"] = {{1, 4}};
  return table;
}

TraceReadResult one_job_trace(double seconds, const std::string& gpu_type = "V100", std::uint32_t gpus = 1) {
  TraceReadResult trace;
  trace.format = "crafted";
  JobSpec job;
  job.id = "a";
  job.gpus = gpus;
  job.work = MeasuredWork{seconds, gpu_type};
  trace.jobs = {job};
  trace.job_status = {""};
  trace.job_types = {"m"};
  return trace;
}

/// Seconds the engine's compute model gives the job on GPUs of type `type` (`flops` FLOP/s).
double seconds_on(const JobSpec& job, const std::string& type, double flops) {
  const auto& training = std::get<TrainingWork>(job.work);
  return training.flops_on(type) * static_cast<double>(training.iterations) / flops;
}

TEST(ThroughputWork, OnAClusterOfMostlyTheRecordedTypeTheJobKeepsItsRunTimeThere) {
  TraceReadResult trace = one_job_trace(100);
  apply_throughput_work(trace, crafted_table(), kFromTrace, two_type_cluster(4, 1));
  const auto& training = std::get<TrainingWork>(trace.jobs[0].work);
  EXPECT_EQ(training.iterations, 1000u);  // 100 s x 10 it/s on V100
  EXPECT_EQ(training.gradient_bytes, 0);
  EXPECT_NEAR(seconds_on(trace.jobs[0], "V100", 1e12), 100, 1e-9);
  // K80: 1000 iterations at the table's 2 it/s, not the 400 s its FLOP/s (4x slower) would give.
  EXPECT_NEAR(seconds_on(trace.jobs[0], "K80", 0.25e12), 500, 1e-9);
  EXPECT_NE(trace.work_source.find("throughput table gavel"), std::string::npos) << trace.work_source;
}

TEST(ThroughputWork, OnAClusterOfMostlyAnotherTypeTheTablesSpeedUpApplies) {
  TraceReadResult trace = one_job_trace(100);
  apply_throughput_work(trace, crafted_table(), kFromTrace, two_type_cluster(1, 4));
  EXPECT_EQ(std::get<TrainingWork>(trace.jobs[0].work).iterations, 1000u);
  EXPECT_NEAR(seconds_on(trace.jobs[0], "K80", 0.25e12), 500, 1e-9);  // 1000 iterations at 2 it/s: the table's 5x
  EXPECT_NEAR(seconds_on(trace.jobs[0], "V100", 1e12), 100, 1e-9);    // and 10 it/s on V100, not 125 s by FLOP/s
}

TEST(ThroughputWork, ARecordedTypeTheTableLacksIsScaledByTheClustersFlops) {
  // Measured on K80, which the table has no figure for "n": 4 it/s on V100 x 0.25.
  TraceReadResult trace = one_job_trace(100, "K80");
  trace.job_types = {"n"};
  apply_throughput_work(trace, crafted_table(), kFromTrace, two_type_cluster(1, 4));
  EXPECT_EQ(std::get<TrainingWork>(trace.jobs[0].work).iterations, 100u);
  EXPECT_NEAR(seconds_on(trace.jobs[0], "K80", 0.25e12), 100, 1e-9);  // its recorded time on its recorded type
  // "n" is not profiled on K80: there it runs by FLOP/s from V100, and says so.
  EXPECT_TRUE(std::get<TrainingWork>(trace.jobs[0].work).flops_per_iteration_by_gpu_type.empty());
  bool noted = false;
  for (const std::string& line : trace.assumptions) noted = noted || line.find("measured on K80") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(ThroughputWork, RoundingTheIterationsKeepsTheRunTime) {
  TraceReadResult trace = one_job_trace(0.03);  // 0.3 iterations: 1
  apply_throughput_work(trace, crafted_table(), kFromTrace, two_type_cluster(4, 1));
  EXPECT_EQ(std::get<TrainingWork>(trace.jobs[0].work).iterations, 1u);
  EXPECT_NEAR(seconds_on(trace.jobs[0], "V100", 1e12), 0.03, 1e-12);
}

TEST(ThroughputWork, JobTypesComeFromTheTraceAColumnOrARule) {
  TraceReadOptions options;
  options.columns = {{"submit", "t"}, {"gpus", "g"}, {"duration", "d"}, {"job_type", "model"}};
  std::istringstream csv("t,g,d,model\n0,1,100,m\n10,1,100,n\n");
  TraceReadResult trace = parse_csv_trace(csv, "jobs.csv", options);
  EXPECT_EQ(trace.job_types, (std::vector<std::string>{"m", "n"}));
  apply_throughput_work(trace, crafted_table(), kFromTrace, two_type_cluster(4, 1));
  EXPECT_EQ(std::get<TrainingWork>(trace.jobs[1].work).iterations, 400u);  // n: 4 it/s

  TraceReadResult untyped = one_job_trace(100);
  untyped.job_types = {""};
  EXPECT_THROW(apply_throughput_work(untyped, crafted_table(), kFromTrace, two_type_cluster(4, 1)),
               std::invalid_argument);
  apply_throughput_work(untyped, crafted_table(), parse_job_type_rule("n", 0), two_type_cluster(4, 1));
  EXPECT_EQ(untyped.job_types, std::vector<std::string>{"n"});
  TraceReadResult unknown = one_job_trace(100);
  EXPECT_THROW(
      apply_throughput_work(unknown, crafted_table(), parse_job_type_rule("resnet", 0), two_type_cluster(4, 1)),
      std::invalid_argument);
}

// A CSV row of cores and no GPU is a CPU job: it trains no model, needs no
// job type, and keeps its recorded run time.
TEST(ThroughputWork, ACpuJobOfTheTraceTrainsNoModelAndKeepsItsRunTime) {
  TraceReadOptions options;
  options.columns = {{"submit", "t"}, {"gpus", "g"}, {"duration", "d"}, {"cpu", "c"}, {"job_type", "model"}};
  std::istringstream csv("t,g,d,c,model\n0,1,100,,m\n10,0,50,8,\n");
  TraceReadResult trace = parse_csv_trace(csv, "jobs.csv", options);
  apply_throughput_work(trace, crafted_table(), kFromTrace, two_type_cluster(4, 1));
  EXPECT_EQ(std::get<TrainingWork>(trace.jobs[0].work).iterations, 1000u);
  ASSERT_TRUE(std::holds_alternative<CpuWork>(trace.jobs[1].work));
  EXPECT_EQ(std::get<CpuWork>(trace.jobs[1].work).seconds, 50);
}

TEST(ThroughputWork, UniformDrawsAreTheSameForASeedAndOnlyRunnableModels) {
  TraceReadResult a, b;
  for (TraceReadResult* trace : {&a, &b}) {
    *trace = one_job_trace(100);
    for (int i = 0; i < 200; ++i) {
      trace->jobs.push_back(trace->jobs.front());
      trace->job_status.emplace_back();
      trace->job_types.emplace_back();
    }
  }
  // Only K80 in the cluster: "n" (V100 only) cannot run, so every job is "m".
  const ClusterLayout k80_only = [] {
    ClusterSpec spec;
    spec.name = "k80";
    spec.gpu_types = {{"K80", 0.25e12, 12e9}};
    spec.node_groups = {testing::crafted_node_group("slow", 2, 8, "K80")};
    return ClusterLayout(spec);
  }();
  apply_throughput_work(a, crafted_table(), parse_job_type_rule("uniform", 5), k80_only);
  for (const std::string& model : a.job_types) EXPECT_EQ(model, "m");
  apply_throughput_work(b, crafted_table(), parse_job_type_rule("uniform", 5), two_type_cluster(1, 1));
  std::map<std::string, int> drawn;
  for (const std::string& model : b.job_types) ++drawn[model];
  EXPECT_GT(drawn["m"], 50);
  EXPECT_GT(drawn["n"], 50);
  TraceReadResult c = one_job_trace(100);
  c.jobs = std::vector<JobSpec>(201, c.jobs.front());
  c.job_types.assign(201, "");
  apply_throughput_work(c, crafted_table(), parse_job_type_rule("uniform", 5), two_type_cluster(1, 1));
  EXPECT_EQ(c.job_types, b.job_types);
}

TEST(ThroughputWork, GpuTimeBucketsFollowPolluxsRule) {
  ThroughputTable table;
  table.source = ThroughputSource::kPollux;
  for (const char* model : {"cifar10", "deepspeech2", "bert", "yolov3", "imagenet"})
    table.iterations_per_second[model]["V100"] = {{1, 1}};
  TraceReadResult trace = one_job_trace(1800);  // 0.5 GPU-hours
  for (double hours : {5.0, 50.0, 500.0}) {
    trace.jobs.push_back(trace.jobs.front());
    trace.jobs.back().work = MeasuredWork{hours * 3600, "V100"};
    trace.job_status.emplace_back();
    trace.job_types.emplace_back();
  }
  apply_throughput_work(trace, table, parse_job_type_rule("gpu-time", 0), two_type_cluster(1, 1));
  EXPECT_EQ(trace.job_types[0], "cifar10");
  EXPECT_TRUE(trace.job_types[1] == "deepspeech2" || trace.job_types[1] == "bert") << trace.job_types[1];
  EXPECT_EQ(trace.job_types[2], "yolov3");
  EXPECT_EQ(trace.job_types[3], "imagenet");
}

TEST(ThroughputWork, NoGpuTypeOfTheClusterInTheTableIsAnError) {
  TraceReadResult trace = one_job_trace(100);
  ClusterSpec spec;
  spec.name = "t4s";
  spec.gpu_types = {{"T4", 8.1e12, 16e9}};
  spec.node_groups = {testing::crafted_node_group("t4", 1, 4, "T4")};
  try {
    apply_throughput_work(trace, crafted_table(), kFromTrace, ClusterLayout(spec));
    FAIL() << "a table without the cluster's GPU types was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("none of which cluster 't4s' has (T4)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gcsim
