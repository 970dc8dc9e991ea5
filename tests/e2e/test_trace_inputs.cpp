// What `gcsim run` and `gcsim trace` say about inputs that are not what they
// seem: a trace given without its format, a format gcsim does not know, a
// folder, a file from another platform, a GPU type the cluster lacks; and
// machine lists turned into clusters without losing a machine.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

const std::string kPhillyHeader = "timestamp,duration,num_gpus,gpu_time,cluster\n";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(TraceInputs, ATraceGivenAsANativeWorkloadIsNamedByWhatItLooksLike) {
  ScratchDir dir;
  const std::string cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const std::string philly = dir.write("p.csv", kPhillyHeader + "2017-10-09 07:00:00,60,1,60,vcA\n");
  const GcsimRun as_native = run_simulation(cluster, philly, dir / "out");
  EXPECT_EQ(as_native.exit_code, 1);
  EXPECT_TRUE(
      has(as_native.err, "p.csv: not a gcsim workload (JSON): it looks like a Philly trace; give it as philly:"))
      << as_native.err;
  const std::string pods = dir.write("pods.csv", "name,creation_time,num_gpu\np1,10,1\n");
  const GcsimRun csv = run_simulation(cluster, pods, dir / "out");
  EXPECT_EQ(csv.exit_code, 1);
  EXPECT_TRUE(has(csv.err, "it looks like a CSV table; give it as csv:")) << csv.err;
  EXPECT_TRUE(has(csv.err, "--trace-opt map=submit=COL,gpus=COL,duration=COL")) << csv.err;
  const GcsimRun stats = run_gcsim({"trace", "stats", philly, "--format", "native"});
  EXPECT_EQ(stats.exit_code, 1);
  EXPECT_TRUE(has(stats.err, "read it with --format philly")) << stats.err;
  EXPECT_TRUE(files_in(dir / "out").empty());
}

TEST(TraceInputs, AnUnknownFormatPrefixIsAUsageErrorListingTheKnownOnes) {
  ScratchDir dir;
  const std::string cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  dir.write("pods.csv", "name,creation_time,num_gpu\np1,10,1\n");
  const GcsimRun run = run_simulation(cluster, "openb:" + dir / "pods.csv", dir / "out");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(has(run.err, "unknown trace format 'openb'")) << run.err;
  EXPECT_TRUE(has(run.err, "philly, swf, helios, pai, csv, native")) << run.err;
}

TEST(TraceInputs, AFolderIsNamedAsAFolder) {
  ScratchDir dir;
  const std::string cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  std::filesystem::create_directories(dir / "traces");
  const GcsimRun run = run_simulation(cluster, dir / "traces", dir / "out");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(has(run.err, "traces: a folder, not a workload file")) << run.err;
  const GcsimRun stats = run_gcsim({"trace", "stats", dir / "traces", "--format", "philly"});
  EXPECT_EQ(stats.exit_code, 1);
  EXPECT_TRUE(has(stats.err, "traces: a folder, not a trace file")) << stats.err;
}

TEST(TraceInputs, AFileWithAByteOrderMarkAndCrEndingsReadsLikeAnyOther) {
  ScratchDir dir;
  const std::string trace = dir.write("mac.csv",
                                      "\xEF\xBB\xBFtimestamp,duration,num_gpus,gpu_time,cluster\r"
                                      "2017-10-09 07:00:00,60,1,60,vcA\r"
                                      "2017-10-09 07:01:00,30,2,60,vcA\r");
  const GcsimRun stats = run_gcsim({"trace", "stats", trace, "--format", "philly"});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_TRUE(has(stats.out, "2 read: 2 jobs, 0 skipped")) << stats.out;
}

TEST(TraceInputs, ARunTimeBeyondTheHorizonIsALocatedErrorNotACrash) {
  ScratchDir dir;
  const std::string cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const std::string trace = dir.write("t.csv", "id,t,g,d\na,0,1,60\nb,5,1,1e300\n");
  const std::vector<std::string> map = {"--trace-opt", "map=id=id,submit=t,gpus=g,duration=d", "--trace-opt",
                                        "gpu_type=GPU"};
  // Skipped and counted as malformed; the rest replays.
  const GcsimRun run = run_simulation(cluster, "csv:" + trace, dir / "out", map);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(has(run.err, "1 rows skipped (1 malformed)")) << run.err;
  EXPECT_EQ(read_jobs_csv(dir / "out").at("a").end, 60);
  // Strict: an error naming the file, line and column.
  std::vector<std::string> strict = map;
  strict.insert(strict.end(), {"--trace-opt", "strict=true"});
  const GcsimRun refused = run_simulation(cluster, "csv:" + trace, dir / "strict", strict);
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_TRUE(has(refused.err, "t.csv: line 3: field 'd': run time beyond the horizon")) << refused.err;
}

