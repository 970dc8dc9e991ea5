// `gcsim compare` runs each policy as its own `gcsim run`, tabulates what the
// runs wrote without changing a figure, adds fairness and fragmentation
// figures that can be checked by hand (capacity queues' guarantee attainment
// among them), reports a deadlocked run or one stopped as a livelock instead
// of failing, shows a run's notice on work its preemptions threw away, rejects bad policy
// lists before running anything, and draws plots when a Python with
// matplotlib is at hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {
namespace fs = std::filesystem;

// One node of four GPUs. Four one-GPU jobs end at 60, 120, 180 and 240 s;
// two four-GPU jobs of 1200 s arrive at 30 and 40 s. Gang scheduling (and
// FIFO) run train-a 240-1440 and train-b 1440-2640; the piecemeal baseline
// hands each freed GPU to one of them and deadlocks at 240 s.
struct DeadlockScenario {
  ScratchDir dir;
  std::string cluster, workload;
  DeadlockScenario() {
    CraftedCluster c;
    c.gpus_per_node = 4;
    cluster = dir.write("cluster.json", c.to_json());
    auto with_user = [](nlohmann::json job, const std::string& user) {
      job["user"] = user;
      return job;
    };
    workload = dir.write("workload.json", workload_json({with_user(measured_job("short-1", 0, 1, 60), "carol"),
                                                         with_user(measured_job("short-2", 0, 1, 120), "carol"),
                                                         with_user(measured_job("short-3", 0, 1, 180), "carol"),
                                                         with_user(measured_job("short-4", 0, 1, 240), "carol"),
                                                         with_user(measured_job("train-a", 30, 4, 1200), "alice"),
                                                         with_user(measured_job("train-b", 40, 4, 1200), "bob")}));
  }
  GcsimRun compare(const std::string& policies, const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> args{"compare",    "--policies", policies, "--cluster", cluster,
                                  "--workload", workload,     "--out",  dir / "cmp", "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_gcsim(args);
  }
};

/// comparison.csv as one column-name-to-text map per row (no quoted fields in it here).
std::vector<std::map<std::string, std::string>> read_comparison(const std::string& dir) {
  std::istringstream in(read_text(dir + "/comparison.csv"));
  auto split = [](const std::string& line) {
    std::vector<std::string> fields;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) fields.push_back(cell);
    if (!line.empty() && line.back() == ',') fields.emplace_back();
    return fields;
  };
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> fields = split(line);
    std::map<std::string, std::string>& row = rows.emplace_back();
    for (std::size_t i = 0; i < header.size() && i < fields.size(); ++i) row[header[i]] = fields[i];
  }
  return rows;
}

double cell(const std::map<std::string, std::string>& row, const std::string& column) {
  return std::stod(row.at(column));
}

bool is_png(const std::string& path) { return read_text(path).rfind("\x89PNG", 0) == 0; }

/// Sets an environment variable for the lifetime of the object (children inherit it).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(Compare, WritesOneRowPerPolicyEqualToEachRunsSummary) {
  const DeadlockScenario s;
  const GcsimRun run = s.compare("fifo,gang,piecemeal", {"--plots", "no"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_comparison(s.dir / "cmp");
  ASSERT_EQ(rows.size(), 3u);
  const std::vector<std::string> policies{"fifo", "gang", "piecemeal"};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    SCOPED_TRACE(policies[i]);
    const auto& row = rows[i];
    EXPECT_EQ(row.at("policy"), policies[i]);
    const nlohmann::json summary = read_summary(s.dir / ("cmp/runs/" + policies[i]));
    EXPECT_EQ(summary["policy"], policies[i]);
    EXPECT_EQ(cell(row, "jobs"), summary["jobs"]["total"].get<double>());
    EXPECT_EQ(cell(row, "finished"), summary["jobs"]["finished"].get<double>());
    EXPECT_EQ(cell(row, "unfinished"), summary["jobs"]["unfinished"].get<double>());
    for (const char* q : {"mean", "p50", "p95", "p99"}) {
      EXPECT_EQ(cell(row, std::string("jct_") + q + "_s"), summary["jct_s"][q].get<double>()) << q;
      EXPECT_EQ(cell(row, std::string("wait_") + q + "_s"), summary["queueing_delay_s"][q].get<double>()) << q;
    }
    EXPECT_EQ(cell(row, "makespan_s"), summary["makespan_s"].get<double>());
    EXPECT_EQ(cell(row, "gpu_util_allocated"), summary["gpu_utilization"]["allocated_share"].get<double>());
    EXPECT_EQ(cell(row, "gpu_util_busy"), summary["gpu_utilization"]["busy_share"].get<double>());
    EXPECT_EQ(cell(row, "preemptions"), summary["preemptions"]["count"].get<double>());
    EXPECT_EQ(cell(row, "lost_gpu_hours"), summary["preemptions"]["lost_gpu_hours"].get<double>());
    EXPECT_EQ(cell(row, "wall_time_s"), summary["wall_time_s"].get<double>());
    EXPECT_EQ(row.at("queue_guarantee_attainment"), "n/a");
  }
  const std::string md = read_text(s.dir / "cmp/comparison.md");
  for (const std::string& p : policies) EXPECT_NE(md.find("\n| " + p + " |"), std::string::npos) << md;
}

