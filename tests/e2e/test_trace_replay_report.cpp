// `gcsim run --workload csv:FILE` on crafted pod lists: the unit of a memory
// column, jobs the trace saw only in part (censored), negative submit times,
// and the "trace" object of summary.json that says what was replayed: rows
// read, jobs kept, censored, skipped per reason, selected.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

constexpr double kGiB = 1073741824.0;

// One node of `gpus` GPUs (type "GPU") and 64 GiB of host memory.
std::string small_node(const ScratchDir& dir, int gpus) {
  CraftedCluster crafted;
  crafted.gpus_per_node = gpus;
  nlohmann::json cluster = nlohmann::json::parse(crafted.to_json());
  cluster["node_groups"][0]["memory"] = 64 * kGiB;
  return dir.write("cluster.json", cluster.dump(2));
}

std::vector<std::string> trace_opts(const std::vector<std::string>& settings) {
  std::vector<std::string> flags = {"--trace-opt", "gpu_type=GPU", "--no-wall-time"};
  for (const std::string& setting : settings) flags.insert(flags.end(), {"--trace-opt", setting});
  return flags;
}

const std::string kMemoryMap = "map=id=name,submit=created,gpus=gpus,duration=ran,memory=mem";

TEST(TraceReplayReport, APlainMemoryNumberNeedsItsUnitAndWithItATooLargeJobIsRefused) {
  ScratchDir dir;
  const std::string cluster = small_node(dir, 8);
  const std::string pods = "csv:" + dir.write("pods.csv", "name,created,gpus,ran,mem\na,0,1,60,2000\n");
  // No unit: the read fails naming the file, line, column and the two ways to give one.
  const GcsimRun no_unit = run_simulation(cluster, pods, dir / "no-unit", trace_opts({kMemoryMap}));
  EXPECT_EQ(no_unit.exit_code, 1);
  EXPECT_TRUE(has(no_unit.err, "pods.csv: line 2: field 'mem': a plain number (got '2000')")) << no_unit.err;
  EXPECT_TRUE(has(no_unit.err, "--trace-opt memory_unit=UNIT")) << no_unit.err;
  EXPECT_TRUE(has(no_unit.err, "memory=mem:UNIT")) << no_unit.err;
  EXPECT_TRUE(files_in(dir / "no-unit").empty());
  // 2000 GiB on a node of 64 GiB: too large for the cluster, named.
  for (const std::vector<std::string>& settings :
       {std::vector<std::string>{kMemoryMap, "memory_unit=GiB"}, std::vector<std::string>{kMemoryMap + ":GiB"}}) {
    const GcsimRun refused = run_simulation(cluster, pods, dir / "refused", trace_opts(settings));
    EXPECT_EQ(refused.exit_code, 1) << refused.err;
    EXPECT_TRUE(has(refused.err, "(id 'a'): field 'memory': needs 2.15e+03 GB")) << refused.err;
    EXPECT_TRUE(files_in(dir / "refused").empty());
  }
  // A field with its own unit needs none.
  const std::string sized = "csv:" + dir.write("sized.csv", "name,created,gpus,ran,mem\na,0,1,60,16Gi\n");
  const GcsimRun run = run_simulation(cluster, sized, dir / "out", trace_opts({kMemoryMap}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(read_jobs_csv(dir / "out").at("a").end, 60);
}

// The window runs from 40 (p2's submission) to 200 (p1's end). One node of 2 GPUs, fifo.
const std::string kPods =
    "name,created,scheduled,deleted,gpus\n"
    "p2,40,45,105,2\n"  // seen whole: submitted at 0, 60 s on 2 GPUs
    "p1,,50,200,1\n"    // running before the window: submitted at 0, before p2; 200 - 50 = 150 s
    "p3,120,130,,2\n";  // running at its end: submitted at 80; 200 - 130 = 70 s
const std::string kPodMap = "map=id=name,submit=created,start=scheduled,end=deleted,gpus=gpus";

TEST(TraceReplayReport, CensoredJobsReplayFromTheWindowAndAreCountedInTheSummary) {
  ScratchDir dir;
  const std::string cluster = small_node(dir, 2);
  const GcsimRun run =
      run_simulation(cluster, "csv:" + dir.write("pods.csv", kPods), dir / "out", trace_opts({kPodMap, "strict=true"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // p1 takes a GPU at 0; p2 needs both and waits for p1 (150); p3 waits behind p2 (210).
  const auto jobs = read_jobs_csv(dir / "out");
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs.at("p1").submit, 0);
  EXPECT_EQ(jobs.at("p1").start, 0);
  EXPECT_EQ(jobs.at("p1").end, 150);
  EXPECT_EQ(jobs.at("p2").submit, 0);
  EXPECT_EQ(jobs.at("p2").start, 150);
  EXPECT_EQ(jobs.at("p2").end, 210);
  EXPECT_EQ(jobs.at("p3").submit, 80);
  EXPECT_EQ(jobs.at("p3").start, 210);
  EXPECT_EQ(jobs.at("p3").end, 280);
  const nlohmann::json trace = read_summary(dir / "out").at("trace");
  EXPECT_EQ(trace.at("format"), "csv");
  EXPECT_EQ(trace.at("file"), dir / "pods.csv");
  EXPECT_EQ(trace.at("rows"), 3);
  EXPECT_EQ(trace.at("jobs"), 3);
  EXPECT_EQ(trace.at("censored_at_start"), 1);
  EXPECT_EQ(trace.at("censored_at_end"), 1);
  EXPECT_EQ(trace.at("skipped").at("rows"), 0);
  EXPECT_TRUE(trace.at("skipped").at("malformed").empty());
  EXPECT_TRUE(trace.at("skipped").at("not_replayable").empty());
  EXPECT_TRUE(trace.at("selection").is_null());
  EXPECT_TRUE(has(run.err, "censored: 1 submitted before the trace's window, 1 running at its end")) << run.err;

  // censored=drop: both skipped as not replayable, p2 alone.
  const GcsimRun dropped =
      run_simulation(cluster, "csv:" + dir / "pods.csv", dir / "drop", trace_opts({kPodMap, "censored=drop"}));
  ASSERT_EQ(dropped.exit_code, 0) << dropped.err;
  const auto kept = read_jobs_csv(dir / "drop");
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept.at("p2").end, 60);
  const nlohmann::json skipped = read_summary(dir / "drop").at("trace");
  EXPECT_EQ(skipped.at("jobs"), 1);
  EXPECT_EQ(skipped.at("censored_at_start"), 0);
  EXPECT_EQ(skipped.at("skipped").at("rows"), 2);
  EXPECT_EQ(skipped.at("skipped").at("not_replayable"),
            (nlohmann::json{{"censored at end", 1}, {"censored at start", 1}}));
}

TEST(TraceReplayReport, SkippedRowsAndTheSelectionAreInTheSummaryPerReason) {
  ScratchDir dir;
  const std::string cluster = small_node(dir, 8);
  const std::string pods = dir.write("pods.csv",
                                     "name,created,scheduled,deleted,gpus\n"
                                     "a,0,0,60,1\n"
                                     "b,-5,0,60,1\n"    // negative submit time: malformed
                                     "c,10,5,60,1\n"    // starts before it was submitted: malformed
                                     "d,20,,,1\n"       // never started: not replayable
                                     "e,30,30,90,0\n"   // a CPU job: not replayable
                                     "f,40,40,100,2\n"  // kept by the reader, left out by the selection
                                     "g,50,55,100,1\n");
  const GcsimRun run = run_simulation(cluster, "csv:" + pods, dir / "out", trace_opts({kPodMap, "max_gpus=1"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json trace = read_summary(dir / "out").at("trace");
  EXPECT_EQ(trace.at("rows"), 7);
  EXPECT_EQ(trace.at("jobs"), 3);
  EXPECT_EQ(trace.at("skipped").at("rows"), 4);
  EXPECT_EQ(trace.at("skipped").at("malformed"),
            (nlohmann::json{{"negative submit time", 1}, {"starts before it was submitted", 1}}));
  EXPECT_EQ(trace.at("skipped").at("not_replayable"),
            (nlohmann::json{{"0 GPUs and no cpu column (map one to replay CPU jobs)", 1},
                            {"never started (no start time)", 1}}));
  EXPECT_EQ(trace.at("selection").at("jobs"), 2);
  ASSERT_EQ(trace.at("selection").at("steps").size(), 1u);
  EXPECT_TRUE(has(trace.at("selection").at("steps")[0].get<std::string>(), "2 of 3 jobs kept"))
      << trace.at("selection");
  EXPECT_EQ(read_summary(dir / "out").at("jobs").at("total"), 2);

  // The same inputs give the same file, byte for byte.
  const GcsimRun again = run_simulation(cluster, "csv:" + pods, dir / "again", trace_opts({kPodMap, "max_gpus=1"}));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(read_text(dir / "out/summary.json"), read_text(dir / "again/summary.json"));

  // Strict: the negative submit time is an error naming the file, line and column.
  const GcsimRun strict = run_simulation(cluster, "csv:" + pods, dir / "strict", trace_opts({kPodMap, "strict=true"}));
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_TRUE(has(strict.err, "pods.csv: line 3: field 'created': negative submit time (got '-5')")) << strict.err;
}

TEST(TraceReplayReport, TraceStatsCountsCensoredJobsAndTakesTheUnitsAndTheCensoredRuleAsFlags) {
  ScratchDir dir;
  const std::string pods = dir.write("pods.csv", kPods);
  const std::string map = kPodMap.substr(4);  // without "map="
  const GcsimRun stats = run_gcsim({"trace", "stats", pods, "--format", "csv", "--map", map});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_TRUE(has(stats.out, "3 read: 3 jobs, 0 skipped")) << stats.out;
  EXPECT_TRUE(has(stats.out, "censored      1 submitted before the trace's window, 1 running at its end")) << stats.out;
  const GcsimRun dropped = run_gcsim({"trace", "stats", pods, "--format", "csv", "--map", map, "--censored", "drop"});
  ASSERT_EQ(dropped.exit_code, 0) << dropped.err;
  EXPECT_TRUE(has(dropped.out, "3 read: 1 jobs, 2 skipped (0 malformed, 2 not replayable)")) << dropped.out;
  EXPECT_TRUE(has(dropped.out, "not replayable: created: censored at start")) << dropped.out;

  const std::string sized = dir.write("sized.csv", "t,g,d,m,c\n0,1,60,2,1500\n");
  const GcsimRun units =
      run_gcsim({"trace", "convert", sized, "--format", "csv", "--map", "submit=t,gpus=g,duration=d,memory=m,cpu=c",
                 "--memory-unit", "GiB", "--cpu-unit", "millicores", "--to", "native", "--out", dir / "w.json"});
  ASSERT_EQ(units.exit_code, 0) << units.err;
  const nlohmann::json job = nlohmann::json::parse(read_text(dir / "w.json")).at("jobs").at(0);
  EXPECT_EQ(job.at("memory").get<double>(), 2 * kGiB) << job;
  EXPECT_EQ(job.at("cpu_cores").get<int>(), 2) << job;  // 1.5 cores, rounded up
  const GcsimRun no_unit =
      run_gcsim({"trace", "stats", sized, "--format", "csv", "--map", "submit=t,gpus=g,duration=d,memory=m"});
  EXPECT_EQ(no_unit.exit_code, 1);
  EXPECT_TRUE(has(no_unit.err, "sized.csv: line 2: field 'm'")) << no_unit.err;
  EXPECT_TRUE(has(no_unit.err, "--memory-unit UNIT")) << no_unit.err;
  const GcsimRun philly = run_gcsim({"trace", "stats", pods, "--format", "philly", "--memory-unit", "GiB"});
  EXPECT_EQ(philly.exit_code, 2);
  EXPECT_TRUE(has(philly.err, "option '--memory-unit' applies to --format csv only")) << philly.err;
}

TEST(TraceReplayReport, ANativeWorkloadsSummaryHasNoTraceObject) {
  ScratchDir dir;
  const std::string cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const std::string workload = dir.write("jobs.json", workload_json({measured_job("A", 0, 1, 10)}));
  const GcsimRun run = run_simulation(cluster, workload, dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_FALSE(read_summary(dir / "out").contains("trace"));
  EXPECT_FALSE(has(run.out, "censored")) << run.out;
}

}  // namespace
}  // namespace gcsim::testing