TEST(TraceInputs, StrictModeAcceptsJobsThatNeverStarted) {
  ScratchDir dir;
  const std::string pods = dir.write("pods.csv",
                                     "name,creation_time,scheduled_time,deletion_time,num_gpu\n"
                                     "p1,100,110,170,1\n"
                                     "p2,120,,,1\n");
  const GcsimRun stats =
      run_gcsim({"trace", "stats", pods, "--format", "csv", "--strict", "--map",
                 "id=name,submit=creation_time,start=scheduled_time,end=deletion_time,gpus=num_gpu"});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_TRUE(has(stats.out, "1 skipped (0 malformed, 1 not replayable)")) << stats.out;
  EXPECT_TRUE(has(stats.out, "not replayable: scheduled_time: never started (no start time)")) << stats.out;
}

TEST(TraceInputs, AClusterLackingTheTracesGpuTypeIsNamedWithTheSettingThatFixesIt) {
  ScratchDir dir;
  const std::string cluster = dir.write("cluster.json", CraftedCluster{}.to_json());  // GPU type "GPU"
  const std::string trace = dir.write("p.csv", kPhillyHeader + "2017-10-09 07:00:00,60,1,60,vcA\n");
  const GcsimRun run = run_simulation(cluster, "philly:" + trace, dir / "out");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(has(run.err, "measured on gpu_type V100, a type cluster 'crafted' lacks (it has GPU)")) << run.err;
  EXPECT_TRUE(has(run.err, "--trace-opt gpu_type=TYPE")) << run.err;
  const GcsimRun fixed = run_simulation(cluster, "philly:" + trace, dir / "fixed", {"--trace-opt", "gpu_type=GPU"});
  EXPECT_EQ(fixed.exit_code, 0) << fixed.err;
}

// A PAI folder whose machine spec names a model gcsim has no figures for.
void write_pai_with_g2(const ScratchDir& dir) {
  std::filesystem::create_directories(dir / "pai");
  dir.write("pai/pai_task_table.csv",
            "j1,worker,1.0,Terminated,100.0,400.0,600.0,29.3,100.0,G2\n"        // 300 s on one G2
            "j2,worker,1.0,Terminated,150.0,250.0,800.0,8.0,800.0,V100M32\n");  // 100 s on 8 V100M32
  dir.write("pai/pai_machine_spec.csv", "m1,V100M32,96,384,8\nm2,G2,96,512,2\nm3,CPU,96,512,0\nm4,G2,96,512,2\n");
}

TEST(TraceInputs, ThePaiClusterRefusesAModelWithoutFiguresRatherThanDropItsMachines) {
  ScratchDir dir;
  write_pai_with_g2(dir);
  const GcsimRun convert = run_gcsim({"trace", "convert", dir / "pai", "--format", "pai", "--to", "native", "--out",
                                      dir / "w.json", "--cluster-out", dir / "cluster.json"});
  EXPECT_EQ(convert.exit_code, 1);
  EXPECT_TRUE(has(convert.err, "pai_machine_spec.csv: line 2: field 'gpu_type'")) << convert.err;
  EXPECT_TRUE(has(convert.err, "--gpu-type G2=NAME[:FLOPS]")) << convert.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "w.json"));  // nothing written
  EXPECT_FALSE(std::filesystem::exists(dir / "cluster.json"));
}

