// The Alibaba PAI 2020 reader: the real machine spec turned into a gcsim
// cluster and the real instance-table slice checked row by row, with counts
// taken from the files independently; the task and job tables (not among the
// shared traces) on crafted rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "app/trace_setting_flags.hpp"
#include "sim/core/cluster_layout.hpp"
#include "sim/core/input_error.hpp"
#include "sim/topology/cluster_reader.hpp"
#include "tests/support/trace_files.hpp"
#include "traces/pai_trace.hpp"
#include "traces/trace_stats.hpp"

namespace gcsim {
namespace {

using testing::bundled_excerpt;
using testing::for_each_line;
using testing::real_trace;
using testing::split_on;
using testing::TempFolder;

TEST(PaiTrace, RealMachineSpecBecomesAValidHeterogeneousCluster) {
  const std::string path = real_trace("alibaba-pai-2020/pai_machine_spec.csv");
  GCSIM_SKIP_UNLESS_PRESENT(path);
  std::map<std::string, std::size_t> machines_of_type;
  std::size_t gpus = 0, gpu_machines = 0, cpu_only = 0, rows = 0;
  for_each_line(path, [&](const std::string& line) {
    const auto f = split_on(line, ',');
    ++rows;
    const int cap_gpu = std::stoi(f[4]);
    gpus += cap_gpu;
    if (cap_gpu > 0) {
      ++gpu_machines;
      ++machines_of_type[f[1]];
    } else {
      ++cpu_only;
    }
  });

  const PaiMachineSpec spec = read_pai_machine_spec(path, true);
  EXPECT_EQ(spec.rows, rows);
  EXPECT_EQ(spec.machines.size(), rows);
  EXPECT_TRUE(spec.skipped.empty());

  const PaiCluster cluster = pai_cluster_json(spec, "pai-2020");
  const ClusterLayout layout(parse_cluster_json(cluster.cluster, "pai-2020.json"));
  EXPECT_EQ(layout.gpu_count(), gpus);
  EXPECT_EQ(layout.node_count(), gpu_machines);
  std::map<std::string, std::size_t> nodes_of_type;
  for (NodeId node = 0; node < layout.node_count(); ++node)
    ++nodes_of_type[layout.spec().gpu_types[layout.node(node).gpu_type].name];
  EXPECT_EQ(nodes_of_type, machines_of_type);
  bool cpu_only_noted = false;
  for (const std::string& note : cluster.assumptions)
    cpu_only_noted = cpu_only_noted || note.rfind(std::to_string(cpu_only) + " CPU-only machines", 0) == 0;
  EXPECT_TRUE(cpu_only_noted);
}

TEST(PaiTrace, RealInstanceSliceHasEveryMachineInTheSpec) {
  const std::string path = real_trace("alibaba-pai-2020/pai_instance_table_tail.csv");
  const std::string spec_path = real_trace("alibaba-pai-2020/pai_machine_spec.csv");
  GCSIM_SKIP_UNLESS_PRESENT(path);
  GCSIM_SKIP_UNLESS_PRESENT(spec_path);
  std::map<std::string, std::size_t> status_in_file;
  std::map<std::string, std::size_t> rows_on_machine;
  const std::size_t rows = for_each_line(path, [&](const std::string& line) {
    const auto f = split_on(line, ',');
    ++status_in_file[f[5]];
    ++rows_on_machine[f[8]];
  });

  const PaiMachineSpec spec = read_pai_machine_spec(spec_path, true);
  const PaiInstanceCheck check = check_pai_instance_table(path, &spec, true);
  EXPECT_EQ(check.rows, rows);
  EXPECT_EQ(check.status_counts, status_in_file);
  EXPECT_TRUE(check.skipped.empty());

  // Without one busy machine in the spec, each of its instance rows is reported.
  PaiMachineSpec partial = spec;
  std::string busiest;
  for (const auto& [machine, count] : rows_on_machine)
    if (!machine.empty() && (busiest.empty() || count > rows_on_machine[busiest])) busiest = machine;
  partial.machines.erase(std::remove_if(partial.machines.begin(), partial.machines.end(),
                                        [&](const PaiMachine& m) { return m.id == busiest; }),
                         partial.machines.end());
  const PaiInstanceCheck missing = check_pai_instance_table(path, &partial, false);
  EXPECT_EQ(missing.skipped.size(), rows_on_machine[busiest]);
  for (const SkippedRow& row : missing.skipped) {
    EXPECT_EQ(row.field, "machine");
    EXPECT_EQ(row.reason, "machine not listed in pai_machine_spec");
    EXPECT_TRUE(row.malformed);
  }
}

TEST(PaiTrace, TheSharedFolderWithoutTaskTableIsRefusedByName) {
  const std::string dir = real_trace("alibaba-pai-2020");
  GCSIM_SKIP_UNLESS_PRESENT(dir);
  try {
    read_pai_trace(dir, {});
    FAIL() << "read jobs without a task table";
  } catch (const InputError& e) {
    EXPECT_NE(e.file().find("pai_task_table.csv"), std::string::npos) << e.what();
  }
}

// The bundled excerpts: the whole machine spec (1,897 machines, 6,742 GPUs,
// 83 CPU-only) and the instance table slice's first 200 rows, counted by hand.
TEST(PaiTrace, BundledMachineSpecBecomesAValidHeterogeneousCluster) {
  const PaiMachineSpec spec = read_pai_machine_spec(bundled_excerpt("alibaba-pai-2020/pai_machine_spec.csv"), true);
  EXPECT_EQ(spec.rows, 1897u);
  EXPECT_EQ(spec.machines.size(), 1897u);
  const PaiCluster cluster = pai_cluster_json(spec, "pai-2020");
  const ClusterLayout layout(parse_cluster_json(cluster.cluster, "pai-2020.json"));
  EXPECT_EQ(layout.gpu_count(), 6742u);
  EXPECT_EQ(layout.node_count(), 1897u - 83u);
  std::map<std::string, std::size_t> nodes_of_type;
  for (NodeId node = 0; node < layout.node_count(); ++node)
    ++nodes_of_type[layout.spec().gpu_types[layout.node(node).gpu_type].name];
  EXPECT_EQ(nodes_of_type, (std::map<std::string, std::size_t>{
                               {"P100", 798}, {"T4", 497}, {"MISC", 280}, {"V100M32", 135}, {"V100", 104}}));
  bool cpu_only_noted = false;
  for (const std::string& note : cluster.assumptions)
    cpu_only_noted = cpu_only_noted || note.rfind("83 CPU-only machines", 0) == 0;
  EXPECT_TRUE(cpu_only_noted);
}

TEST(PaiTrace, BundledInstanceExcerptHasEveryMachineInTheSpec) {
  const std::string path = bundled_excerpt("alibaba-pai-2020/pai_instance_table_tail.first200.csv");
  const PaiMachineSpec spec = read_pai_machine_spec(bundled_excerpt("alibaba-pai-2020/pai_machine_spec.csv"), true);
  const PaiInstanceCheck check = check_pai_instance_table(path, &spec, true);
  EXPECT_EQ(check.rows, 200u);
  EXPECT_EQ(check.status_counts,
            (std::map<std::string, std::size_t>{{"Terminated", 136}, {"Running", 56}, {"Failed", 5}, {"Waiting", 3}}));
  EXPECT_TRUE(check.skipped.empty());
  // Machine f17193c489240186da13cd05 runs the instances of lines 166, 167, 169 and 174.
  PaiMachineSpec partial = spec;
  partial.machines.erase(std::remove_if(partial.machines.begin(), partial.machines.end(),
                                        [](const PaiMachine& m) { return m.id == "f17193c489240186da13cd05"; }),
                         partial.machines.end());
  const PaiInstanceCheck missing = check_pai_instance_table(path, &partial, false);
  std::vector<std::size_t> lines;
  for (const SkippedRow& row : missing.skipped) {
    EXPECT_EQ(row.reason, "machine not listed in pai_machine_spec");
    lines.push_back(row.line);
  }
  EXPECT_EQ(lines, (std::vector<std::size_t>{166, 167, 169, 174}));
}

TEST(PaiTrace, TheBundledFolderWithoutTaskTableIsRefusedByName) {
  try {
    read_pai_trace(bundled_excerpt("alibaba-pai-2020"), {});
    FAIL() << "read jobs without a task table";
  } catch (const InputError& e) {
    EXPECT_NE(e.file().find("pai_task_table.csv"), std::string::npos) << e.what();
  }
}

// A crafted PAI folder: the four tables with their .header files.
class CraftedPai : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.write("pai_task_table.header",
               "job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type\n");
    dir_.write("pai_job_table.header", "job_name,inst_id,user,status,start_time,end_time\n");
    dir_.write("pai_machine_spec.header", "machine,gpu_type,cap_cpu,cap_mem,cap_gpu\n");
    dir_.write("pai_instance_table.header",
               "job_name,task_name,inst_name,worker_name,inst_id,status,start_time,end_time,machine\n");
    dir_.write("pai_task_table.csv",
               "jobA,worker,2.0,Terminated,100.0,400.0,600.0,29.296875,50.0,T4\n"   // 1: half a GPU each
               "jobA,ps,1.0,Terminated,90.0,410.0,400.0,10.0,,\n"                   // 2: the job's CPU task
               "jobB,tensorflow,1.0,Terminated,200.0,260.0,800.0,8.0,200.0,V100\n"  // 3
               "jobC,worker,1.0,Running,300.0,,600.0,4.0,100.0,P100\n"              // 4: still running
               "jobD,worker,1.0,Terminated,50.0,80.0,400.0,2.0,,\n"                 // 5: CPU only
               "jobE,worker,x,Terminated,50.0,80.0,400.0,2.0,100.0,V100\n"          // 6: bad inst_num
               "jobF,worker,1.0,Failed,500.0,450.0,400.0,2.0,100.0,V100\n"          // 7: ends before start
               "jobG,worker,1.0,Terminated,10.0,20.0,100.0,1.0,100.0,A100\n"        // 8: no A100 machine
               "jobH,worker,1.0,Waiting,,,600.0,4.0,100.0,V100\n");                 // 9: never started
    dir_.write("pai_job_table.csv",
               "jobA,i1,userA,Terminated,80.0,410.0\n"
               "jobB,i2,userB,Failed,150.0,260.0\n");
    dir_.write("pai_machine_spec.csv",
               "m1,V100,96,512,8\n"
               "m2,T4,96,512,2\n"
               "m3,CPU,96,512,0\n"
               "m4,P100,64,512,2\n");
    dir_.write("pai_instance_table.csv",
               "jobA,worker,n1,w1,i1,Terminated,100.0,400.0,m2\n"
               "jobB,tensorflow,n2,w2,i2,Terminated,200.0,260.0,m1\n"
               "jobB,tensorflow,n3,w3,i2,Terminated,200.0,260.0,m9\n");  // 3: m9 is not in the spec
  }
  TempFolder dir_;
};

