// The run's reports of preemptions and of runs stopped early: the summary
// line and the notice on lost work, the deadlock, livelock and thrashing
// entries of summary.json and their diagnoses, from crafted records.
#include "sim/report/run_outputs.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sim/io/csv_records.hpp"
#include "sim/report/run_output_reader.hpp"
#include "tests/support/crafted_specs.hpp"

namespace gcsim {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The metrics of a run whose jobs' runs held lost + useful GPU-hours, `lost` of them thrown away.
RunMetrics lost_and_useful(double lost_gpu_hours, double useful_gpu_hours) {
  RunRecord record;
  record.run_gpu_seconds = (lost_gpu_hours + useful_gpu_hours) * 3600;
  record.lost_gpu_seconds = lost_gpu_hours * 3600;
  record.restarts_from_zero = 3;
  RunMetrics m = compute_run_metrics({}, record);
  m.preemptions = 4;
  return m;
}

// RFC 4180 quoting of ids, users and queues in jobs.csv.
TEST(CsvField, QuotesATextHoldingACommaAQuoteOrALineBreakAndNothingElse) {
  EXPECT_EQ(csv_field("job-00001"), "job-00001");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field("a b;c\t"), "a b;c\t");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("end\r"), "\"end\r\"");
}

TEST(LostWorkNotice, AppearsOnlyPastATenthOfTheGpuTimeJobsRan) {
  EXPECT_EQ(lost_work_notice(lost_and_useful(0, 50)), "");
  EXPECT_EQ(lost_work_notice(lost_and_useful(5, 45)), "");  // exactly 10% of the 50 GPU-hours
  const std::string notice = lost_work_notice(lost_and_useful(5.5, 44.5));
  EXPECT_TRUE(contains(notice,
                       "notice: preemptions threw away 5.50 GPU-hours, 11.0% of the 50.00 GPU-hours jobs ran (the "
                       "lost share; more than 10.0%); 3 of the 4 preemptions restarted a job from zero.\n"))
      << notice;
  EXPECT_TRUE(contains(notice, "--trace-opt checkpoint_interval=SECONDS")) << notice;
}

TEST(LostWorkNotice, SaysSoWhenJobsDidNoUsefulWork) {
  EXPECT_TRUE(
      contains(lost_work_notice(lost_and_useful(2, 0)), "threw away 2.00 GPU-hours, and jobs did no useful work"));
}

TEST(LostWorkNotice, WithCheckpointsAdvisesCheckpointingMoreOften) {
  RunMetrics m = lost_and_useful(20, 50);
  m.restarts_from_zero = 0;
  EXPECT_TRUE(contains(lost_work_notice(m), "Checkpoint more often"));
}

struct StoppedRun {
  ClusterLayout layout{[] {
    ClusterSpec spec;
    spec.name = "crafted";
    spec.gpu_types = {{"GPU", 1e12, 32e9}};
    spec.node_groups = {testing::crafted_node_group("n", 1, 4, "GPU")};
    return spec;
  }()};
  std::vector<JobSpec> jobs;
  RunRecord record;
  StoppedRun() {
    for (const char* id : {"a", "b"}) {
      JobSpec job;
      job.id = id;
      job.gpus = 4;
      jobs.push_back(job);
    }
    record.outcomes.resize(2);
    record.outcomes[0].preemptions = 7;
    record.outcomes[1].preemptions = 9;
    record.simulated_time = 10;
  }
  nlohmann::json summary() const {
    return nlohmann::json::parse(
        summary_json(jobs, layout, record, compute_run_metrics(jobs, record), {false, {}, std::nullopt}));
  }
};

TEST(StoppedRunReports, ARunThatWasNotStoppedSaysNullForEachReason) {
  const nlohmann::json summary = StoppedRun().summary();
  EXPECT_TRUE(summary["deadlock"].is_null());
  EXPECT_TRUE(summary["livelock"].is_null());
  EXPECT_TRUE(summary["thrashing"].is_null());
  EXPECT_EQ(livelock_diagnosis(StoppedRun().jobs, StoppedRun().record), "");
}

