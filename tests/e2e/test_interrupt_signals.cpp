// SIGINT or SIGTERM during `gcsim run` or `gcsim compare` stops the
// simulation where it is and writes its outputs, marked partial, all at once
// (exit status 15); a second signal ends gcsim at once, leaving no
// half-written or temporary file. Each test waits for the run to be under
// way (its progress line, or the run's process catching the signals) before
// signalling it.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {
namespace fs = std::filesystem;

constexpr int kInterrupted = 15;
constexpr int kJobs = 2000;

class Interrupt : public ::testing::Test {
 protected:
  // A run long enough to be signalled mid-run: 2000 synthetic jobs,
  // simulated iteration by iteration (hours of wall time to its end).
  static void SetUpTestSuite() {
    workload_dir_ = new ScratchDir;
    const GcsimRun synth = run_gcsim({"synth", "--jobs", std::to_string(kJobs), "--seed", "3", "--cluster", cluster(),
                                      "--out", *workload_dir_ / "big.json"});
    ASSERT_EQ(synth.exit_code, 0) << synth.err;
  }
  static void TearDownTestSuite() {
    delete workload_dir_;
    workload_dir_ = nullptr;
  }
  static std::string cluster() { return scenario("clusters/rack-32gpu.json"); }
  static std::string workload() { return *workload_dir_ / "big.json"; }

  static std::vector<std::string> run_args(const std::string& out_dir) {
    return {"run",       "--cluster", cluster(), "--workload", workload(),   "--policy", "fifo",          "--fidelity",
            "iteration", "--out",     out_dir,   "--quiet",    "--progress", "always",   "--no-wall-time"};
  }

  static ScratchDir* workload_dir_;
};
ScratchDir* Interrupt::workload_dir_ = nullptr;

// The first progress report comes after half a second of simulating; the
// run is then under way, and this one still has most of its jobs to go.
void wait_until_under_way(BackgroundGcsim& run) {
  ASSERT_TRUE(run.wait_for_error_output("gcsim: simulated ")) << run.err();
  ASSERT_EQ(run.err().find("done in"), std::string::npos) << "the run ended before it could be signalled";
}

bool hidden(const std::string& name) { return !name.empty() && name[0] == '.'; }

std::size_t lines_of(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// The three files of a run, each whole: summary.json parses, jobs.csv has a
// row per job, every file ends its last line.
void expect_whole_run_outputs(const std::string& out_dir, std::size_t jobs) {
  std::vector<std::string> names = files_in(out_dir);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"jobs.csv", "summary.json", "timeline.csv"}));
  for (const std::string& name : names) {
    const std::string text = read_text(out_dir + "/" + name);
    ASSERT_FALSE(text.empty()) << name;
    EXPECT_EQ(text.back(), '\n') << name;
  }
  EXPECT_NO_THROW(read_summary(out_dir));
  EXPECT_EQ(lines_of(read_text(out_dir + "/jobs.csv")), jobs + 1);
}

TEST_F(Interrupt, SigintWritesPartialOutputsAtOnceAndEndsWithStatus15) {
  ScratchDir dir;
  BackgroundGcsim run(run_args(dir / "out"));
  wait_until_under_way(run);
  run.send(SIGINT);
  ASSERT_EQ(run.wait(), kInterrupted) << run.err();
  EXPECT_NE(run.err().find("SIGINT"), std::string::npos) << run.err();

  expect_whole_run_outputs(dir / "out", kJobs);
  const nlohmann::json summary = read_summary(dir / "out");
  ASSERT_TRUE(summary.contains("partial")) << summary.dump();
  const nlohmann::json& partial = summary["partial"];
  EXPECT_EQ(partial["signal"], "SIGINT");
  const double stopped_at = partial["simulated_time_s"].get<double>();
  EXPECT_GT(stopped_at, 0);
  EXPECT_DOUBLE_EQ(summary["simulated_time_s"].get<double>(), stopped_at);
  // What finished is counted as usual; the jobs under way at the stop are censored there.
  EXPECT_EQ(partial["jobs_finished"], summary["jobs"]["finished"]);
  EXPECT_EQ(summary["jct_s"]["count"], summary["jobs"]["finished"]);
  EXPECT_LT(summary["jobs"]["finished"].get<int>(), kJobs);
  EXPECT_EQ(partial["jobs_finished"].get<int>() + partial["jobs_running_or_waiting"].get<int>() +
                partial["jobs_not_submitted"].get<int>() + summary["jobs"]["failed"].get<int>(),
            kJobs);
  ASSERT_GT(partial["jobs_running_or_waiting"].get<int>(), 0);
  EXPECT_EQ(summary["jct_s_censored"]["count"].get<int>(),
            summary["jobs"]["finished"].get<int>() + partial["jobs_running_or_waiting"].get<int>());
  EXPECT_LE(summary["jct_s_censored"]["max"].get<double>(), stopped_at);
}