TEST_F(CraftedPai, TasksBecomeJobsWithTheirGpuSharesAndTheJobTablesSubmitAndUser) {
  const TraceReadResult trace = read_pai_trace(dir_.path(), {});
  EXPECT_EQ(trace.rows, 9u);
  ASSERT_EQ(trace.jobs.size(), 3u);
  const JobSpec& a = trace.jobs[0];
  EXPECT_EQ(a.id, "jobA");
  EXPECT_EQ(a.submit, 0);  // the earliest submission (job table: 80)
  EXPECT_EQ(a.user, "userA");
  EXPECT_EQ(a.queue, "unknown");
  EXPECT_EQ(a.gpus, 2u);        // 2 instances of 50 %: 2 workers
  EXPECT_EQ(a.gpu_share, 0.5);  // each on half a GPU
  EXPECT_EQ(a.cpu_cores, 16u);  // (2 x 600 % + 400 %) / 100
  EXPECT_DOUBLE_EQ(a.memory_bytes, (2 * 29.296875 + 10) * 1073741824.0);
  EXPECT_EQ(std::get<MeasuredWork>(a.work).seconds, 410 - 90);  // first task start to last task end
  EXPECT_EQ(std::get<MeasuredWork>(a.work).gpu_type, "T4");
  const JobSpec& b = trace.jobs[1];
  EXPECT_EQ(b.id, "jobB");
  EXPECT_EQ(b.submit, 150 - 80);
  EXPECT_EQ(b.gpus, 2u);
  EXPECT_EQ(b.gpu_share, 1.0);
  EXPECT_TRUE(b.single_node);   // one instance (a pod) of 2 GPUs: on one node
  EXPECT_FALSE(a.single_node);  // two pods of half a GPU each
  EXPECT_EQ(std::get<MeasuredWork>(b.work).gpu_type, "V100");
  // jobC: still running when the log was cut (censored), from its start (300, no
  // job table row: its submission too) to the log's last time (jobA's end, 410).
  const JobSpec& c = trace.jobs[2];
  EXPECT_EQ(c.id, "jobC");
  EXPECT_EQ(c.submit, 300 - 80);
  EXPECT_EQ(std::get<MeasuredWork>(c.work).seconds, 410 - 300);
  EXPECT_EQ(std::get<MeasuredWork>(c.work).gpu_type, "P100");
  EXPECT_EQ(trace.censored_at_end, 1u);
  EXPECT_EQ(trace.job_status, (std::vector<std::string>{"Terminated", "Failed", "Running"}));
  EXPECT_EQ(*trace.machine_gpus, 12u);
  bool sharing_noted = false;
  for (const std::string& note : trace.assumptions)
    sharing_noted = sharing_noted || note.rfind("1 jobs ask a fraction of a GPU per instance", 0) == 0;
  EXPECT_TRUE(sharing_noted);
}

