// Specification of the comparison table: a run's files read back as written,
// summary figures copied exactly, the added figures computed from jobs.csv
// and timeline.csv, and undefined figures written "n/a".
#include "sim/report/comparison_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/input_error.hpp"
#include "sim/core/number_text.hpp"
#include "sim/io/csv_records.hpp"
#include "sim/report/run_outputs.hpp"
#include "tests/support/crafted_specs.hpp"

namespace gcsim {
namespace {

JobSpec job(const std::string& id, const std::string& user, Time submit, std::uint32_t gpus) {
  JobSpec spec;
  spec.id = id;
  spec.user = user;
  spec.submit = submit;
  spec.gpus = gpus;
  return spec;
}

// One node of four GPUs. "a" (2 GPUs, user "alice, jr": a comma to quote)
// runs 0-20, uncontended 10: slowdown 2. "b" (4 GPUs, bob) waits 10-20 while
// two GPUs are free, runs 20-40, uncontended 20: JCT 30, slowdown 1.5. "c"
// (bob) waits from 15 and never starts.
struct SmallRun {
  ClusterLayout layout{[] {
    ClusterSpec spec;
    spec.name = "crafted";
    spec.gpu_types = {{"GPU", 1e12, 32e9}};
    spec.node_groups = {testing::crafted_node_group("n", 1, 4, "GPU")};
    return spec;
  }()};
  std::vector<JobSpec> jobs{job("a", "alice, jr", 0, 2), job("b", "bob", 10, 4), job("c", "bob", 15, 4)};
  RunRecord record;
  SmallRun() {
    record.cluster_name = "crafted";
    record.policy = "fifo";
    record.total_gpus = 4;
    record.outcomes.resize(3);
    record.outcomes[0] = {JobState::kFinished, 0, 20, {0, 1}, 0, 10};
    record.outcomes[1] = {JobState::kFinished, 20, 40, {0, 1, 2, 3}, 1, 20};
    record.outcomes[2] = {JobState::kWaiting, kNever, kNever, {}, 0, 5};
    record.timeline = {{0, 2, 2, 0}, {10, 2, 2, 1}, {15, 2, 2, 2}, {20, 4, 4, 1}, {40, 0, 0, 1}};
    record.simulated_time = 40;
    record.lost_gpu_seconds = 1800;
    record.wall_seconds = 0.25;
  }
  RunOutputs read_back() const {
    const RunMetrics metrics = compute_run_metrics(jobs, record);
    return {parse_summary_json(summary_json(jobs, layout, record, metrics, {true, {}, std::nullopt}), "summary.json"),
            parse_jobs_csv(jobs_csv(jobs, layout, record), "jobs.csv"),
            parse_timeline_csv(timeline_csv(record), "timeline.csv")};
  }
};

std::map<std::string, std::string> csv_row_by_column(const std::string& csv, std::size_t row) {
  const std::vector<CsvRecord> records = read_csv_records(csv, "out.csv");
  std::map<std::string, std::string> by_column;
  for (std::size_t i = 0; i < records.front().fields.size(); ++i)
    by_column[records.front().fields[i]] = records.at(row).fields.at(i);
  return by_column;
}

// The cells of a Markdown table line, trimmed.
std::vector<std::string> markdown_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  for (std::size_t i = 1; i < line.size(); ++i) {
    if (line[i] != '|') {
      cell += line[i];
      continue;
    }
    const auto first = cell.find_first_not_of(' '), last = cell.find_last_not_of(' ');
    cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
    cell.clear();
  }
  return cells;
}

// The cell of the first Markdown table's row of `policy` under `column`; "" when absent.
std::string markdown_cell(const std::string& md, const std::string& policy, const std::string& column) {
  std::istringstream in(md);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = markdown_cells(line);
  const auto at = static_cast<std::size_t>(std::find(header.begin(), header.end(), column) - header.begin());
  std::getline(in, line);  // |---|---:|...
  while (std::getline(in, line) && line.rfind("| ", 0) == 0) {
    const std::vector<std::string> cells = markdown_cells(line);
    if (!cells.empty() && cells.front() == policy && at < cells.size()) return cells[at];
  }
  return "";
}

// ---- reading a run's files back --------------------------------------------------------------

TEST(RunOutputReader, ReadsJobsAsWrittenIncludingQuotedFieldsAndEmptyTimes) {
  const RunOutputs run = SmallRun().read_back();
  ASSERT_EQ(run.jobs.size(), 3u);
  EXPECT_EQ(run.jobs[0].user, "alice, jr");
  EXPECT_EQ(run.jobs[0].placement, "n-0:0;n-0:1");
  EXPECT_DOUBLE_EQ(run.jobs[1].jct, 30);
  EXPECT_EQ(run.jobs[1].preemptions, 1u);
  EXPECT_DOUBLE_EQ(run.jobs[1].uncontended, 20);
  EXPECT_EQ(run.jobs[2].state, "waiting");
  EXPECT_EQ(run.jobs[2].start, kNever);
  EXPECT_EQ(run.jobs[2].jct, kNever);
}

TEST(RunOutputReader, ReadsTheSummaryAndTheTimeline) {
  const RunOutputs run = SmallRun().read_back();
  EXPECT_EQ(run.summary.gpus, 4u);
  EXPECT_EQ(run.summary.finished, 2u);
  EXPECT_EQ(run.summary.unfinished, 1u);
  EXPECT_DOUBLE_EQ(run.summary.makespan, 40);
  EXPECT_DOUBLE_EQ(run.summary.jct.mean, 25);
  EXPECT_DOUBLE_EQ(run.summary.lost_gpu_hours, 0.5);
  EXPECT_FALSE(run.summary.deadlock_at.has_value());
  EXPECT_DOUBLE_EQ(*run.summary.wall_seconds, 0.25);
  ASSERT_EQ(run.timeline.size(), 5u);
  EXPECT_EQ(run.timeline[2].queued, 2u);
}

TEST(RunOutputReader, AMissingColumnIsNamed) {
  try {
    parse_timeline_csv("time,allocated_gpus,busy_gpus\n0,1,1\n", "runs/x/timeline.csv");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "runs/x/timeline.csv");
    EXPECT_EQ(e.where(), "line 1");
    EXPECT_EQ(e.field(), "queued_jobs");
  }
}