TEST(StoppedRunReports, ALivelockNamesTheInstantTheJobsAndTheDecisionsThatRepeat) {
  StoppedRun run;
  LivelockReport livelock;
  livelock.at = 5;
  livelock.policy_calls = 22;
  livelock.jobs = {{0, 11}, {1, 10}};
  livelock.cycle = {{Decision::Kind::kPreempt, 1, {}}, {Decision::Kind::kAllocate, 0, {}}};
  livelock.repeats = true;
  run.record.livelock = livelock;
  const nlohmann::json entry = run.summary()["livelock"];
  EXPECT_EQ(entry["detected_at_s"], 5);
  EXPECT_EQ(entry["policy_calls"], 22);
  EXPECT_EQ(entry["jobs"],
            nlohmann::json::parse(R"([{"id":"a","gpus_taken_away":11},{"id":"b","gpus_taken_away":10}])"));
  EXPECT_EQ(entry["decisions"],
            nlohmann::json::parse(R"([{"decision":"preempt","job":"b"},{"decision":"allocate","job":"a"}])"));
  const std::string text = livelock_diagnosis(run.jobs, run.record);
  EXPECT_TRUE(contains(text, "livelock at t=5.000000 s")) << text;
  EXPECT_TRUE(contains(text, "(22 calls at this instant)")) << text;
  EXPECT_TRUE(contains(text, "job 'a' lost its GPUs 11 times at this instant\n")) << text;
  EXPECT_TRUE(contains(text, "the decisions that repeat: preempt 'b', allocate 'a'\n")) << text;
}

TEST(StoppedRunReports, ADeadlockPrintsTenOfItsJobsAndTheSummaryListsThemAll) {
  StoppedRun run;
  // Twelve one-GPU holders of two-GPU jobs on a node of sixteen GPUs.
  ClusterSpec spec = run.layout.spec();
  spec.node_groups = {testing::crafted_node_group("n", 1, 16, "GPU")};
  const ClusterLayout layout(spec);
  run.jobs.clear();
  run.record.outcomes.clear();
  DeadlockReport deadlock{7, {}};
  for (JobIndex j = 0; j < 12; ++j) {
    JobSpec job;
    job.id = "j" + std::to_string(j);
    job.gpus = 2;
    run.jobs.push_back(job);
    run.record.outcomes.emplace_back().gpus = {j};
    deadlock.jobs.push_back(j);
  }
  run.record.deadlock = deadlock;
  const std::string text = deadlock_diagnosis(run.jobs, layout, run.record);
  EXPECT_TRUE(contains(text, "deadlock at t=7.000000 s: 12 jobs hold GPUs")) << text;
  EXPECT_TRUE(contains(text, "job 'j9' holds 1 of 2 GPUs (n-0:9)\n")) << text;
  EXPECT_FALSE(contains(text, "job 'j10'")) << text;
  EXPECT_TRUE(contains(text, "and 2 more jobs (summary.json lists them all)\n")) << text;
  const nlohmann::json summary = nlohmann::json::parse(
      summary_json(run.jobs, layout, run.record, compute_run_metrics(run.jobs, run.record), {false, {}, std::nullopt}));
  EXPECT_EQ(summary["deadlock"]["jobs"].size(), 12u);
}