TEST_F(CraftedPai, TheRecordedWaitIsTheFirstTaskStartAfterTheJobTablesSubmission) {
  const TraceReadResult trace = read_pai_trace(dir_.path(), {});
  ASSERT_EQ(trace.recorded_waits.size(), 3u);
  EXPECT_EQ(trace.recorded_waits[0], 90 - 80);       // jobA: its ps task started first
  EXPECT_EQ(trace.recorded_waits[1], 200 - 150);     // jobB
  EXPECT_TRUE(std::isnan(trace.recorded_waits[2]));  // jobC: no job table row, no submission
}

TEST(PaiGpuShares, JobsMixingSharesOrWholeGpusTakeOneShareForAllTheirWorkers) {
  TempFolder dir;
  dir.write("pai_task_table.csv",
            "quarters,worker,2,Terminated,0,100,100,1,25,T4\n"     // 2 workers at 0.25 ...
            "quarters,evaluator,1,Terminated,0,100,100,1,50,T4\n"  // ... and one at 0.5: all at 0.5
            "mixed,worker,1,Terminated,0,100,100,1,100,T4\n"       // a whole GPU ...
            "mixed,ps,1,Terminated,0,100,100,1,50,T4\n"            // ... beside half a GPU: 2 whole GPUs
            "above,worker,1,Terminated,0,100,100,1,150,T4\n"       // 1.5 GPUs: 2 whole GPUs
            "small,worker,1,Terminated,0,100,100,1,10,T4\n");      // a tenth of a GPU
  const TraceReadResult trace = read_pai_trace(dir.path() + "/pai_task_table.csv", {});
  ASSERT_EQ(trace.jobs.size(), 4u);
  const auto job = [&](std::size_t i) {
    return std::pair<std::uint32_t, double>{trace.jobs[i].gpus, trace.jobs[i].gpu_share};
  };
  EXPECT_EQ(job(0), (std::pair<std::uint32_t, double>{3, 0.5}));
  EXPECT_EQ(job(1), (std::pair<std::uint32_t, double>{2, 1.0}));
  EXPECT_EQ(job(2), (std::pair<std::uint32_t, double>{2, 1.0}));
  EXPECT_EQ(job(3), (std::pair<std::uint32_t, double>{1, 0.1}));
  std::string notes;
  for (const std::string& note : trace.assumptions) notes += note + "\n";
  EXPECT_NE(notes.find("2 jobs ask a fraction of a GPU per instance"), std::string::npos) << notes;
  EXPECT_NE(notes.find("1 of them mix shares and take their largest"), std::string::npos) << notes;
  EXPECT_NE(notes.find("1 jobs mix fractional and whole-GPU instances"), std::string::npos) << notes;
  EXPECT_NE(notes.find("1 jobs have instances asking more than one GPU but not a whole number"), std::string::npos)
      << notes;
  // GPU-hours count the share: 3 x 0.5 + 2 + 2 + 0.1 GPUs for 100 s.
  EXPECT_NEAR(compute_trace_stats(trace, nullptr).gpu_hours, 5.6 * 100 / 3600, 1e-12);
  EXPECT_EQ(compute_trace_stats(trace, nullptr).jobs_sharing_gpus, 2u);
}