TEST(RunOutputReader, ABadNumberNamesItsLine) {
  try {
    parse_timeline_csv("time,allocated_gpus,busy_gpus,queued_jobs\n0,1,1,0\n5,two,1,0\n", "timeline.csv");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "line 3");
    EXPECT_EQ(e.field(), "allocated_gpus");
  }
}

// With a spot job, jobs.csv ends with the qos column, read back; summary.json
// has each class's figures: "b" (spot) was preempted once, JCT 30, wait 10.
TEST(RunOutputReader, ASpotJobGivesTheQosColumnAndTheClassFigures) {
  SmallRun run;
  run.jobs[1].qos = QosClass::kSpot;
  const RunOutputs back = run.read_back();
  EXPECT_EQ(back.jobs[0].qos, "guaranteed");
  EXPECT_EQ(back.jobs[1].qos, "spot");
  const nlohmann::json summary = nlohmann::json::parse(summary_json(
      run.jobs, run.layout, run.record, compute_run_metrics(run.jobs, run.record), {false, {}, std::nullopt}));
  const nlohmann::json& spot = summary.at("qos").at("spot");
  EXPECT_EQ(spot.at("jobs"), 1);
  EXPECT_EQ(spot.at("finished"), 1);
  EXPECT_EQ(spot.at("preempted_jobs"), 1);
  EXPECT_EQ(spot.at("preemptions"), 1);
  EXPECT_DOUBLE_EQ(spot.at("jct_mean_s").get<double>(), 30);
  EXPECT_DOUBLE_EQ(spot.at("queueing_delay_mean_s").get<double>(), 10);
  const nlohmann::json& guaranteed = summary.at("qos").at("guaranteed");
  EXPECT_EQ(guaranteed.at("jobs"), 2);
  EXPECT_EQ(guaranteed.at("finished"), 1);
  EXPECT_DOUBLE_EQ(guaranteed.at("jct_mean_s").get<double>(), 20);
}

TEST(RunOutputReader, WithoutSpotJobsThereIsNoQosColumnAndEveryJobReadsGuaranteed) {
  SmallRun run;
  const std::string csv = jobs_csv(run.jobs, run.layout, run.record);
  EXPECT_EQ(csv.substr(0, csv.find('\n')).find("qos"), std::string::npos);
  for (const JobsCsvRow& row : run.read_back().jobs) EXPECT_EQ(row.qos, "guaranteed");
}