TEST_F(Interrupt, SigtermStopsTheRunTheSameWay) {
  ScratchDir dir;
  BackgroundGcsim run(run_args(dir / "out"));
  wait_until_under_way(run);
  run.send(SIGTERM);
  ASSERT_EQ(run.wait(), kInterrupted) << run.err();
  expect_whole_run_outputs(dir / "out", kJobs);
  EXPECT_EQ(read_summary(dir / "out")["partial"]["signal"], "SIGTERM");
}

TEST_F(Interrupt, ASecondSignalEndsAtOnceWithNoHalfWrittenFile) {
  ScratchDir dir;
  BackgroundGcsim run(run_args(dir / "out"));
  wait_until_under_way(run);
  run.send(SIGINT);
  run.send(SIGINT);
  const int status = run.wait();
  // Either the second signal ended it (128 + SIGINT) and nothing is written,
  // or the outputs were all in place before it came.
  if (status == 128 + SIGINT) {
    EXPECT_TRUE(files_in(dir / "out").empty()) << files_in(dir / "out").front();
  } else {
    ASSERT_EQ(status, kInterrupted) << run.err();
    expect_whole_run_outputs(dir / "out", kJobs);
  }
}

TEST_F(Interrupt, ASecondSignalWhileTheOutputsAreWrittenLeavesNoTemporaryFile) {
  // The second signal comes once the first has stopped the run, while it
  // writes (the progress line's last report is printed just before).
  ScratchDir dir;
  BackgroundGcsim run(run_args(dir / "out"));
  wait_until_under_way(run);
  run.send(SIGINT);
  ASSERT_TRUE(run.wait_for_error_output("done in")) << run.err();
  run.send(SIGINT);
  const int status = run.wait();
  const std::vector<std::string> names = files_in(dir / "out");
  for (const std::string& name : names) EXPECT_FALSE(hidden(name)) << name;
  if (status == 128 + SIGINT) {
    EXPECT_TRUE(names.empty() || names.size() == 3u);
    if (!names.empty()) expect_whole_run_outputs(dir / "out", kJobs);
  } else {
    ASSERT_EQ(status, kInterrupted) << run.err();
    expect_whole_run_outputs(dir / "out", kJobs);
  }
}

TEST(LeftoverTemporaries, ARunRemovesThoseAProcessNoLongerRunningLeftBehind) {
  // As a run killed (SIGKILL) while writing leaves them: ".NAME.tmpPID".
  ScratchDir dir;
  fs::create_directories(dir / "out");
  const std::string gone = dir.write("out/.summary.json.tmp999999999", "{\"half\": ");
  const std::string live = dir.write("out/.jobs.csv.tmp" + std::to_string(::getpid()), "id,");  // its process runs
  const std::string other = dir.write("out/.notes.tmp999999999", "not gcsim's");
  const GcsimRun run =
      run_simulation(scenario("clusters/rack-32gpu.json"), scenario("workloads/default.json"), dir / "out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_FALSE(fs::exists(gone));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(other));
}

TEST(InterruptOneLongJob, StopsMidJobWithTheJobCensoredAtTheStop) {
  // One job of three million iterations, simulated one by one: the
  // scheduler sleeps until its end, its runner sees the signal.
  ScratchDir dir;
  const auto workload = dir.write("long.json", workload_json({training_job("long", 0, 8, 1e9, 1e6, 3000000)}));
  BackgroundGcsim run({"run", "--cluster", scenario("clusters/rack-32gpu.json"), "--workload", workload, "--policy",
                       "fifo", "--fidelity", "iteration", "--out", dir / "out", "--quiet", "--progress", "always"});
  wait_until_under_way(run);
  run.send(SIGINT);
  ASSERT_EQ(run.wait(), kInterrupted) << run.err();
  expect_whole_run_outputs(dir / "out", 1);
  const nlohmann::json summary = read_summary(dir / "out");
  const double stopped_at = summary["partial"]["simulated_time_s"].get<double>();
  EXPECT_GT(stopped_at, 0);
  EXPECT_EQ(summary["partial"]["jobs_running_or_waiting"], 1);
  EXPECT_EQ(read_jobs_csv(dir / "out").at("long").state, "running");
  EXPECT_DOUBLE_EQ(summary["jct_s_censored"]["max"].get<double>(), stopped_at);
  EXPECT_DOUBLE_EQ(summary["queueing_delay_s_censored"]["max"].get<double>(), 0);
}

// The pid of a child `gcsim run` of `parent` that catches SIGINT (its
// handler installed: past reading its inputs), or 0.
pid_t catching_child_of(pid_t parent) {
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string command_line = read_text((entry.path() / "cmdline").string());
    if (command_line.find(std::string("\0run\0", 5)) == std::string::npos) continue;
    std::ifstream status(entry.path() / "status");
    std::string line;
    pid_t ppid = -1;
    unsigned long long caught = 0;
    while (std::getline(status, line)) {
      if (line.rfind("PPid:", 0) == 0) ppid = std::stoi(line.substr(5));
      if (line.rfind("SigCgt:", 0) == 0) caught = std::stoull(line.substr(7), nullptr, 16);
    }
    if (ppid == parent && (caught & (1ULL << (SIGINT - 1))) != 0) return std::stoi(name);
  }
  return 0;
}