TEST_F(CraftedPai, BadRowsAndUnreplayableJobsAreReportedWithTheirFileAndLine) {
  const TraceReadResult trace = read_pai_trace(dir_.path(), {});
  struct Expected {
    const char* file;
    std::size_t line;
    const char* reason;
    bool malformed;
  };
  const Expected expected[] = {{"pai_instance_table.csv", 3, "machine not listed in pai_machine_spec", true},
                               {"pai_task_table.csv", 5, "CPU-only job (no task asks for a GPU)", false},
                               {"pai_task_table.csv", 6, "not an instance count (an integer >= 1)", true},
                               {"pai_task_table.csv", 6, "a task row of this job is malformed", false},
                               {"pai_task_table.csv", 7, "end before start", true},
                               {"pai_task_table.csv", 7, "a task row of this job is malformed", false},
                               {"pai_task_table.csv", 8, "GPU type not among pai_machine_spec's machines", true},
                               {"pai_task_table.csv", 8, "a task row of this job is malformed", false},
                               {"pai_task_table.csv", 9, "never started (a task has no start_time)", false}};
  ASSERT_EQ(trace.skipped.size(), std::size(expected));
  for (std::size_t i = 0; i < std::size(expected); ++i) {
    SCOPED_TRACE(std::string(expected[i].file) + " line " + std::to_string(expected[i].line));
    EXPECT_EQ(trace.skipped[i].file, dir_ / expected[i].file);
    EXPECT_EQ(trace.skipped[i].line, expected[i].line);
    EXPECT_EQ(trace.skipped[i].reason, expected[i].reason);
    EXPECT_EQ(trace.skipped[i].malformed, expected[i].malformed);
  }
}