TEST(StoppedRunReports, ThrashingSaysHowMuchWasLostAgainstWhatWasNeededAndTheMostPreemptedJobs) {
  StoppedRun run;
  run.record.thrashing = ThrashingReport{10, 0, 3 * 3600 + 1800, 3600, 3, 2};
  const nlohmann::json entry = run.summary()["thrashing"];
  EXPECT_EQ(entry["detected_at_s"], 10);
  EXPECT_EQ(entry["since_s"], 0);
  EXPECT_EQ(entry["lost_gpu_hours_since"], 3.5);
  EXPECT_EQ(entry["needed_gpu_hours"], 1);
  EXPECT_EQ(entry["limit"], 3);
  EXPECT_EQ(entry["unfinished_jobs"], 2);
  const std::string text = thrashing_diagnosis(run.jobs, run.record, compute_run_metrics(run.jobs, run.record));
  EXPECT_TRUE(contains(text,
                       "since the first submission (t=0.000000 s) preemptions threw away 3.50 GPU-hours, more "
                       "than 3 times the 1.00 GPU-hours the 2 unfinished jobs needed then"))
      << text;
  // b (9 preemptions) before a (7).
  EXPECT_TRUE(contains(text, "job 'b' was preempted 9 times\n  job 'a' was preempted 7 times\n")) << text;
}

TEST(HumanSummary, ShowsPreemptionsOnlyWhenThereAreAny) {
  StoppedRun run;
  run.record.outcomes = {JobOutcome{}, JobOutcome{}};
  EXPECT_FALSE(contains(human_summary(run.record, compute_run_metrics(run.jobs, run.record)), "preempted"));
  run.record.outcomes[0].preemptions = 2;
  run.record.restarts_from_zero = 1;
  run.record.run_gpu_seconds = 4 * 3600;
  run.record.lost_gpu_seconds = 3600;
  const std::string text = human_summary(run.record, compute_run_metrics(run.jobs, run.record));
  EXPECT_TRUE(contains(text,
                       "  preempted   2 times, 1 restarts from zero, 1.00 GPU-hours lost (25.0% of the GPU time "
                       "jobs ran, the lost share)\n"))
      << text;
}

TEST(ReplayedTraceReport, SummaryJsonSaysWhatWasReadKeptAndSkippedRightAfterTheCluster) {
  StoppedRun run;
  run.record.outcomes = {JobOutcome{}, JobOutcome{}};
  run.record.total_gpus = 4;
  SummaryOptions options;
  options.include_wall_time = false;
  const RunMetrics metrics = compute_run_metrics(run.jobs, run.record);
  EXPECT_FALSE(
      nlohmann::json::parse(summary_json(run.jobs, run.layout, run.record, metrics, options)).contains("trace"));
  ReplayedTrace trace;
  trace.format = "csv";
  trace.file = "pods.csv";
  trace.rows = 9;
  trace.jobs = 4;
  trace.censored_at_start = 1;
  trace.censored_at_end = 2;
  trace.malformed = {{"negative submit time", 2}};
  trace.not_replayable = {{"never started (no start time)", 1}, {"CPU job (0 GPUs)", 2}};
  trace.selection = {"queues a: 2 of 4 jobs kept"};
  trace.jobs_selected = 2;
  options.trace = trace;
  const std::string text = summary_json(run.jobs, run.layout, run.record, metrics, options);
  EXPECT_TRUE(contains(text, "\"gpus\": 4,\n  \"trace\": {\n    \"format\": \"csv\",\n    \"file\": \"pods.csv\",\n"))
      << text;
  const nlohmann::json j = nlohmann::json::parse(text).at("trace");
  EXPECT_EQ(j.at("rows"), 9);
  EXPECT_EQ(j.at("jobs"), 4);
  EXPECT_EQ(j.at("censored_at_start"), 1);
  EXPECT_EQ(j.at("censored_at_end"), 2);
  EXPECT_EQ(j.at("skipped").at("rows"), 5);
  EXPECT_EQ(j.at("skipped").at("malformed").at("negative submit time"), 2);
  EXPECT_EQ(j.at("skipped").at("not_replayable").at("CPU job (0 GPUs)"), 2);
  EXPECT_EQ(j.at("selection").at("jobs"), 2);
  EXPECT_EQ(j.at("selection").at("steps"), nlohmann::json::array({"queues a: 2 of 4 jobs kept"}));
  const std::string summary = human_summary(run.record, metrics, &trace);
  EXPECT_TRUE(contains(summary,
                       "  trace       csv, 4 jobs from 9 rows (2 malformed, 3 not replayable), censored 1 at start, 2 "
                       "at end; 2 selected\n"))
      << summary;
  EXPECT_FALSE(contains(human_summary(run.record, metrics), "trace"));
}