TEST(Compare, FairnessAndFragmentationMatchTheHandComputation) {
  const DeadlockScenario s;
  const GcsimRun run = s.compare("gang", {"--plots", "no"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto row = read_comparison(s.dir / "cmp").at(0);
  EXPECT_DOUBLE_EQ(cell(row, "makespan_s"), 2640);
  // From 60 s, 1, 2, then 3 GPUs are free for 60 s each while the big jobs
  // wait: 360 GPU-s over 4 GPUs * 2640 s.
  EXPECT_NEAR(cell(row, "fragmentation"), 360.0 / (4 * 2640), 1e-12);
  // Slowdowns: the short jobs 1; train-a (1440 - 30) / 1200; train-b (2640 - 40) / 1200.
  const double a = 1410.0 / 1200, b = 2600.0 / 1200;
  EXPECT_NEAR(cell(row, "ftf_rho_max"), b, 1e-9);
  EXPECT_NEAR(cell(row, "ftf_rho_mean"), (4 + a + b) / 6, 1e-9);
  // Users' mean slowdowns: alice a, bob b, carol 1.
  EXPECT_NEAR(cell(row, "jain_fairness_slowdown"), (a + b + 1) * (a + b + 1) / (3 * (a * a + b * b + 1)), 1e-9);
  EXPECT_EQ(row.at("deadlocks"), "0");
  EXPECT_EQ(row.at("deadlock_at_s"), "n/a");
}

TEST(Compare, ReadsBackJobsWhoseIdsAndUsersHoldCommasQuotesAndLineBreaks) {
  // One node of four GPUs, two four-GPU jobs of 100 s at time 0: the first
  // runs 0-100 s, the second 100-200 s. jobs.csv quotes their ids and users.
  ScratchDir dir;
  CraftedCluster c;
  c.gpus_per_node = 4;
  const std::string cluster = dir.write("cluster.json", c.to_json());
  nlohmann::json first = measured_job("train,1", 0, 4, 100), second = measured_job("eval\n\"2\"", 0, 4, 100);
  first["user"] = "alice, jr";
  second["user"] = "bob \"b\"\r\nsmith";
  const std::string workload = dir.write("workload.json", workload_json({first, second}));
  const GcsimRun run = run_gcsim({"compare", "--policies", "fifo", "--cluster", cluster, "--workload", workload,
                                  "--out", dir / "cmp", "--quiet", "--plots", "no"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_NE(read_text(dir / "cmp/runs/fifo/jobs.csv").find("\"eval\n\"\"2\"\"\""), std::string::npos);
  const auto row = read_comparison(dir / "cmp").at(0);
  EXPECT_EQ(cell(row, "jobs"), 2);
  // Slowdowns 1 (alice, jr) and 2 (bob): two users, Jain 3^2 / (2 * (1 + 4)).
  EXPECT_DOUBLE_EQ(cell(row, "ftf_rho_max"), 2);
  EXPECT_DOUBLE_EQ(cell(row, "ftf_rho_mean"), 1.5);
  EXPECT_DOUBLE_EQ(cell(row, "jain_fairness_slowdown"), 0.9);
  const std::map<std::string, JobRow> jobs = read_jobs_csv(dir / "cmp/runs/fifo");
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs.at("eval\n\"2\"").end, 200);
}

TEST(Compare, ADeadlockedRunIsReportedNotAFailure) {
  const DeadlockScenario s;
  const GcsimRun run = s.compare("piecemeal", {"--plots", "no"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("'piecemeal' ended in a deadlock"), std::string::npos) << run.err;
  const auto row = read_comparison(s.dir / "cmp").at(0);
  EXPECT_EQ(row.at("deadlocks"), "1");
  EXPECT_DOUBLE_EQ(cell(row, "deadlock_at_s"), 240);
  EXPECT_EQ(row.at("unfinished"), "2");
  EXPECT_EQ(row.at("stopped"), "deadlock");
  EXPECT_DOUBLE_EQ(cell(row, "stopped_at_s"), 240);
}

// docs/capacity-scheduler.md's worked example, compared: one 10-GPU node and
// yarn-two-queues.json (prod guaranteed 6 GPUs, research 4). Under capacity,
// research runs r1 0-1000 and r2 from 1; p1 (prod, 6 GPUs) waits 100-117,
// when r2 is preempted for it, runs 117-617; r2 runs again 617-1617.
//   root.prod: demand 6 during [100, 617), 0 held for 17 s, 6 for 500 s:
//     500 / 517.
//   root.research: r1 alone holds its 4 guaranteed GPUs while r2 waits
//     (jobs.csv counts r2 as running from its first start, which changes
//     nothing here): 1 over [0, 1617).
// fifo has no capacity queues: n/a.
// Two 4-GPU jobs, "a" and "b", at 100 s on the 4-GPU node. The planted
// ping-pong policy (tests/plugin/planted_policies.cpp) hands the node from
// one to the other at every call, a nanosecond apart: gcsim run stops it as
// a livelock once a has lost its GPUs 11 times, after 21 preemptions in all.
TEST(Compare, ARunStoppedAsALivelockIsReportedNotAFailure) {
  ScratchDir dir;
  CraftedCluster node;
  node.gpus_per_node = 4;
  const GcsimRun run =
      run_gcsim({"compare", "--policies", "fifo,ping-pong", "--plugin", GCSIM_PLANTED_POLICIES, "--cluster",
                 dir.write("cluster.json", node.to_json()), "--workload",
                 dir.write("jobs.json", workload_json({measured_job("a", 100, 4, 50), measured_job("b", 100, 4, 50)})),
                 "--out", dir / "cmp", "--quiet", "--plots", "no"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("gcsim compare: notice: policy 'ping-pong' was stopped as a livelock"), std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("livelock at t=100.000000 s"), std::string::npos) << run.err;
  const auto rows = read_comparison(dir / "cmp");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("preemptions"), "0");
  EXPECT_EQ(rows[1].at("policy"), "ping-pong");
  EXPECT_EQ(rows[1].at("preemptions"), "21");
  EXPECT_EQ(rows[0].at("stopped"), "none");
  EXPECT_EQ(rows[1].at("stopped"), "livelock");
  EXPECT_TRUE(read_summary(dir / "cmp/runs/ping-pong")["livelock"].is_object());
}

// 64 GPUs as 8 nodes of 8 V100, and ten jobs asking all 64, job ti submitted
// at i x 997 s, measured 30000 + 1300 i s, without checkpoints: fifo runs
// them one after the other; under tiresias' defaults they take turns, every
// run thrown away, and gcsim run stops it as thrashing with none finished
// (as tests/e2e/test_run_guards.cpp's TiresiasOnJobsAsLargeAsTheCluster...).
struct ThrashingScenario {
  ScratchDir dir;
  std::string cluster = dir.write("c64.json", R"({"name":"c64","gpu_types":[{"name":"V100","flops":"15.7TFLOPS",
    "memory":"32GB"}],"node_groups":[{"name":"dgx1","count":8,"gpus_per_node":8,"gpu_type":"V100","cpu_cores":40,
    "memory":"512GB","intra_node":{"kind":"nvlink","bandwidth":"150GB/s","latency":"2us"},
    "nic":{"bandwidth":"100Gbps","latency":"5us"}}],"fabric":{"nodes_per_rack":16,"oversubscription":2,
    "uplink_latency":"1us"}})");
  std::string workload;
  ThrashingScenario() {
    std::vector<nlohmann::json> jobs;
    for (int i = 0; i < 10; ++i)
      jobs.push_back({{"id", "t" + std::to_string(i)},
                      {"submit", i * 997},
                      {"gpus", 64},
                      {"duration", {{"seconds", 30000 + 1300 * i}, {"gpu_type", "V100"}}}});
    workload = dir.write("jobs.json", workload_json(jobs));
  }
};

TEST(Compare, ARunStoppedAsThrashingShowsWhyAndOverHowManyJobsItsFiguresGo) {
  const ThrashingScenario s;
  const GcsimRun run = run_gcsim({"compare", "--policies", "fifo,tiresias", "--cluster", s.cluster, "--workload",
                                  s.workload, "--out", s.dir / "cmp", "--quiet", "--plots", "no"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("gcsim compare: notice: policy 'tiresias' was stopped as thrashing (comparison.csv and "
                         ".md: the stopped and lost_share columns"),
            std::string::npos)
      << run.err;
  const auto rows = read_comparison(s.dir / "cmp");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("stopped"), "none");
  EXPECT_EQ(rows[0].at("stopped_at_s"), "n/a");
  EXPECT_EQ(rows[0].at("finished_jobs"), "10/10");
  EXPECT_EQ(cell(rows[0], "lost_share"), 0);
  const nlohmann::json summary = read_summary(s.dir / "cmp/runs/tiresias");
  EXPECT_EQ(rows[1].at("stopped"), "thrashing");
  EXPECT_EQ(cell(rows[1], "stopped_at_s"), summary["thrashing"]["detected_at_s"].get<double>());
  EXPECT_EQ(rows[1].at("finished_jobs"), "0/10");
  EXPECT_EQ(cell(rows[1], "lost_share"), summary["preemptions"]["lost_share"].get<double>());
  EXPECT_GT(cell(rows[1], "lost_share"), 0.9);  // nearly every run thrown away

  const std::string md = read_text(s.dir / "cmp/comparison.md");
  EXPECT_NE(md.find("\n| fifo | 10/10 |"), std::string::npos) << md;
  EXPECT_NE(md.find("\n| tiresias | 0/10 † |"), std::string::npos) << md;
  EXPECT_NE(md.find("| thrashing at "), std::string::npos) << md;
  EXPECT_NE(md.find("† tiresias: figures cover 0 of 10 jobs (those that finished); the run stopped as thrashing at "),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("† fifo"), std::string::npos) << md;
}

// "long" (4 GPUs, 300 s) at 0 and "short" (4 GPUs, 50 s) at 100 s: srtf
// preempts long, which starts over; the 400 GPU-s thrown away are 22.2% of
// the 1800 its jobs' runs held (1400 useful), summary.json's lost_share, and
// compare shows srtf's notice, not fifo's (none).
TEST(Compare, ShowsTheNoticeOfARunWhosePreemptionsThrewMuchWorkAway) {
  ScratchDir dir;
  CraftedCluster node;
  node.gpus_per_node = 4;
  const GcsimRun run = run_gcsim(
      {"compare", "--policies", "fifo,srtf", "--cluster", dir.write("cluster.json", node.to_json()), "--workload",
       dir.write("jobs.json", workload_json({measured_job("long", 0, 4, 300), measured_job("short", 100, 4, 50)})),
       "--out", dir / "cmp", "--quiet", "--plots", "no"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("gcsim compare: policy 'srtf': notice: preemptions threw away 0.11 GPU-hours, 22.2% of the "
                         "0.50 GPU-hours jobs ran (the lost share"),
            std::string::npos)
      << run.err;
  EXPECT_DOUBLE_EQ(read_summary(dir / "cmp/runs/srtf")["preemptions"]["lost_share"].get<double>(), 400.0 / 1800);
  EXPECT_EQ(run.err.find("policy 'fifo'"), std::string::npos) << run.err;
}

TEST(Compare, GuaranteeAttainmentOfCapacityQueuesHandComputed) {
  ScratchDir dir;
  CraftedCluster c;
  c.gpus_per_node = 10;
  const std::string cluster = dir.write("cluster.json", c.to_json());
  auto queued = [](nlohmann::json job, const std::string& queue) {
    job["queue"] = queue;
    job["user"] = queue == "prod" ? "pat" : "rita";
    return job;
  };
  const std::string workload =
      dir.write("workload.json", workload_json({queued(measured_job("r1", 0, 4, 1000), "research"),
                                                queued(measured_job("r2", 1, 4, 1000), "research"),
                                                queued(measured_job("p1", 100, 6, 500), "prod")}));
  const std::string config = std::string(GCSIM_SOURCE_DIR) + "/scenarios/capacity/yarn-two-queues.json";
  const GcsimRun run =
      run_gcsim({"compare", "--policies", "fifo,capacity", "--cluster", cluster, "--workload", workload, "--policy-opt",
                 "config=" + config, "--out", dir / "cmp", "--quiet", "--plots", "no"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_comparison(dir / "cmp");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("queue_guarantee_attainment"), "n/a");
  EXPECT_NEAR(cell(rows[1], "queue_guarantee_attainment"), 500.0 / 517, 1e-12);
  const std::string md = read_text(dir / "cmp/comparison.md");
  EXPECT_NE(md.find("\n| capacity | root.prod | 6 | 8.6 | 96.7% |\n"), std::string::npos) << md;  // minutes
  EXPECT_NE(md.find("\n| capacity | root.research | 4 | "), std::string::npos) << md;
  EXPECT_NE(md.find(" | 100.0% |\n"), std::string::npos) << md;
  EXPECT_EQ(md.find("| fifo | root."), std::string::npos) << md;
}

// Without config=, capacity has one queue, root.default, guaranteed the whole
// cluster. The deadlock scenario under it: short-1..4 hold the 4 GPUs, then 3,
// 2, 1 of them a minute each from 60 s while train-a and train-b wait;
// train-a runs 240-1440, train-b 1440-2640. The queue is owed 4 GPUs
// throughout: 1 over [0, 60), 3/4, 2/4 and 1/4 over a minute each, 1 over
// [240, 2640): (60 + 90 + 2400) / 2640.
TEST(Compare, CapacityWithoutAConfigurationHasTheOneQueueRootDefault) {
  const DeadlockScenario s;
  const GcsimRun run = s.compare("capacity", {"--plots", "no"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NEAR(cell(read_comparison(s.dir / "cmp").at(0), "queue_guarantee_attainment"), 2550.0 / 2640, 1e-12);
  const std::string md = read_text(s.dir / "cmp/comparison.md");
  EXPECT_NE(md.find("\n| capacity | root.default | 4 | "), std::string::npos) << md;
}

TEST(Compare, AnUnknownPolicyIsRejectedBeforeAnythingRuns) {
  const DeadlockScenario s;
  const GcsimRun run = s.compare("fifo,no-such-policy");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("unknown policy 'no-such-policy'"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(s.dir / "cmp"));
}

TEST(Compare, APolicyListedTwiceIsRejectedBeforeAnythingRuns) {
  const DeadlockScenario s;
  const GcsimRun run = s.compare("fifo,gang,fifo");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("policy 'fifo' is listed twice"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(s.dir / "cmp"));
}

TEST(Compare, ABadInputFileIsRejectedBeforeAnythingRuns) {
  const DeadlockScenario s;
  const std::string huge = s.dir.write("huge.json", workload_json({measured_job("huge", 0, 64, 10)}));
  const GcsimRun run =
      run_gcsim({"compare", "--policies", "fifo", "--cluster", s.cluster, "--workload", huge, "--out", s.dir / "cmp"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("huge"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(s.dir / "cmp"));
}

TEST(Compare, AnInvalidPolicyOptionIsRejectedBeforeAnythingRuns) {
  const DeadlockScenario s;
  const GcsimRun run = s.compare("fifo,piecemeal", {"--policy-opt", "hold_timeout=-1"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("invalid policy option for 'piecemeal'"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(s.dir / "cmp"));
}

TEST(Compare, EachPolicyGetsOnlyTheOptionsItTakes) {
  const DeadlockScenario s;
  // fifo takes no hold_timeout; piecemeal does, and with it the deadlock resolves.
  const GcsimRun run = s.compare("fifo,piecemeal", {"--policy-opt", "hold_timeout=300", "--plots", "no"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(read_summary(s.dir / "cmp/runs/piecemeal")["deadlock"].is_null());
}

TEST(Compare, AnOptionNoPolicyTakesIsRejected) {
  const DeadlockScenario s;
  const GcsimRun run = s.compare("fifo,gang", {"--policy-opt", "hold_timeout=300"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("no policy of '--policies' takes the option 'hold_timeout=300'"), std::string::npos)
      << run.err;
  EXPECT_FALSE(fs::exists(s.dir / "cmp"));
}

TEST(Compare, AFailedRunFailsTheComparisonWithTheRunsMessages) {
  const DeadlockScenario s;
  // A file where the run's output directory should be: the run cannot write (exit 4).
  fs::create_directories(s.dir / "cmp/runs");
  s.dir.write("cmp/runs/gang", "in the way");
  const GcsimRun run = s.compare("fifo,gang", {"--plots", "no"});
  EXPECT_EQ(run.exit_code, 4);
  EXPECT_NE(run.err.find("the run of policy 'gang' failed (exit status 4)"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("cmp/runs/gang"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(s.dir / "cmp/comparison.csv"));
}

TEST(Compare, DrawsThePlotsWithAPythonThatHasMatplotlib) {
  if (std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 cannot import matplotlib (Debian: python3-matplotlib)";
  const DeadlockScenario s;
  const ScopedEnv python("GCSIM_PYTHON", "/usr/bin/python3");
  const GcsimRun run = s.compare("fifo,piecemeal", {"--plots", "yes"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const char* png : {"jct_cdf.png", "wait_cdf.png", "utilization.png", "gantt_fifo.png", "gantt_piecemeal.png"})
    EXPECT_TRUE(is_png(s.dir / (std::string("cmp/") + png))) << png;
}

TEST(Compare, DrawsThePowerOfEveryPolicyUnderEnergyOnly) {
  if (std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 cannot import matplotlib (Debian: python3-matplotlib)";
  const ScopedEnv python("GCSIM_PYTHON", "/usr/bin/python3");
  ScratchDir dir;
  auto compare = [&](const std::string& out, bool energy) {
    std::vector<std::string> args{"compare",
                                  "--policies",
                                  "fifo,srtf",
                                  "--cluster",
                                  scenario("clusters/rack-32gpu.json"),
                                  "--workload",
                                  scenario("workloads/default.json"),
                                  "--out",
                                  dir / out,
                                  "--quiet",
                                  "--plots",
                                  "yes"};
    if (energy) args.push_back("--energy");
    return run_gcsim(args);
  };
  const GcsimRun plain = compare("plain", false);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_TRUE(is_png(dir / "plain/utilization.png"));
  EXPECT_FALSE(fs::exists(dir / "plain/power.png"));
  const GcsimRun energy = compare("energy", true);
  ASSERT_EQ(energy.exit_code, 0) << energy.err;
  EXPECT_TRUE(is_png(dir / "energy/power.png"));
}

TEST(Compare, DrawsThePlotsOfJobsWhoseSharesLeaveFractionalGpuCounts) {
  // The bundled inference replicas hold 6.7 GPUs at once (0.3-GPU shares):
  // the plot script must read fractional counts, with --plots yes and auto.
  if (std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 cannot import matplotlib (Debian: python3-matplotlib)";
  const ScopedEnv python("GCSIM_PYTHON", "/usr/bin/python3");
  for (const char* plots : {"yes", "auto"}) {
    SCOPED_TRACE(plots);
    ScratchDir dir;
    const GcsimRun run = run_gcsim(
        {"compare", "--policies", "fifo,drf", "--cluster", scenario("clusters/node-8gpu-nvlink.json"), "--workload",
         scenario("workloads/inference-replicas.json"), "--out", dir / "cmp", "--quiet", "--plots", plots});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.err.find("plots skipped"), std::string::npos) << run.err;
    for (const char* png : {"jct_cdf.png", "wait_cdf.png", "utilization.png", "gantt_fifo.png", "gantt_drf.png"})
      EXPECT_TRUE(is_png(dir / (std::string("cmp/") + png))) << png;
  }
}

// Serving deployments and CPU jobs beside the jobs the plots draw: replica
// slots never used end finished without a start, CPU jobs hold no GPU. The
// table shows each deployment's latency beside the jobs' figures.
TEST(Compare, ShowsServingLatencyAndDrawsThePlotsOfDeploymentsAndCpuJobs) {
  ScratchDir dir;
  const std::string cluster = scenario("clusters/rack-32gpu.json");
  nlohmann::json prepare = {{"id", "prepare"}, {"submit", 0}, {"cpu_cores", 8}, {"cpu", {{"seconds", 600}}}};
  const auto workload = dir.write(
      "jobs.json",
      workload_json(
          {prepare,
           {{"id", "eval"}, {"submit", 0}, {"gpus", 1}, {"duration", {{"seconds", 100}, {"gpu_type", "V100"}}}},
           {{"id", "svc"},
            {"submit", 0},
            {"gpus", 1},
            {"serving",
             {{"length", 3600},
              {"rates", {{{"at", 0}, {"rate", 50}}, {{"at", 1800}, {"rate", 400}}}},
              {"throughput", 100},
              {"latency", 0.01},
              {"replicas", 1},
              {"autoscaler", {{"target", 0.7}, {"min_replicas", 1}, {"max_replicas", 8}}}}}}}));
  const GcsimRun run = run_gcsim({"compare", "--policies", "fifo,srtf", "--cluster", cluster, "--workload", workload,
                                  "--out", dir / "cmp", "--quiet", "--plots", "no"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string md = read_text(dir / "cmp/comparison.md");
  EXPECT_NE(md.find("| policy | deployment | latency p50 (ms)"), std::string::npos) << md;
  EXPECT_NE(md.find("| fifo | svc |"), std::string::npos) << md;
  EXPECT_NE(md.find("| srtf | svc |"), std::string::npos) << md;
  EXPECT_NE(md.find("| fifo | cpu | 1/1 |"), std::string::npos) << md;

  if (std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 cannot import matplotlib (Debian: python3-matplotlib)";
  const ScopedEnv python("GCSIM_PYTHON", "/usr/bin/python3");
  const GcsimRun plotted = run_gcsim({"compare", "--policies", "fifo", "--cluster", cluster, "--workload", workload,
                                      "--out", dir / "plotted", "--quiet", "--plots", "yes"});
  ASSERT_EQ(plotted.exit_code, 0) << plotted.err;
  for (const char* png : {"jct_cdf.png", "wait_cdf.png", "utilization.png", "gantt_fifo.png"})
    EXPECT_TRUE(is_png(dir / (std::string("plotted/") + png))) << png;
}

TEST(Compare, WithoutThePlotScriptAutoWritesTheTableAndYesFails) {
  const DeadlockScenario s;
  const ScopedEnv scripts("GCSIM_SCRIPTS_DIR", s.dir / "no-scripts-here");
  const GcsimRun automatic = s.compare("fifo");
  ASSERT_EQ(automatic.exit_code, 0) << automatic.err;
  EXPECT_NE(automatic.err.find("plots skipped"), std::string::npos) << automatic.err;
  EXPECT_NE(automatic.err.find("no-scripts-here"), std::string::npos) << automatic.err;
  EXPECT_EQ(read_comparison(s.dir / "cmp").size(), 1u);

  const GcsimRun required = s.compare("fifo", {"--plots", "yes"});
  EXPECT_EQ(required.exit_code, 6);
  EXPECT_NE(required.err.find("cannot draw the plots"), std::string::npos) << required.err;
}

TEST(Compare, PlotsNoDrawsNothing) {
  const DeadlockScenario s;
  const GcsimRun run = s.compare("fifo", {"--plots", "no"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const std::string& name : files_in(s.dir / "cmp")) EXPECT_EQ(name.find(".png"), std::string::npos) << name;
}

}  // namespace
}  // namespace gcsim::testing

namespace gcsim::testing {
namespace {

bool python_imports_plotly() { return std::system("/usr/bin/python3 -c 'import plotly' >/dev/null 2>&1") == 0; }

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++count;
  return count;
}

TEST(CompareHtml, WithoutPlotlyFailsBeforeAnyRunNamingThePackageAndTheInterpretersTried) {
  const DeadlockScenario s;
  // A package named plotly first on every interpreter's path that refuses to import.
  fs::create_directories(s.dir / "hidden/plotly");
  s.dir.write("hidden/plotly/__init__.py", "raise ImportError('plotly hidden')\n");
  const ScopedEnv path("PYTHONPATH", s.dir / "hidden");
  const GcsimRun run = s.compare("fifo,gang", {"--plots", "no", "--html"});
  EXPECT_EQ(run.exit_code, 6) << run.err;
  EXPECT_NE(run.err.find("python3-plotly"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("/usr/bin/python3: cannot import plotly"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(s.dir / "cmp/runs")) << "a run started";
  EXPECT_FALSE(fs::exists(s.dir / "cmp/comparison.csv"));
}

TEST(CompareHtml, WritesOneSelfContainedPageOfEveryChartAndTable) {
  if (!python_imports_plotly()) GTEST_SKIP() << "/usr/bin/python3 cannot import plotly (Debian: python3-plotly)";
  const DeadlockScenario s;
  const ScopedEnv python("GCSIM_PYTHON", "/usr/bin/python3");
  const GcsimRun run = s.compare("fifo,piecemeal", {"--plots", "no", "--html"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string page = read_text(s.dir / "cmp/report.html");
  // plotly.js inside the page, no script fetched from anywhere.
  EXPECT_NE(page.find("* plotly.js v"), std::string::npos);
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  // Two CDFs, the allocation, one Gantt chart per policy.
  EXPECT_EQ(occurrences(page, "class=\"plotly-graph-div\""), 5u);
  EXPECT_EQ(occurrences(page, "jobs on GPUs (all 6 jobs"), 1u) << "fifo runs all six jobs";
  // piecemeal deadlocks at 240 s: the four short jobs done, the trains holding GPUs but never started.
  EXPECT_EQ(occurrences(page, "piecemeal: jobs on GPUs (all 4 jobs"), 1u) << "the trains never started";
  EXPECT_NE(page.find("\"train-a\",\"4\""), std::string::npos) << "a bar names its job and its GPUs";
  EXPECT_NE(page.find("<td>piecemeal</td><td>4/6 †</td>"), std::string::npos) << "comparison.md's table";
  // Nothing staged is left behind.
  std::vector<std::string> names = files_in(s.dir / "cmp");
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"comparison.csv", "comparison.md", "report.html", "runs"}));
}

TEST(CompareHtml, WithoutHtmlNoPageIsWrittenAndTheTablesAreTheSame) {
  if (!python_imports_plotly()) GTEST_SKIP() << "/usr/bin/python3 cannot import plotly (Debian: python3-plotly)";
  const DeadlockScenario s;
  const ScopedEnv python("GCSIM_PYTHON", "/usr/bin/python3");
  const GcsimRun with = s.compare("fifo,gang", {"--plots", "no", "--html", "--no-wall-time"});
  ASSERT_EQ(with.exit_code, 0) << with.err;
  const std::string csv = read_text(s.dir / "cmp/comparison.csv"), md = read_text(s.dir / "cmp/comparison.md");
  fs::remove_all(s.dir / "cmp");
  const GcsimRun without = s.compare("fifo,gang", {"--plots", "no", "--no-wall-time"});
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_FALSE(fs::exists(s.dir / "cmp/report.html"));
  EXPECT_EQ(read_text(s.dir / "cmp/comparison.csv"), csv);
  EXPECT_EQ(read_text(s.dir / "cmp/comparison.md"), md);
}

}  // namespace
}  // namespace gcsim::testing