TEST_F(CraftedPai, StrictModeFailsOnTheFirstMalformedRow) {
  TraceReadOptions options;
  options.strict = true;
  try {
    read_pai_trace(dir_.path(), options);
    FAIL() << "strict mode accepted an instance on an unknown machine";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), dir_ / "pai_instance_table.csv");
    EXPECT_EQ(e.where(), "line 3");
    EXPECT_EQ(e.field(), "machine");
  }
}

TEST_F(CraftedPai, ColumnsFollowTheHeaderFile) {
  // The same task table with its columns in another order, as its header says.
  TempFolder other;
  other.write("pai_task_table.header",
              "gpu_type,plan_gpu,job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem\n");
  other.write("pai_task_table.csv", "V100,800.0,jobX,worker,1.0,Terminated,10.0,70.0,100.0,1.0\n");
  const TraceReadResult trace = read_pai_trace(other / "pai_task_table.csv", {});
  ASSERT_EQ(trace.jobs.size(), 1u);
  EXPECT_EQ(trace.jobs[0].gpus, 8u);
  EXPECT_EQ(trace.jobs[0].user, "unknown");  // no job table
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[0].work).seconds, 60);
}

TEST_F(CraftedPai, TheMachineSpecClusterHasOneNodeGroupPerMachineShape) {
  const PaiMachineSpec spec = read_pai_machine_spec(dir_ / "pai_machine_spec.csv", true);
  const PaiCluster cluster = pai_cluster_json(spec, "crafted");
  const ClusterLayout layout(parse_cluster_json(cluster.cluster, "crafted.json"));
  EXPECT_EQ(layout.gpu_count(), 12u);
  ASSERT_EQ(layout.spec().node_groups.size(), 3u);
  EXPECT_EQ(layout.spec().node_groups[0].name, "v100-c96-m512");
  EXPECT_EQ(layout.spec().node_groups[0].intra_kind, IntraNodeKind::kNvlink);
  EXPECT_EQ(layout.spec().node_groups[1].name, "t4-c96-m512");
  EXPECT_EQ(layout.spec().node_groups[1].intra_kind, IntraNodeKind::kPcie);
}