TEST(RunOutputReader, AQosOtherThanGuaranteedOrSpotNamesItsLine) {
  SmallRun run;
  run.jobs[1].qos = QosClass::kSpot;
  std::string csv = jobs_csv(run.jobs, run.layout, run.record);
  csv.replace(csv.rfind(",spot\n"), 6, ",gold\n");
  try {
    parse_jobs_csv(csv, "jobs.csv");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "line 3");
    EXPECT_EQ(e.field(), "qos");
  }
}

// ---- the table -----------------------------------------------------------------------------

TEST(ComparisonRow, AddsFairnessAndFragmentationToTheSummary) {
  const ComparisonRow row = comparison_row("fifo", SmallRun().read_back());
  EXPECT_EQ(row.policy, "fifo");
  // Slowdowns 2 (alice, jr) and 1.5 (bob): max 2, mean 1.75.
  EXPECT_DOUBLE_EQ(row.finish_time_fairness.max, 2);
  EXPECT_DOUBLE_EQ(row.finish_time_fairness.mean, 1.75);
  // Jain over users {2, 1.5}: 3.5^2 / (2 * (4 + 2.25)) = 12.25 / 12.5.
  EXPECT_DOUBLE_EQ(*row.jain_slowdown, 0.98);
  // 2 GPUs free while jobs wait during [10, 20): 20 GPU-s over 4 GPUs * 40 s.
  EXPECT_DOUBLE_EQ(row.fragmentation, 20.0 / 160.0);
}

// "b" as a serving replica: it ran 20-40 s of its deployment's time, but a
// replica completes nothing, so its JCT over its run is no slowdown (the JCT
// figures of summary.json leave replicas out alike): "a" alone, slowdown 2.
TEST(ComparisonRow, ServingReplicasHaveNoSlowdown) {
  SmallRun run;
  run.jobs[1].work = ServingWork{std::make_shared<ServingSpec>(), 1};
  run.record.outcomes[1].submitted = 10;
  const ComparisonRow row = comparison_row("fifo", run.read_back());
  EXPECT_EQ(row.finish_time_fairness.count, 1u);
  EXPECT_DOUBLE_EQ(row.finish_time_fairness.max, 2);
  EXPECT_DOUBLE_EQ(row.finish_time_fairness.mean, 2);
  EXPECT_FALSE(row.jain_slowdown.has_value());  // bob has no slowdown left
}

TEST(ComparisonCsv, CopiesSummaryFiguresExactly) {
  SmallRun run;
  run.record.outcomes[0].end = 20.1;  // JCT mean (20.1 + 30) / 2: not a short decimal in binary
  const RunOutputs outputs = run.read_back();
  const auto row = csv_row_by_column(comparison_csv({comparison_row("fifo", outputs)}), 1);
  EXPECT_EQ(std::stod(row.at("jct_mean_s")), outputs.summary.jct.mean);
  EXPECT_EQ(std::stod(row.at("gpu_util_allocated")), outputs.summary.allocated_share);
  EXPECT_EQ(row.at("lost_gpu_hours"), "0.5");
  EXPECT_EQ(row.at("wall_time_s"), "0.25");
  EXPECT_EQ(row.at("deadlocks"), "0");
  EXPECT_EQ(row.at("deadlock_at_s"), "n/a");
  EXPECT_EQ(row.at("queue_guarantee_attainment"), "n/a");
}

TEST(ComparisonCsv, UndefinedFiguresAreNotAvailable) {
  SmallRun run;
  run.record.deadlock = DeadlockReport{35, {2}};
  for (JobOutcome& o : run.record.outcomes) o.uncontended = kNever;
  const auto row = csv_row_by_column(comparison_csv({comparison_row("x", run.read_back())}), 1);
  EXPECT_EQ(row.at("jain_fairness_slowdown"), "n/a");
  EXPECT_EQ(row.at("ftf_rho_max"), "n/a");
  EXPECT_EQ(row.at("ftf_rho_mean"), "n/a");
  EXPECT_EQ(row.at("deadlocks"), "1");
  EXPECT_EQ(row.at("deadlock_at_s"), "35");
}