TEST(LostWorkNotice, ItsShareIsSummaryJsonsLostShare) {
  // Jobs' runs held 3 GPU-hours, 1 of them thrown away: lost / (lost + useful) = 1 / 3.
  StoppedRun run;
  run.record.run_gpu_seconds = 3 * 3600;
  run.record.lost_gpu_seconds = 3600;
  const RunMetrics m = compute_run_metrics(run.jobs, run.record);
  EXPECT_DOUBLE_EQ(run.summary()["preemptions"]["lost_share"].get<double>(), 1.0 / 3);
  const std::string notice = lost_work_notice(m);
  EXPECT_TRUE(contains(notice, "threw away 1.00 GPU-hours, 33.3% of the 3.00 GPU-hours jobs ran (the lost share"))
      << notice;
  EXPECT_TRUE(contains(human_summary(run.record, m),
                       "1.00 GPU-hours lost (33.3% of the GPU time jobs ran, the lost "
                       "share)"))
      << human_summary(run.record, m);
}

// ---- GPU types ------------------------------------------------------------------------

// Node t4: GPUs 0, 1 (T4, 65 TFLOP/s); node a10: GPUs 2, 3 (A10, 125 TFLOP/s).
struct TwoTypeRun {
  ClusterLayout layout{[] {
    ClusterSpec spec;
    spec.name = "two-types";
    spec.gpu_types = {{"T4", 65e12, 16e9}, {"A10", 125e12, 24e9}};
    spec.node_groups = {testing::crafted_node_group("t4", 1, 2, "T4"), testing::crafted_node_group("a10", 1, 2, "A10")};
    return spec;
  }()};
  std::vector<JobSpec> jobs;
  RunRecord record;
  TwoTypeRun() {
    for (const char* id : {"across", "a10", "waiting", "slow-on-a10"}) {
      JobSpec job;
      job.id = id;
      job.gpus = 2;
      job.gpu_types = {"T4", "A10"};
      job.work = TrainingWork{1e12, 0, 10, {}};
      jobs.push_back(job);
    }
    // The model takes 4x the FLOPs on an A10: 125 / 4 = 31.25 TFLOP/s in effect, below the T4's 65.
    std::get<TrainingWork>(jobs[3].work).set_flops_on("A10", 4e12);
    record.outcomes.resize(4);
    record.outcomes[0].gpus = {1, 2};
    record.outcomes[1].gpus = {2, 3};
    record.outcomes[3].gpus = {1, 2};
    record.simulated_time = 10;
  }
  // jobs.csv's cells of `column`, by job id.
  std::map<std::string, std::string> column(const std::string& name) const {
    const std::vector<CsvRecord> rows = read_csv_records(jobs_csv(jobs, layout, record), "jobs.csv");
    const auto& header = rows.front().fields;
    const auto at = static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    const auto id = static_cast<std::size_t>(std::find(header.begin(), header.end(), "id") - header.begin());
    std::map<std::string, std::string> cells;
    for (std::size_t r = 1; r < rows.size(); ++r)
      cells[rows[r].fields.at(id)] = at < rows[r].fields.size() ? rows[r].fields[at] : "(no column)";
    return cells;
  }
};

TEST(GpuTypesInTheOutputs, JobsCsvNamesTheTypesOfEachJobsGpus) {
  const auto types = TwoTypeRun().column("gpu_types");
  EXPECT_EQ(types.at("across"), "T4;A10");
  EXPECT_EQ(types.at("a10"), "A10");
  EXPECT_EQ(types.at("waiting"), "");
}