TEST(TraceInputs, AMappedPaiModelKeepsItsMachinesAndItsJobsRunOnThem) {
  ScratchDir dir;
  write_pai_with_g2(dir);
  const GcsimRun convert =
      run_gcsim({"trace", "convert", dir / "pai", "--format", "pai", "--to", "native", "--out", dir / "w.json",
                 "--cluster-out", dir / "cluster.json", "--gpu-type", "G2=G2:20TFLOPS:24GB"});
  ASSERT_EQ(convert.exit_code, 0) << convert.err;
  EXPECT_TRUE(has(convert.out, "GPU models mapped with --gpu-type: G2 as G2, 20 TFLOP/s 24 GB")) << convert.out;
  const nlohmann::json cluster = nlohmann::json::parse(read_text(dir / "cluster.json"));
  int gpus = 0;
  for (const auto& group : cluster["node_groups"])
    gpus += group["count"].get<int>() * group["gpus_per_node"].get<int>();
  EXPECT_EQ(gpus, 8 + 2 + 2);  // every machine with GPUs: m1, m2, m4
  const GcsimRun run = run_simulation(dir / "cluster.json", dir / "w.json", dir / "out", {"--no-wall-time"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  EXPECT_EQ(jobs.at("j1").end - jobs.at("j1").start, 300);  // its recorded run time on its own type
  EXPECT_EQ(jobs.at("j2").end - jobs.at("j2").start, 100);
  // Replayed directly with the same mapping: the same jobs.
  const GcsimRun replay = run_simulation(dir / "cluster.json", "pai:" + dir / "pai", dir / "replay",
                                         {"--no-wall-time", "--trace-opt", "gpu_type=G2=G2:20TFLOPS:24GB"});
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_EQ(read_text(dir / "replay/jobs.csv"), read_text(dir / "out/jobs.csv"));
}

const std::string kNodes =
    "sn,cpu_milli,memory_mib,gpu,model\n"
    "n1,96000,786432,8,V100M32\n"
    "n2,96000,786432,8,V100M32\n"
    "n3,64000,262144,2,A10\n"
    "n4,32000,131072,0,\n"
    "n5,96000,786432,8,G3\n";

TEST(TraceInputs, ANodeListBecomesAClusterThatRunsJobs) {
  ScratchDir dir;
  const std::string nodes = dir.write("nodes.csv", kNodes);
  const std::vector<std::string> base = {"trace",
                                         "cluster",
                                         nodes,
                                         "--format",
                                         "nodes",
                                         "--map",
                                         "model=model,gpus=gpu,cpu=cpu_milli,memory=memory_mib",
                                         "--cpu-unit",
                                         "milli",
                                         "--memory-unit",
                                         "MiB",
                                         "--out",
                                         dir / "cluster.json"};
  const GcsimRun unknown = run_gcsim(base);
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_TRUE(has(unknown.err, "nodes.csv: line 6: field 'model': gcsim has no figures for GPU model 'G3'"))
      << unknown.err;
  std::vector<std::string> mapped = base;
  mapped.insert(mapped.end(), {"--gpu-type", "G3=V100M32", "--name", "k8s"});
  const GcsimRun made = run_gcsim(mapped);
  ASSERT_EQ(made.exit_code, 0) << made.err;
  // n1, n2 and n5 (G3 as a V100M32) are one shape; n3 another; n4 has no GPU.
  EXPECT_TRUE(has(made.out, "4 nodes with 26 GPUs in 2 node groups")) << made.out;
  EXPECT_TRUE(has(made.out, "1 CPU-only machines are left out")) << made.out;
  const nlohmann::json cluster = nlohmann::json::parse(read_text(dir / "cluster.json"));
  ASSERT_EQ(cluster["node_groups"].size(), 2u);
  EXPECT_EQ(cluster["node_groups"][0]["count"], 3);
  EXPECT_EQ(cluster["node_groups"][0]["cpu_cores"], 96);

  // 24 GPUs of 32 GB: the three V100M32 nodes (the A10s have 24 GB); 60 s as measured on their type.
  const std::string workload =
      dir.write("w.json", R"({"jobs": [{"id": "big", "submit": 0, "gpus": 24, "gpu_memory": "32GB",
                              "duration": {"seconds": 60, "gpu_type": "V100M32"}},
                             {"id": "a10", "submit": 0, "gpus": 2, "duration": {"seconds": 30, "gpu_type": "A10"}}]})");
  const GcsimRun run = run_simulation(dir / "cluster.json", workload, dir / "out", {"--no-wall-time"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  EXPECT_EQ(jobs.at("big").end, 60);
  EXPECT_EQ(jobs.at("a10").end, 30);
}

// The trace library names the setting that fixes a node list (gpu_type);
// the user reads the flag of the command given.
TEST(TraceInputs, ANodeListsGpuModelFixIsNamedAsTheCommandsFlag) {
  ScratchDir dir;
  const std::string nodes = dir.write("nodes.csv", kNodes);
  const std::vector<std::string> base = {
      "trace", "cluster", nodes, "--format", "nodes", "--map", "model=model,gpus=gpu", "--out", dir / "cluster.json"};
  const GcsimRun unknown = run_gcsim(base);
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_TRUE(has(unknown.err, "; map it to a GPU type with --gpu-type G3=NAME[:FLOPS]: G3=T4 takes")) << unknown.err;
  std::vector<std::string> clash = base;  // G3 becomes A10, at other FLOP/s than the list's A10s
  clash.insert(clash.end(), {"--gpu-type", "G3=A10:20TFLOPS"});
  const GcsimRun merged = run_gcsim(clash);
  EXPECT_EQ(merged.exit_code, 1);
  EXPECT_TRUE(has(merged.err, "both become GPU type 'A10', with different figures")) << merged.err;
  EXPECT_TRUE(has(merged.err, "; map them to different names with --gpu-type\n")) << merged.err;
  EXPECT_FALSE(has(unknown.err + merged.err, "setting gpu_type")) << unknown.err << merged.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "cluster.json"));
}

TEST(TraceInputs, NodeListCommandLineMistakesExitWithStatus2) {
  ScratchDir dir;
  const std::string nodes = dir.write("nodes.csv", kNodes);
  const auto exit_of = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"trace", "cluster", nodes, "--format", "nodes", "--out", dir / "c.json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_gcsim(args).exit_code;
  };
  EXPECT_EQ(exit_of({}), 2);                                                     // no --map
  EXPECT_EQ(exit_of({"--map", "model=model"}), 2);                               // no gpus column
  EXPECT_EQ(exit_of({"--map", "model=model,gpus=gpu", "--cpu-unit", "m"}), 2);   // unknown unit
  EXPECT_EQ(exit_of({"--map", "model=model,gpus=gpu", "--gpu-type", "G3"}), 2);  // not a mapping
  EXPECT_EQ(exit_of({"--map", "model=model,gpus=gpu", "--capacity-out", dir / "q.json"}), 2);
  EXPECT_EQ(
      run_gcsim({"trace", "cluster", nodes, "--format", "philly-vcs", "--out", dir / "c.json", "--gpu-type", "G3=V100"})
          .exit_code,
      2);
}

}  // namespace
}  // namespace gcsim::testing
