// `gcsim trace stats|convert` and `gcsim run --workload FORMAT:FILE` on real
// traces (counts taken from the files by the test itself) and crafted ones:
// bad rows named by line and reason, strict mode failing, a trace replayed
// exactly as its conversion, a job too large for the cluster rejected by
// validation rather than shrunk, and native -> SWF -> native.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

std::string real_trace(const std::string& relative) {
  return std::string(GCSIM_SOURCE_DIR) + "/../shared/traces/" + relative;
}

/// The excerpts bundled in traces/excerpts (traces/README.md): always present.
std::string bundled_excerpt(const std::string& relative) {
  return std::string(GCSIM_SOURCE_DIR) + "/traces/excerpts/" + relative;
}

#define SKIP_UNLESS_PRESENT(path)                                                                 \
  do {                                                                                            \
    if (!std::filesystem::exists(path))                                                           \
      GTEST_SKIP() << "real trace not available: " << (path)                                      \
                   << " (the shared traces folder is expected at <repository>/../shared/traces)"; \
  } while (0)

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, separator)) parts.push_back(part);
  return parts;
}

const std::string kPhillyHeader = "timestamp,duration,num_gpus,gpu_time,cluster\n";

TEST(TraceCommand, StatsOnTheRealPhillyLogMatchCountsTakenFromTheFile) {
  const std::string path = real_trace("philly/philly_jobs_pollux.csv");
  SKIP_UNLESS_PRESENT(path);
  std::size_t rows = 0;
  std::map<std::string, std::size_t> gpus_in_file;
  double gpu_seconds = 0;
  for (const std::string& line : lines_of(path)) {
    if (line.empty() || line.rfind("timestamp,", 0) == 0) continue;
    const auto f = split(line, ',');
    ++rows;
    ++gpus_in_file[f[2]];
    gpu_seconds += std::stod(f[3]);
  }
  ScratchDir dir;
  const GcsimRun run = run_gcsim({"trace", "stats", path, "--format", "philly", "--json", dir / "stats.json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find(std::to_string(rows) + " jobs"), std::string::npos) << run.out;
  const nlohmann::json stats = nlohmann::json::parse(read_text(dir / "stats.json"));
  EXPECT_EQ(stats["rows"], rows);
  EXPECT_EQ(stats["jobs"], rows);
  EXPECT_EQ(stats["skipped"]["rows"], 0);
  std::map<std::string, std::size_t> gpus_read;
  for (const auto& [gpus, count] : stats["gpu_counts"].items()) gpus_read[gpus] = count.get<std::size_t>();
  EXPECT_EQ(gpus_read, gpus_in_file);
  EXPECT_NEAR(stats["gpu_hours"].get<double>(), gpu_seconds / 3600, 1e-6 * gpu_seconds / 3600);
  EXPECT_EQ(stats["time_origin_calendar"], "2017-09-04 10:30:41");  // the earliest timestamp, per the folder README
}

TEST(TraceCommand, SelectionOnTheRealPhillyLogMatchesCountsTakenFromTheFile) {
  const std::string path = real_trace("philly/philly_jobs_pollux.csv");
  SKIP_UNLESS_PRESENT(path);
  const std::string from = "2017-10-01 00:00:00", until = "2017-10-15 00:00:00";
  std::size_t in_window = 0, selected = 0;
  for (const std::string& line : lines_of(path)) {
    if (line.empty() || line.rfind("timestamp,", 0) == 0) continue;
    const auto f = split(line, ',');
    if (f[0] < from || f[0] >= until) continue;  // calendar times sort as text
    ++in_window;
    if ((f[4] == "6214e9" || f[4] == "b436b2") && std::stoi(f[2]) >= 4 && std::stoi(f[2]) <= 16) ++selected;
  }
  ScratchDir dir;
  const GcsimRun run =
      run_gcsim({"trace", "stats", path, "--format", "philly", "--from", from, "--until", until, "--queue", "6214e9",
                 "--queue", "b436b2", "--min-gpus", "4", "--max-gpus", "16", "--json", dir / "stats.json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json stats = nlohmann::json::parse(read_text(dir / "stats.json"));
  EXPECT_EQ(stats["jobs"], selected);
  ASSERT_EQ(stats["selection"].size(), 3u);
  EXPECT_NE(stats["selection"][0].get<std::string>().find(std::to_string(in_window) + " of "), std::string::npos)
      << stats["selection"][0];
  EXPECT_GE(stats["first_submit"].get<double>(), 0);
  EXPECT_LT(stats["last_submit"].get<double>(), 14 * 86400);
}

// The bundled excerpt of the Philly log (its first 400 rows), counted by
// hand: 393 one-GPU jobs, 2 of 2, 2 of 4, 3 of 8; 5,511,113 GPU-seconds;
// the earliest submission 2017-09-29 07:58:32; 325 rows submitted between
// 00:00 and 06:00 on 2017-10-09, 2 of them in VC 6214e9 or 11cb48 with 2 to 8 GPUs.
TEST(TraceCommand, StatsOnTheBundledPhillyExcerptMatchCountsTakenByHand) {
  const std::string path = bundled_excerpt("philly/philly_jobs_pollux.first400.csv");
  ScratchDir dir;
  const GcsimRun run = run_gcsim({"trace", "stats", path, "--format", "philly", "--json", dir / "stats.json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("400 jobs"), std::string::npos) << run.out;
  const nlohmann::json stats = nlohmann::json::parse(read_text(dir / "stats.json"));
  EXPECT_EQ(stats["rows"], 400);
  EXPECT_EQ(stats["jobs"], 400);
  EXPECT_EQ(stats["skipped"]["rows"], 0);
  std::map<std::string, std::size_t> gpus_read;
  for (const auto& [gpus, count] : stats["gpu_counts"].items()) gpus_read[gpus] = count.get<std::size_t>();
  EXPECT_EQ(gpus_read, (std::map<std::string, std::size_t>{{"1", 393}, {"2", 2}, {"4", 2}, {"8", 3}}));
  EXPECT_NEAR(stats["gpu_hours"].get<double>(), 5511113 / 3600.0, 1e-9);
  EXPECT_EQ(stats["time_origin_calendar"], "2017-09-29 07:58:32");
}

TEST(TraceCommand, SelectionOnTheBundledPhillyExcerptMatchesCountsTakenByHand) {
  const std::string path = bundled_excerpt("philly/philly_jobs_pollux.first400.csv");
  ScratchDir dir;
  const GcsimRun run = run_gcsim({"trace", "stats", path, "--format", "philly", "--from", "2017-10-09 00:00:00",
                                  "--until", "2017-10-09 06:00:00", "--queue", "6214e9", "--queue", "11cb48",
                                  "--min-gpus", "2", "--max-gpus", "8", "--json", dir / "stats.json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json stats = nlohmann::json::parse(read_text(dir / "stats.json"));
  EXPECT_EQ(stats["jobs"], 2);
  ASSERT_EQ(stats["selection"].size(), 3u);
  EXPECT_NE(stats["selection"][0].get<std::string>().find("325 of 400"), std::string::npos) << stats["selection"][0];
  EXPECT_LT(stats["last_submit"].get<double>(), 6 * 3600);
}

TEST(TraceCommand, RunAppliesASelectionGivenAsTraceSettings) {
  ScratchDir dir;
  const std::string cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const std::string trace = dir.write("t.csv", kPhillyHeader +
                                                   "2017-10-09 07:00:00,60,2,120,vcA\n"
                                                   "2017-10-09 07:10:00,60,2,120,vcB\n"
                                                   "2017-10-09 07:20:00,60,4,240,vcA\n"
                                                   "2017-10-09 07:30:00,60,1,60,vcA\n");
  const GcsimRun run = run_simulation(cluster, "philly:" + trace, dir / "out",
                                      {"--trace-opt", "gpu_type=GPU", "--trace-opt", "queue=vcA", "--trace-opt",
                                       "from=10min", "--trace-opt", "load_scale=2"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  ASSERT_EQ(jobs.size(), 2u);                  // vcA jobs submitted from 07:10 on
  EXPECT_EQ(jobs.at("philly-4").submit, 300);  // 10 min after the window start, halved
  EXPECT_EQ(jobs.at("philly-5").submit, 600);
}

TEST(TraceCommand, StatsOnTheRealNasaLogNameTheSkippedLines) {
  const std::string path = real_trace("pwa-swf/NASA-iPSC-1993-3.1-cln.swf");
  SKIP_UNLESS_PRESENT(path);
  // Line numbers (counting header comments) of jobs that ran for 0 s.
  std::vector<std::size_t> zero_lines;
  std::size_t jobs = 0, line_number = 0;
  for (const std::string& line : lines_of(path)) {
    ++line_number;
    std::istringstream fields(line);
    std::string number, submit, wait, run_time;
    if (!(fields >> number) || number[0] == ';') continue;
    fields >> submit >> wait >> run_time;
    if (std::stod(run_time) == 0)
      zero_lines.push_back(line_number);
    else
      ++jobs;
  }
  ScratchDir dir;
  const GcsimRun run =
      run_gcsim({"trace", "stats", path, "--format", "swf", "--procs-per-gpu", "8", "--json", dir / "stats.json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json stats = nlohmann::json::parse(read_text(dir / "stats.json"));
  EXPECT_EQ(stats["jobs"], jobs);
  EXPECT_EQ(stats["skipped"]["rows"], zero_lines.size());
  ASSERT_EQ(stats["skipped"]["reasons"].size(), 1u);
  const auto& reason = stats["skipped"]["reasons"][0];
  EXPECT_EQ(reason["count"], zero_lines.size());
  EXPECT_EQ(reason["first_lines"].get<std::vector<std::size_t>>(),
            std::vector<std::size_t>(zero_lines.begin(), zero_lines.begin() + 5));
  EXPECT_EQ(stats["capacity"]["gpus"], 128 / 8);  // "; MaxProcs: 128" at 8 processors per GPU
}

// The bundled NASA excerpt (header and first 300 jobs): jobs 658, 659, 669,
// 670 and 671, on lines 248 to 252, ran for 0 s.
TEST(TraceCommand, StatsOnTheBundledNasaExcerptNameTheSkippedLines) {
  const std::string path = bundled_excerpt("pwa-swf/NASA-iPSC-1993-3.1-cln.first300.swf");
  ScratchDir dir;
  const GcsimRun run =
      run_gcsim({"trace", "stats", path, "--format", "swf", "--procs-per-gpu", "8", "--json", dir / "stats.json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json stats = nlohmann::json::parse(read_text(dir / "stats.json"));
  EXPECT_EQ(stats["jobs"], 295);
  EXPECT_EQ(stats["skipped"]["rows"], 5);
  ASSERT_EQ(stats["skipped"]["reasons"].size(), 1u);
  EXPECT_EQ(stats["skipped"]["reasons"][0]["first_lines"].get<std::vector<std::size_t>>(),
            (std::vector<std::size_t>{248, 249, 250, 251, 252}));
  EXPECT_EQ(stats["capacity"]["gpus"], 128 / 8);
}

TEST(TraceCommand, StatsReportBadRowsByLineAndStrictModeFails) {
  ScratchDir dir;
  const std::string trace = dir.write("bad.csv", kPhillyHeader +
                                                     "2017-10-09 07:00:00,60,1,60,vcA\n"
                                                     "2017-10-09 07:01:00,-5,1,-5,vcA\n"
                                                     "2017-10-09 07:02:00,10,0,0,vcA\n");
  const GcsimRun stats = run_gcsim({"trace", "stats", trace, "--format", "philly"});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_NE(stats.out.find("1  malformed: duration: negative run time (bad.csv line 3)"), std::string::npos)
      << stats.out;
  EXPECT_NE(stats.out.find("1  malformed: num_gpus: zero GPUs (bad.csv line 4)"), std::string::npos) << stats.out;

  const GcsimRun strict = run_gcsim({"trace", "stats", trace, "--format", "philly", "--strict"});
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_NE(strict.err.find("bad.csv: line 3: field 'duration': negative run time (got -5)"), std::string::npos)
      << strict.err;
}

TEST(TraceCommand, StatsAgainstAClusterGiveOfferedLoadAndTooLargeJobs) {
  ScratchDir dir;
  const std::string cluster = dir.write("cluster.json", CraftedCluster{}.to_json());  // 8 GPUs
  // 2 GPUs x 1 h + 16 GPUs x 0.5 h = 10 GPU-hours, submissions over 1 h: load 10 / (8 x 1).
  const std::string trace = dir.write("t.csv", kPhillyHeader +
                                                   "2017-10-09 07:00:00,3600,2,7200,vcA\n"
                                                   "2017-10-09 08:00:00,1800,16,28800,vcA\n");
  const GcsimRun run =
      run_gcsim({"trace", "stats", trace, "--format", "philly", "--cluster", cluster, "--json", dir / "stats.json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json stats = nlohmann::json::parse(read_text(dir / "stats.json"));
  EXPECT_DOUBLE_EQ(stats["capacity"]["offered_load"].get<double>(), 10.0 / 8);
  EXPECT_EQ(stats["capacity"]["jobs_larger"], 1);
  EXPECT_EQ(stats["capacity"]["first_larger"][0], "philly-3");
  EXPECT_NE(run.out.find("too large     1 jobs ask for more than 8 GPUs (first: philly-3)"), std::string::npos)
      << run.out;
}

TEST(TraceCommand, RunReplaysATraceExactlyAsItsConversion) {
  ScratchDir dir;
  const std::string cluster = dir.write("cluster.json", CraftedCluster{}.to_json());
  const std::string trace = dir.write("t.csv", kPhillyHeader +
                                                   "2017-10-09 07:00:30,600,4,2400,vcA\n"
                                                   "2017-10-09 07:00:00,300,8,2400,vcB\n"
                                                   "2017-10-09 07:01:00,60,2,120,vcA\n"
                                                   "2017-10-09 07:02:00,oops,2,120,vcA\n");
  const GcsimRun convert = run_gcsim({"trace", "convert", trace, "--format", "philly", "--gpu-type", "GPU", "--to",
                                      "native", "--out", dir / "w.json"});
  ASSERT_EQ(convert.exit_code, 0) << convert.err;
  EXPECT_NE(convert.out.find("wrote 3 jobs"), std::string::npos) << convert.out;
  EXPECT_NE(convert.out.find("1 rows skipped (1 malformed)"), std::string::npos) << convert.out;

  const GcsimRun native = run_simulation(cluster, dir / "w.json", dir / "native", {"--no-wall-time"});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  const GcsimRun replay =
      run_simulation(cluster, "philly:" + trace, dir / "replay", {"--no-wall-time", "--trace-opt", "gpu_type=GPU"});
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_NE(replay.err.find("philly trace"), std::string::npos) << replay.err;
  EXPECT_EQ(read_text(dir / "replay/jobs.csv"), read_text(dir / "native/jobs.csv"));
  // The 8-GPU job, submitted first, runs at once; the 4-GPU job waits for it.
  const auto jobs = read_jobs_csv(dir / "replay");
  EXPECT_EQ(jobs.at("philly-3").start, 0);
  EXPECT_EQ(jobs.at("philly-2").start, 300);
}

TEST(TraceCommand, RunRejectsATraceJobLargerThanTheClusterInsteadOfShrinkingIt) {
  ScratchDir dir;
  const std::string cluster = dir.write("cluster.json", CraftedCluster{}.to_json());  // 8 GPUs
  const std::string trace = dir.write("t.csv", kPhillyHeader +
                                                   "2017-10-09 07:00:00,60,2,120,vcA\n"
                                                   "2017-10-09 07:01:00,60,16,960,vcA\n");
  const GcsimRun run = run_simulation(cluster, "philly:" + trace, dir / "out", {"--trace-opt", "gpu_type=GPU"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("(id 'philly-3'): field 'gpus': needs 16 GPUs, cluster 'crafted' has 8"), std::string::npos)
      << run.err;
  EXPECT_TRUE(files_in(dir / "out").empty());
}

TEST(TraceCommand, NativeToSwfToNativeKeepsEveryJob) {
  ScratchDir dir;
  auto job = [](const std::string& id, double submit, int gpus, double seconds, const std::string& user,
                const std::string& queue) {
    nlohmann::json j = measured_job(id, submit, gpus, seconds);
    j["user"] = user;
    j["queue"] = queue;
    return j;
  };
  const std::string workload =
      dir.write("w.json", workload_json({job("a", 0, 2, 3600.5, "alice", "research"),
                                         job("b", 12.25, 8, 60, "bob", "prod"), job("c", 5, 1, 7, "alice", "prod")}));
  const GcsimRun to_swf =
      run_gcsim({"trace", "convert", workload, "--format", "native", "--to", "swf", "--out", dir / "w.swf"});
  ASSERT_EQ(to_swf.exit_code, 0) << to_swf.err;
  const GcsimRun back = run_gcsim({"trace", "convert", dir / "w.swf", "--format", "swf", "--gpu-type", "GPU", "--to",
                                   "native", "--out", dir / "back.json"});
  ASSERT_EQ(back.exit_code, 0) << back.err;
  const nlohmann::json jobs = nlohmann::json::parse(read_text(dir / "back.json"))["jobs"];
  ASSERT_EQ(jobs.size(), 3u);
  // In submit order: a, c, b.
  const std::vector<std::tuple<double, int, double, std::string, std::string>> expected = {
      {0, 2, 3600.5, "alice", "research"}, {5, 1, 7, "alice", "prod"}, {12.25, 8, 60, "bob", "prod"}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto& [submit, gpus, seconds, user, queue] = expected[i];
    EXPECT_EQ(jobs[i]["submit"].get<double>(), submit);
    EXPECT_EQ(jobs[i]["gpus"], gpus);
    EXPECT_EQ(jobs[i]["duration"]["seconds"].get<double>(), seconds);
    EXPECT_EQ(jobs[i]["duration"]["gpu_type"], "GPU");
    EXPECT_EQ(jobs[i]["user"], user);
    EXPECT_EQ(jobs[i]["queue"], queue);
  }
}

TEST(TraceCommand, APaiFolderConvertsIntoAWorkloadAndAClusterThatRunTogether) {
  ScratchDir dir;
  std::filesystem::create_directories(dir / "pai");
  dir.write("pai/pai_task_table.csv",
            "j1,worker,2.0,Terminated,100.0,400.0,600.0,29.3,50.0,T4\n"
            "j2,worker,1.0,Terminated,150.0,250.0,800.0,8.0,800.0,V100M32\n"
            "j3,worker,1.0,Running,150.0,,800.0,8.0,100.0,V100M32\n");  // running when the log was cut
  dir.write("pai/pai_machine_spec.csv", "m1,V100M32,96,384,8\nm2,T4,96,512,2\nm3,CPU,96,512,0\n");
  const GcsimRun convert = run_gcsim({"trace", "convert", dir / "pai", "--format", "pai", "--to", "native", "--out",
                                      dir / "w.json", "--cluster-out", dir / "cluster.json"});
  ASSERT_EQ(convert.exit_code, 0) << convert.err;
  EXPECT_NE(convert.out.find("1 CPU-only machines are left out"), std::string::npos) << convert.out;
  const GcsimRun run = run_simulation(dir / "cluster.json", dir / "w.json", dir / "out", {"--no-wall-time"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs.at("j1").gpus, 2);  // two half-GPU instances, each given a whole GPU
  EXPECT_EQ(jobs.at("j2").gpus, 8);
  EXPECT_EQ(jobs.at("j3").gpus, 1);
  EXPECT_EQ(jobs.at("j3").uncontended, 400 - 150);  // censored: up to the log's last time, j1's end
}

TEST(TraceCommand, CommandLineMistakesExitWithStatus2) {
  ScratchDir dir;
  const std::string trace = dir.write("t.csv", kPhillyHeader + "2017-10-09 07:00:00,60,2,120,vcA\n");
  EXPECT_EQ(run_gcsim({"trace", "stats", trace, "--format", "phily"}).exit_code, 2);
  EXPECT_EQ(run_gcsim({"trace", "stats", "--format", "philly"}).exit_code, 2);
  EXPECT_EQ(run_gcsim({"trace", "histogram", trace, "--format", "philly"}).exit_code, 2);
  EXPECT_EQ(run_gcsim({"trace", "convert", trace, "--format", "philly", "--to", "xml", "--out", dir / "x"}).exit_code,
            2);
  EXPECT_EQ(run_gcsim({"trace", "stats", trace, "--format", "csv"}).exit_code, 2);
  EXPECT_EQ(run_gcsim({"trace", "stats", trace, "--format", "csv", "--map", "submit=timestamp,gpu=num_gpus"}).exit_code,
            2);
  const GcsimRun missing = run_gcsim({"trace", "stats", dir / "nowhere.csv", "--format", "philly"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("nowhere.csv"), std::string::npos) << missing.err;
}

// ---- fitted generators ----------------------------------------------------------------------

/// A Philly-format trace of `days` days, 200 jobs a day from 08:00 every 3 minutes:
/// GPU counts 1, 1, 1, 2, 4, 8 in turn, run times 30 s x (1 + k % 50), two VCs.
std::string crafted_philly(int days) {
  std::string text = kPhillyHeader;
  char line[128];
  for (int day = 0; day < days; ++day)
    for (int k = 0; k < 200; ++k) {
      const int minutes = 8 * 60 + 3 * k;
      const int gpus[] = {1, 1, 1, 2, 4, 8};
      const int g = gpus[k % 6];
      const double seconds = 30.0 * (1 + k % 50);
      std::snprintf(line, sizeof line, "2017-10-%02d %02d:%02d:00,%.1f,%d,%.1f,%s\n", 1 + day, minutes / 60,
                    minutes % 60, seconds, g, seconds * g, k % 3 == 0 ? "vcB" : "vcA");
      text += line;
    }
  return text;
}

TEST(TraceCommand, FitWritesAGeneratorAReportAndASyntheticTraceThatSynthRedrawsExactly) {
  ScratchDir dir;
  const std::string trace = dir.write("philly.csv", crafted_philly(20));
  const GcsimRun fit =
      run_gcsim({"trace", "fit", trace, "--format", "philly", "--gpu-type", "GPU", "--out", dir / "gen.json",
                 "--report", dir / "report.md", "--synthetic-out", dir / "syn.json"});
  ASSERT_EQ(fit.exit_code, 0) << fit.err;
  EXPECT_NE(fit.out.find("4000 jobs fitted"), std::string::npos) << fit.out;
  EXPECT_NE(fit.out.find("PASS  GPU-count shares within max(5% relative, 1 point absolute)"), std::string::npos)
      << fit.out;
  EXPECT_NE(fit.out.find("PASS  mean inter-arrival within 5%"), std::string::npos) << fit.out;
  const nlohmann::json generator = nlohmann::json::parse(read_text(dir / "gen.json"));
  EXPECT_EQ(generator["generator"], "gcsim fitted workload");
  EXPECT_EQ(generator["gpu_type"], "GPU");
  EXPECT_DOUBLE_EQ(generator["gpu_counts"]["1"].get<double>(), 101.0 / 200);  // k % 6 in {0, 1, 2} of k < 200
  EXPECT_EQ(generator["arrivals"]["first_submit_time_of_day"], 8 * 3600);
  const std::string report = read_text(dir / "report.md");
  for (const char* section : {"| mean inter-arrival |", "## GPUs per job", "## run time", "| p99 |",
                              "## submissions by hour of day", "| 08:00 |", "## queues"})
    EXPECT_NE(report.find(section), std::string::npos) << section << "\n" << report;
  EXPECT_EQ(nlohmann::json::parse(read_text(dir / "syn.json"))["jobs"].size(), 4000u);

  // synth: the same file for the same seed, another for another seed; it runs.
  for (const char* name : {"a.json", "b.json"})
    ASSERT_EQ(
        run_gcsim({"trace", "synth", dir / "gen.json", "--jobs", "300", "--seed", "9", "--out", dir / name}).exit_code,
        0);
  EXPECT_EQ(read_text(dir / "a.json"), read_text(dir / "b.json"));
  ASSERT_EQ(run_gcsim({"trace", "synth", dir / "gen.json", "--jobs", "300", "--seed", "10", "--out", dir / "c.json"})
                .exit_code,
            0);
  EXPECT_NE(read_text(dir / "a.json"), read_text(dir / "c.json"));
  const nlohmann::json jobs = nlohmann::json::parse(read_text(dir / "a.json"))["jobs"];
  ASSERT_EQ(jobs.size(), 300u);
  EXPECT_EQ(jobs[0]["id"], "fit-0001");
  CraftedCluster cluster;
  cluster.nodes = 4;
  const std::string cluster_file = dir.write("cluster.json", cluster.to_json());
  const GcsimRun run = run_simulation(cluster_file, dir / "a.json", dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(read_jobs_csv(dir / "out").size(), 300u);
}

TEST(TraceCommand, FitOnTheRealPhillyLogReproducesItsGpuSharesAndMeanInterarrival) {
  const std::string path = real_trace("philly/philly_jobs_pollux.csv");
  SKIP_UNLESS_PRESENT(path);
  ScratchDir dir;
  const GcsimRun fit = run_gcsim({"trace", "fit", path, "--format", "philly", "--out", dir / "gen.json"});
  ASSERT_EQ(fit.exit_code, 0) << fit.err;
  EXPECT_NE(fit.out.find("82247 jobs fitted"), std::string::npos) << fit.out;
  EXPECT_NE(fit.out.find("PASS  GPU-count shares"), std::string::npos) << fit.out;
  EXPECT_NE(fit.out.find("PASS  mean inter-arrival within 5%"), std::string::npos) << fit.out;
}

TEST(TraceCommand, FitAndSynthMistakes) {
  ScratchDir dir;
  const std::string trace = dir.write("t.csv", kPhillyHeader + "2017-10-09 07:00:00,60,2,120,vcA\n");
  const GcsimRun one = run_gcsim({"trace", "fit", trace, "--format", "philly", "--out", dir / "g.json"});
  EXPECT_EQ(one.exit_code, 1);
  EXPECT_NE(one.err.find("at least two jobs"), std::string::npos) << one.err;
  const std::string bad = dir.write("bad.json", R"({"generator": "gcsim fitted workload", "version": 1})");
  const GcsimRun synth = run_gcsim({"trace", "synth", bad, "--out", dir / "w.json"});
  EXPECT_EQ(synth.exit_code, 1);
  EXPECT_NE(synth.err.find("bad.json"), std::string::npos) << synth.err;
  EXPECT_EQ(run_gcsim({"trace", "synth", "--out", dir / "w.json"}).exit_code, 2);
}

// ---- work from throughput tables -------------------------------------------------------------

/// One node of 4 GPUs of type `type` at 1e12 FLOP/s.
std::string one_type_cluster(const std::string& type) {
  return R"({"name": "one-)" + type + R"(", "gpu_types": [{"name": ")" + type +
         R"(", "flops": 1e12, "memory": "16GB"}],
  "node_groups": [{"name": "n", "count": 1, "gpus_per_node": 4, "gpu_type": ")" +
         type + R"(", "cpu_cores": 8, "memory": "64GB",
    "intra_node": {"kind": "pcie", "bandwidth": "15GB/s", "latency": "5us"}, "nic": {"bandwidth": "10Gbps", "latency": "5us"}}]})";
}

TEST(TraceCommand, RunWithAThroughputTableSaysSoAndRunsAtTheTablesSpeedOnTheClustersType) {
  ScratchDir dir;
  // Model m: 10 iterations/s on V100, 2 on K80; n: 1 GPU only, 4 on both.
  const std::string table =
      dir.write("tput.json",
                R"j({"v100": {"('m', 1)": {"null": 10}, "('m', 2)": {"null": 16}, "('n', 1)": {"null": 4}},
           "k80": {"('m', 1)": {"null": 2}, "('m', 2)": {"null": 3}, "('n', 1)": {"null": 4}}})j");
  // Recorded on V100 (the default gpu_type): 100 s of m on 1 GPU, 100 s of m on 2, 50 s of n on 2.
  const std::string trace = dir.write("jobs.csv", "submit,gpus,duration,model\n0,1,100,m\n0,2,100,m\n0,2,50,n\n");
  const std::string cluster = dir.write("k80.json", one_type_cluster("K80"));
  const std::vector<std::string> settings = {"--trace-opt",
                                             "map=submit=submit,gpus=gpus,duration=duration,job_type=model",
                                             "--trace-opt", "work=throughput:gavel:" + table};
  const GcsimRun run = run_simulation(cluster, "csv:" + trace, dir / "out", settings);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("gcsim: work: throughput table gavel (" + table + "): 3 jobs as training"), std::string::npos)
      << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  EXPECT_NEAR(jobs.at("csv-2").end - jobs.at("csv-2").start, 500, 1e-6);  // 1000 iterations at 2/s
  EXPECT_NEAR(jobs.at("csv-3").end - jobs.at("csv-3").start, 100 * 16 / 3.0, 1e-6);
  EXPECT_NEAR(jobs.at("csv-4").end - jobs.at("csv-4").start, 50 * 8 / 8.0, 1e-6);  // n, 2 GPUs: 4 x 2 on both

  // trace stats says the same, and keeps the recorded figures.
  const GcsimRun stats = run_gcsim({"trace", "stats", trace, "--format", "csv", "--map",
                                    "submit=submit,gpus=gpus,duration=duration,job_type=model", "--cluster", cluster,
                                    "--work", "throughput:gavel:" + table});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_NE(stats.out.find("work          throughput table gavel"), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("3 jobs"), std::string::npos) << stats.out;
}

TEST(TraceCommand, ThroughputWorkMistakesExitWithStatus2) {
  ScratchDir dir;
  const std::string trace = dir.write("t.csv", kPhillyHeader + "2017-10-09 07:00:00,60,2,120,vcA\n");
  const std::string table = dir.write("tput.json", R"j({"v100": {"('m', 1)": {"null": 10}}})j");
  const std::string cluster = dir.write("v100.json", one_type_cluster("V100"));
  const auto run = [&](std::vector<std::string> settings) {
    std::vector<std::string> args = {"run",      "--cluster", cluster, "--workload", "philly:" + trace,
                                     "--policy", "fifo",      "--out", dir / "out"};
    for (const std::string& setting : settings) args.insert(args.end(), {"--trace-opt", setting});
    return run_gcsim(args);
  };
  EXPECT_EQ(run({"work=throughput:nope:" + table}).exit_code, 2);
  EXPECT_EQ(run({"job_type=m"}).exit_code, 2);  // without a table
  const GcsimRun untyped = run({"work=throughput:gavel:" + table});
  EXPECT_EQ(untyped.exit_code, 2);
  EXPECT_NE(untyped.err.find("records no job type"), std::string::npos) << untyped.err;
  EXPECT_EQ(run({"work=throughput:gavel:" + table, "job_type=resnet"}).exit_code, 2);
  EXPECT_EQ(run({"work=throughput:gavel:" + table, "job_type=m"}).exit_code, 0);
  EXPECT_EQ(run_gcsim({"trace", "stats", trace, "--format", "philly", "--work", "throughput:gavel:" + table,
                       "--job-type", "m"})
                .exit_code,
            2);  // no --cluster
}

// ---- the Philly virtual clusters ---------------------------------------------------------

TEST(TraceCommand, ThePhillyVcClusterHasANodeGroupOfEightGpuNodesPerVc) {
  const std::string vcs = real_trace("philly/philly_vc_nodes.csv");
  SKIP_UNLESS_PRESENT(vcs);
  const nlohmann::json cluster =
      nlohmann::json::parse(read_text(std::string(GCSIM_SOURCE_DIR) + "/scenarios/clusters/philly-vcs.json"));
  std::map<std::string, int> groups;
  for (const auto& group : cluster["node_groups"]) {
    groups[group["name"].get<std::string>()] = group["count"].get<int>();
    EXPECT_EQ(group["gpus_per_node"], 8);
  }
  std::map<std::string, int> in_file;
  for (const std::string& line : lines_of(vcs)) {
    if (line.empty() || line.rfind("vc,", 0) == 0) continue;
    const auto f = split(line, ',');
    in_file["vc-" + f[0]] = std::stoi(f[1]);
  }
  EXPECT_EQ(groups, in_file);
}

TEST(TraceCommand, TheWholePhillyLogReplaysUnderFifoOnThePhillyVcs) {
  const std::string path = real_trace("philly/philly_jobs_pollux.csv");
  SKIP_UNLESS_PRESENT(path);
  ScratchDir dir;
  const GcsimRun run = run_simulation(std::string(GCSIM_SOURCE_DIR) + "/scenarios/clusters/philly-vcs.json",
                                      "philly:" + path, dir / "out", {"--no-wall-time"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_EQ(summary["jobs"]["total"], 82247);
  EXPECT_EQ(summary["jobs"]["finished"], 82247);
  EXPECT_NE(run.err.find("gcsim: work: recorded run time"), std::string::npos) << run.err;
}

TEST(TraceCommand, ThePhillyVcClusterHasTheNodesOfTheBundledVcTable) {
  const nlohmann::json cluster =
      nlohmann::json::parse(read_text(std::string(GCSIM_SOURCE_DIR) + "/scenarios/clusters/philly-vcs.json"));
  std::map<std::string, int> groups;
  for (const auto& group : cluster["node_groups"]) groups[group["name"].get<std::string>()] = group["count"].get<int>();
  // traces/excerpts/philly/philly_vc_nodes.csv, row by row.
  EXPECT_EQ(groups, (std::map<std::string, int>{{"vc-6214e9", 64},
                                                {"vc-7f04ca", 32},
                                                {"vc-11cb48", 16},
                                                {"vc-b436b2", 64},
                                                {"vc-ee9e8c", 64},
                                                {"vc-e13805", 16},
                                                {"vc-6c71a0", 32},
                                                {"vc-2869ce", 16},
                                                {"vc-ed69ec", 8},
                                                {"vc-103959", 8},
                                                {"vc-0e4a51", 32}}));
}

TEST(TraceCommand, TheBundledPhillyExcerptReplaysUnderFifoOnThePhillyVcs) {
  ScratchDir dir;
  const GcsimRun run = run_simulation(std::string(GCSIM_SOURCE_DIR) + "/scenarios/clusters/philly-vcs.json",
                                      "philly:" + bundled_excerpt("philly/philly_jobs_pollux.first400.csv"),
                                      dir / "out", {"--no-wall-time"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json summary = read_summary(dir / "out");
  EXPECT_EQ(summary["jobs"]["total"], 400);
  EXPECT_EQ(summary["jobs"]["finished"], 400);
}

// ---- compare ------------------------------------------------------------------------------

TEST(TraceCommand, CompareReplaysATraceWithItsSettingsUnderEachPolicy) {
  ScratchDir dir;
  const std::string trace = dir.write("philly.csv", crafted_philly(2));
  CraftedCluster crafted;
  crafted.nodes = 2;
  const std::string cluster = dir.write("cluster.json", crafted.to_json());
  const GcsimRun compare =
      run_gcsim({"compare", "--policies", "fifo,gang", "--cluster", cluster, "--workload", "philly:" + trace,
                 "--trace-opt", "gpu_type=GPU", "--trace-opt", "until=1d", "--out", dir / "cmp", "--plots", "no"});
  ASSERT_EQ(compare.exit_code, 0) << compare.err << compare.out;
  EXPECT_NE(compare.out.find("selected window [start, 86400 s): 200 of 400 jobs kept"), std::string::npos)
      << compare.out;
  for (const char* policy : {"fifo", "gang"}) EXPECT_EQ(read_jobs_csv(dir / "cmp/runs/" + policy).size(), 200u);
  const std::string table = read_text(dir / "cmp/comparison.csv");
  EXPECT_NE(table.find("\nfifo,"), std::string::npos) << table;
  EXPECT_NE(table.find("\ngang,"), std::string::npos) << table;
  // A native workload still rejects trace settings.
  const std::string native = dir.write("w.json", workload_json({measured_job("a", 0, 1, 10)}));
  EXPECT_EQ(run_gcsim({"compare", "--policies", "fifo", "--cluster", cluster, "--workload", native, "--trace-opt",
                       "until=1d", "--out", dir / "cmp2", "--plots", "no"})
                .exit_code,
            2);
}

}  // namespace
}  // namespace gcsim::testing