TEST(GpuTypesInTheOutputs, JobsCsvNamesTheTypeWhoseSpeedTheJobRanAt) {
  const auto pace = TwoTypeRun().column("pace_gpu_type");
  EXPECT_EQ(pace.at("across"), "T4");  // the slower by FLOP/s
  EXPECT_EQ(pace.at("a10"), "A10");
  EXPECT_EQ(pace.at("waiting"), "");
  EXPECT_EQ(pace.at("slow-on-a10"), "A10");  // the slower for this model
}

TEST(GpuTypesInTheOutputs, SummaryCountsTheJobsAcrossGpuTypes) {
  const TwoTypeRun run;
  const auto summary = nlohmann::json::parse(summary_json(
      run.jobs, run.layout, run.record, compute_run_metrics(run.jobs, run.record), {false, {}, std::nullopt}));
  EXPECT_EQ(summary["jobs_across_gpu_types"], 2);
  EXPECT_EQ(jobs_across_gpu_types(run.layout, run.record), 2u);
}

// ---- Serving replicas ------------------------------------------------------------------

// A deployment submitted at 50 s with three replica slots, as the recorder
// leaves them: "svc" ran 50-150 s; "svc#2" was asked for at 80 s and let go
// at 120 s before it got a GPU; "svc#3" was never asked for.
TEST(ServingReplicaRows, JobsCsvLeavesOutWhatAReplicaNeverDid) {
  ClusterSpec spec;
  spec.name = "crafted";
  spec.gpu_types = {{"GPU", 1e12, 32e9}};
  spec.node_groups = {testing::crafted_node_group("n", 1, 4, "GPU")};
  const ClusterLayout layout(spec);
  const auto deployment = std::make_shared<ServingSpec>();
  std::vector<JobSpec> jobs(3);
  for (std::uint32_t k = 0; k < 3; ++k) {
    jobs[k].id = k == 0 ? "svc" : "svc#" + std::to_string(k + 1);
    jobs[k].gpus = 1;
    jobs[k].submit = 50;
    jobs[k].work = ServingWork{deployment, k};
  }
  RunRecord record;
  record.outcomes.resize(3);
  record.outcomes[0] = {JobState::kFinished, 50, 150, {0}};
  record.outcomes[0].submitted = 50;
  record.outcomes[0].uncontended = 100;
  record.outcomes[1].state = JobState::kWaiting;
  record.outcomes[1].submitted = 80;
  record.outcomes[1].end = 120;
  record.outcomes[1].uncontended = 0;
  record.outcomes[2].uncontended = 0;
  record.simulated_time = 150;
  const std::vector<CsvRecord> rows = read_csv_records(jobs_csv(jobs, layout, record), "jobs.csv");
  const std::vector<std::string>& header = rows.front().fields;
  const auto cell = [&](std::size_t row, const std::string& column) {
    return rows.at(row).fields.at(
        static_cast<std::size_t>(std::find(header.begin(), header.end(), column) - header.begin()));
  };
  EXPECT_EQ(cell(1, "jct"), "100.000000");
  EXPECT_EQ(cell(1, "uncontended"), "100.000000");
  EXPECT_EQ(cell(2, "state"), "waiting");
  EXPECT_EQ(cell(2, "submit"), "80.000000");
  EXPECT_EQ(cell(2, "end"), "120.000000");  // when it was let go
  EXPECT_EQ(cell(2, "wait"), "");
  EXPECT_EQ(cell(2, "jct"), "");  // it completed nothing
  EXPECT_EQ(cell(3, "state"), "pending");
  EXPECT_EQ(cell(3, "submit"), "");  // not the deployment's 50 s: it was never asked for
  EXPECT_EQ(cell(3, "end"), "");
  EXPECT_EQ(cell(3, "uncontended"), "0.000000");
  // Read back, an empty submit is no submission.
  const std::vector<JobsCsvRow> read = parse_jobs_csv(jobs_csv(jobs, layout, record), "jobs.csv");
  EXPECT_EQ(read.at(2).submit, kNever);
  EXPECT_EQ(read.at(1).submit, 80);
}

}  // namespace
}  // namespace gcsim