TEST(ComparisonCsv, JainsIndexIsNotAvailableWithOneUserAndGivenWithTwo) {
  SmallRun run;
  for (JobSpec& job : run.jobs) job.user = "bob";  // slowdowns 2 and 1.5, one user's mean
  const auto one = csv_row_by_column(comparison_csv({comparison_row("x", run.read_back())}), 1);
  EXPECT_EQ(one.at("jain_fairness_slowdown"), "n/a");
  EXPECT_EQ(markdown_cell(comparison_markdown({comparison_row("x", run.read_back())}), "x", "Jain (slowdown)"), "n/a");
  run.jobs[0].user = "alice";  // users {2, 1.5}: 3.5^2 / (2 * (4 + 2.25)) = 0.98
  const auto two = csv_row_by_column(comparison_csv({comparison_row("x", run.read_back())}), 1);
  EXPECT_EQ(two.at("jain_fairness_slowdown"), exact_number(3.5 * 3.5 / (2 * 6.25)));
  EXPECT_EQ(markdown_cell(comparison_markdown({comparison_row("x", run.read_back())}), "x", "Jain (slowdown)"),
            "0.980");
}

// ---- why a run stopped, and rows over part of the jobs ------------------------------------

TEST(ComparisonCsv, ARunThatWasNotStoppedSaysNone) {
  SmallRun run;
  run.record.run_gpu_seconds = 7200;  // 1800 of them lost: a lost share of 1/4
  const auto row = csv_row_by_column(comparison_csv({comparison_row("x", run.read_back())}), 1);
  EXPECT_EQ(row.at("stopped"), "none");
  EXPECT_EQ(row.at("stopped_at_s"), "n/a");
  EXPECT_EQ(row.at("finished_jobs"), "2/3");
  EXPECT_EQ(row.at("lost_share"), "0.25");
}

TEST(ComparisonCsv, EachWayARunStopsIsNamedWithItsTime) {
  const auto stopped = [](const std::function<void(RunRecord&)>& stop) {
    SmallRun run;
    stop(run.record);
    return csv_row_by_column(comparison_csv({comparison_row("x", run.read_back())}), 1);
  };
  const auto deadlock = stopped([](RunRecord& r) { r.deadlock = DeadlockReport{35, {2}}; });
  EXPECT_EQ(deadlock.at("stopped"), "deadlock");
  EXPECT_EQ(deadlock.at("stopped_at_s"), "35");
  const auto livelock = stopped([](RunRecord& r) { r.livelock = LivelockReport{36, 100, {}, {}, false}; });
  EXPECT_EQ(livelock.at("stopped"), "livelock");
  EXPECT_EQ(livelock.at("stopped_at_s"), "36");
  const auto thrashing = stopped([](RunRecord& r) { r.thrashing = ThrashingReport{37, 0, 3600, 1200, 3, 1}; });
  EXPECT_EQ(thrashing.at("stopped"), "thrashing");
  EXPECT_EQ(thrashing.at("stopped_at_s"), "37");
  const auto signal = stopped([](RunRecord& r) {
    r.stop_request = SIGINT;
    r.simulated_time = 38;
  });
  EXPECT_EQ(signal.at("stopped"), "signal");
  EXPECT_EQ(signal.at("stopped_at_s"), "38");
}

TEST(ComparisonMarkdown, ARowOverPartOfTheJobsIsMarkedWithWhyTheRunStopped) {
  SmallRun partial;
  partial.record.thrashing = ThrashingReport{37, 0, 3600, 1200, 3, 1};
  SmallRun whole;
  whole.jobs.pop_back();  // c, which never ran
  whole.record.outcomes.pop_back();
  const std::string md =
      comparison_markdown({comparison_row("tiresias", partial.read_back()), comparison_row("fifo", whole.read_back())});
  EXPECT_EQ(markdown_cell(md, "tiresias", "finished"), "2/3 †");
  EXPECT_EQ(markdown_cell(md, "tiresias", "stopped"), "thrashing at 37.00 s");
  EXPECT_EQ(markdown_cell(md, "fifo", "finished"), "2/2");
  EXPECT_EQ(markdown_cell(md, "fifo", "stopped"), "no");
  EXPECT_NE(md.find("† tiresias: figures cover 2 of 3 jobs (those that finished); the run stopped as thrashing at "
                    "37.00 s."),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("† fifo"), std::string::npos) << md;
  // The lost share beside the lost GPU-hours: 1800 GPU-s, all the GPU time jobs ran.
  EXPECT_EQ(markdown_cell(md, "tiresias", "lost share"), "100.0%");
}