TEST_F(Interrupt, CompareWritesTheComparisonOfWhatRanMarkedPartial) {
  ScratchDir dir;
  BackgroundGcsim compare({"compare", "--policies", "fifo,srtf", "--cluster", cluster(), "--workload", workload(),
                           "--fidelity", "iteration", "--out", dir / "out", "--plots", "no", "--quiet"});
  // Poll for the first run's process to be simulating (it catches SIGINT once its inputs are read).
  while (compare.running() && catching_child_of(compare.pid()) == 0) ::usleep(20000);
  if (!compare.running()) FAIL() << "compare ended before its first run: " << compare.wait() << " " << compare.err();
  compare.send(SIGINT);
  ASSERT_EQ(compare.wait(), kInterrupted) << compare.err();

  expect_whole_run_outputs(dir / "out/runs/fifo", kJobs);
  EXPECT_TRUE(read_summary(dir / "out/runs/fifo").contains("partial"));
  EXPECT_TRUE(files_in(dir / "out/runs/srtf").empty());
  std::vector<std::string> names = files_in(dir / "out");
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"comparison.csv", "comparison.md", "partial.json", "runs"}));
  const nlohmann::json partial = nlohmann::json::parse(read_text(dir / "out/partial.json"));
  EXPECT_EQ(partial["signal"], "SIGINT");
  EXPECT_EQ(partial["policy_partial"], "fifo");
  EXPECT_EQ(partial["policies_not_run"], nlohmann::json::array({"srtf"}));
  const std::string csv = read_text(dir / "out/comparison.csv");
  EXPECT_EQ(lines_of(csv), 2u) << csv;  // the header and fifo's row
  EXPECT_EQ(csv.find("\nsrtf,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",signal,"), std::string::npos) << csv;  // fifo's row: stopped by the signal
  EXPECT_EQ(read_text(dir / "out/comparison.md").rfind("Partial: SIGINT", 0), 0u);
}

// Whether process `pid` has ended (gone, or a zombie nobody reaped yet).
bool ended(pid_t pid) {
  const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
  const std::size_t after_name = stat.rfind(')');
  return after_name == std::string::npos || stat.compare(after_name, 3, ") Z") == 0;
}

TEST_F(Interrupt, CompareKilledStopsItsRunWhichWritesItsPartialOutputs) {
  ScratchDir dir;
  BackgroundGcsim compare({"compare", "--policies", "fifo,srtf", "--cluster", cluster(), "--workload", workload(),
                           "--fidelity", "iteration", "--out", dir / "out", "--plots", "no", "--quiet"});
  pid_t run = 0;
  while (compare.running() && (run = catching_child_of(compare.pid())) == 0) ::usleep(20000);
  if (run == 0) FAIL() << "compare ended before its first run: " << compare.wait() << " " << compare.err();
  compare.send(SIGKILL);
  EXPECT_EQ(compare.wait(), 128 + SIGKILL);
  // The run, in a process group of its own, gets SIGTERM when compare ends.
  while (!ended(run)) ::usleep(20000);
  expect_whole_run_outputs(dir / "out/runs/fifo", kJobs);
  EXPECT_EQ(read_summary(dir / "out/runs/fifo")["partial"]["signal"], "SIGTERM");
}

}  // namespace
}  // namespace gcsim::testing