// A machine spec naming GPU models gcsim has no figures for, and a task on one.
class PaiWithUnknownModels : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.write("pai_task_table.csv",
               "j1,worker,1,Terminated,100,400,600,1,100,G2\n"  // a whole G2
               "j2,worker,2,Terminated,150,250,800,8,100,T4\n");
    dir_.write("pai_machine_spec.csv",
               "m1,T4,96,512,2\n"         // line 1
               "m2,CPU,96,512,0\n"        // line 2
               "m3,G2,96,512,2\n"         // line 3: the first G2
               "m4,G2,96,512,2\n"         // line 4
               "m5,V100M16,96,512,8\n");  // line 5: known since node lists name it
  }
  TempFolder dir_;
};

TEST_F(PaiWithUnknownModels, TheClusterOfAMachineOfAnUnknownModelIsAnErrorNamingItsLineAndTheMapping) {
  // Reading keeps every machine, whatever its model: 2 + 2 + 2 + 8 GPUs.
  const PaiMachineSpec spec = read_pai_machine_spec(dir_ / "pai_machine_spec.csv", true);
  EXPECT_EQ(spec.machines.size(), 5u);
  EXPECT_TRUE(spec.skipped.empty());
  try {
    pai_cluster_json(spec, "pai");
    FAIL() << "G2 machines were given figures nobody stated";
  } catch (const TraceSettingError& error) {
    const InputError e = command_line_error(error);  // as the commands report it
    EXPECT_EQ(e.file(), dir_ / "pai_machine_spec.csv");
    EXPECT_EQ(e.where(), "line 3");
    EXPECT_EQ(e.field(), "gpu_type");
    EXPECT_NE(e.problem().find("--gpu-type G2=NAME[:FLOPS]"), std::string::npos) << e.what();
  }
  // The trace itself reads: its tasks' types are checked against the spec's, G2 among them.
  const TraceReadResult trace = read_pai_trace(dir_.path(), {});
  EXPECT_EQ(trace.jobs.size(), 2u);
  EXPECT_TRUE(trace.skipped.empty());
  EXPECT_EQ(*trace.machine_gpus, 14u);
}

TEST_F(PaiWithUnknownModels, AMappedModelKeepsItsMachinesAndRenamesItsTasksType) {
  GpuModelMap models;
  add_gpu_model_mapping(models, parse_gpu_model_mapping("G2=G2X:20TFLOPS"));
  const PaiCluster cluster =
      pai_cluster_json(read_pai_machine_spec(dir_ / "pai_machine_spec.csv", true), "pai", models);
  const ClusterLayout layout(parse_cluster_json(cluster.cluster, "pai.json"));
  EXPECT_EQ(layout.node_count(), 4u);  // every machine with GPUs
  EXPECT_EQ(layout.gpu_count(), 14u);  // T4 2 + G2X 2 + 2 + V100M16 8
  const int g2x = layout.find_gpu_type("G2X");
  ASSERT_GE(g2x, 0);
  EXPECT_EQ(layout.spec().gpu_types[static_cast<std::size_t>(g2x)].flops, 20e12);
  EXPECT_EQ(layout.spec().gpu_types[static_cast<std::size_t>(g2x)].memory_bytes, 16e9);  // assumed, and said
  std::string notes;
  for (const std::string& note : cluster.assumptions) notes += note + "\n";
  EXPECT_NE(notes.find("G2 as G2X, 20 TFLOP/s 16 GB (memory assumed"), std::string::npos) << notes;

  TraceReadOptions options;
  options.gpu_models = models;
  const TraceReadResult trace = read_pai_trace(dir_.path(), options);
  ASSERT_EQ(trace.jobs.size(), 2u);
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[0].work).gpu_type, "G2X");  // j1, measured on G2
  EXPECT_EQ(std::get<MeasuredWork>(trace.jobs[1].work).gpu_type, "T4");
}

}  // namespace
}  // namespace gcsim