TEST(ComparisonMarkdown, OneRowPerPolicyInOrderWithTimesInOneUnit) {
  const RunOutputs outputs = SmallRun().read_back();
  const std::string md = comparison_markdown({comparison_row("srtf", outputs), comparison_row("fifo", outputs)});
  EXPECT_NE(md.find("| policy | finished | JCT mean (s) |"), std::string::npos) << md;
  const auto srtf = md.find("\n| srtf | 2/3 † | 25.00 |");  // c never finished: partial
  const auto fifo = md.find("\n| fifo | 2/3 † | 25.00 |");
  EXPECT_NE(srtf, std::string::npos) << md;
  EXPECT_NE(fifo, std::string::npos) << md;
  EXPECT_LT(srtf, fifo);
}

// A deployment's figures, as summary.json writes them, read back and shown
// beside the jobs: 1,000 requests, 900 served of which 45 late, 100 dropped.
TEST(ComparisonMarkdown, ServingDeploymentsShowTheirLatencyBesideTheJobs) {
  SmallRun run;
  ServingOutcome svc;
  svc.deployment = "svc";
  svc.arrived = 1000;
  svc.served = 900;
  svc.late = 45;
  svc.dropped = 100;
  svc.p50 = 0.012;
  svc.p95 = 0.0805;
  svc.p99 = 0.25;
  svc.gpu_seconds = 2 * 3600;
  run.record.serving.push_back(svc);
  const RunOutputs outputs = run.read_back();
  ASSERT_EQ(outputs.summary.serving.size(), 1u);
  EXPECT_DOUBLE_EQ(outputs.summary.serving[0].p95, 0.0805);
  EXPECT_DOUBLE_EQ(outputs.summary.serving[0].gpu_hours, 2);
  const std::string md = comparison_markdown({comparison_row("fifo", outputs)});
  EXPECT_NE(md.find("| fifo | svc | 12.0 | 80.5 | 250.0 | 5.0% | 10.0% | 2.00 |"), std::string::npos) << md;
  // Without deployments, no such table.
  EXPECT_EQ(comparison_markdown({comparison_row("fifo", SmallRun().read_back())}).find("| deployment |"),
            std::string::npos);
}

// ---- capacity queues' guarantee attainment ------------------------------------------------

// SmallRun's jobs in one queue guaranteed all 4 GPUs, over the run's 40 s:
//   [0, 10)   demand 2 (a), running 2: 1                     x 10 s = 10
//   [10, 20)  demand 6, then 10 (b, c), owed 4, running 2: 1/2 x 10 s = 5
//   [20, 40)  demand 8 (b, c), owed 4, running 4 (b): 1     x 20 s = 20
// 35 over 40 s.
CapacityQueues default_queue() { return {{{"root.default", 4}}, {{"default", 0}, {"root.default", 0}}}; }

TEST(ComparisonRow, GuaranteeAttainmentOfEachCapacityQueueFromJobsCsv) {
  const ComparisonRow row = comparison_row("capacity", SmallRun().read_back(), default_queue());
  ASSERT_EQ(row.queue_attainment.size(), 1u);
  EXPECT_EQ(row.queue_attainment[0].queue, "root.default");
  EXPECT_DOUBLE_EQ(row.queue_attainment[0].demand_time, 40);
  EXPECT_DOUBLE_EQ(*row.queue_attainment[0].attainment, 35.0 / 40);
}

TEST(ComparisonRow, WithoutCapacityQueuesThereIsNoAttainment) {
  EXPECT_TRUE(comparison_row("fifo", SmallRun().read_back()).queue_attainment.empty());
}

TEST(ComparisonRow, AJobInAQueueThatDesignatesNoLeafIsAnInputError) {
  SmallRun run;
  run.jobs[1].queue = "nowhere";
  try {
    comparison_row("capacity", run.read_back(), default_queue());
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "job 'b'");
    EXPECT_EQ(e.field(), "queue");
  }
}

// Half of the 4 GPUs guaranteed to each of two queues. root.default keeps a
// and b and always holds what it is owed: [0, 20) a's 2 GPUs of demand 2,
// then 6 (owed 2); [20, 40) b's 4 of 4. Job c, moved to root.research by its
// short name, waits from 15 s to the end: attainment 0 over 25 s.
struct TwoQueueRun : SmallRun {
  CapacityQueues queues{{{"root.default", 2}, {"root.research", 2}},
                        {{"default", 0}, {"root.default", 0}, {"research", 1}, {"root.research", 1}}};
  TwoQueueRun() { jobs[2].queue = "research"; }
};

TEST(ComparisonCsv, QueueGuaranteeIsTheLeastAttainmentOverQueues) {
  const TwoQueueRun run;
  const ComparisonRow row = comparison_row("capacity", run.read_back(), run.queues);
  ASSERT_EQ(row.queue_attainment.size(), 2u);
  EXPECT_DOUBLE_EQ(*row.queue_attainment[0].attainment, 1);
  EXPECT_DOUBLE_EQ(*row.queue_attainment[1].attainment, 0);
  EXPECT_EQ(csv_row_by_column(comparison_csv({row}), 1).at("queue_guarantee_attainment"), "0");
}

TEST(ComparisonMarkdown, ListsEveryCapacityQueuesAttainmentUnderTheTable) {
  const TwoQueueRun run;
  const RunOutputs outputs = run.read_back();
  const std::string md =
      comparison_markdown({comparison_row("fifo", outputs), comparison_row("capacity", outputs, run.queues)});
  EXPECT_NE(md.find("\n| fifo | 2/3 † |"), std::string::npos) << md;      // c never finished
  EXPECT_NE(md.find("| 0.0% | no | 0.25 |\n"), std::string::npos) << md;  // capacity: the least, root.research
  EXPECT_NE(md.find("| n/a | no | 0.25 |\n"), std::string::npos) << md;   // fifo
  EXPECT_NE(md.find("\n| policy | queue | guaranteed GPUs | demand (s) | attainment |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("\n| capacity | root.default | 2 | 40.00 | 100.0% |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("\n| capacity | root.research | 2 | 25.00 | 0.0% |\n"), std::string::npos) << md;
  EXPECT_EQ(md.find("| fifo | root."), std::string::npos) << md;
}

TEST(ComparisonMarkdown, NoQueueTableWithoutCapacityQueues) {
  const std::string md = comparison_markdown({comparison_row("fifo", SmallRun().read_back())});
  EXPECT_EQ(md.find("| queue |"), std::string::npos) << md;
}

TEST(ExactNumber, ReadsBackAsTheSameDouble) {
  for (double x : {0.1, 1.0 / 3.0, 2640.0, 1e-7, 123456789.123})
    EXPECT_EQ(std::stod(exact_number(x)), x) << exact_number(x);
  EXPECT_EQ(exact_number(2640), "2640");
}

}  // namespace
}  // namespace gcsim

namespace gcsim {
namespace {

TEST(ComparisonTypes, AMixedWorkloadGetsATablePerJobTypeFromJobsCsv) {
  SmallRun run;
  EXPECT_EQ(comparison_markdown({comparison_row("fifo", run.read_back())}).find("| job type |"), std::string::npos);
  run.jobs[1].work = MeasuredWork{20, "GPU"};
  const ComparisonRow row = comparison_row("fifo", run.read_back());
  ASSERT_EQ(row.job_types.size(), 2u);
  EXPECT_EQ(row.job_types[0].type, "training");
  EXPECT_EQ(row.job_types[0].jobs, 2u);  // "a" finished, "c" waiting
  EXPECT_EQ(row.job_types[0].finished, 1u);
  EXPECT_DOUBLE_EQ(row.job_types[0].jct.mean, 20);
  EXPECT_EQ(row.job_types[1].type, "measured");
  EXPECT_DOUBLE_EQ(row.job_types[1].jct.mean, 30);
  EXPECT_DOUBLE_EQ(row.job_types[1].wait.mean, 10);
  const std::string markdown = comparison_markdown({row});
  EXPECT_NE(markdown.find("| fifo | measured | 1/1 |"), std::string::npos) << markdown;
}

}  // namespace
}  // namespace gcsim
