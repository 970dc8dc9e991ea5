#include "app/replay_score_command.hpp"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "app/commands.hpp"
#include "app/startup_latency_arguments.hpp"
#include "app/python_plots.hpp"
#include "app/run_request.hpp"
#include "sim/core/input_error.hpp"
#include "sim/core/usage_error.hpp"
#include "sim/io/atomic_output.hpp"
#include "sim/report/replay_score.hpp"
#include "sim/report/replay_score_outputs.hpp"
#include "sim/report/run_output_reader.hpp"
#include "traces/trace_formats.hpp"

namespace gcsim {
namespace {

namespace fs = std::filesystem;

const char* const kPlots[] = {"score_wait_cdf.png", "score_scatter.png", "score_gpus.png"};

std::vector<ReplayJob> replay_jobs(const RunResult& result) {
  std::vector<ReplayJob> jobs;
  jobs.reserve(result.jobs.size());
  const bool waited = result.recorded_waits.size() == result.jobs.size();
  const bool startup = result.record.first_startup.size() == result.jobs.size();
  for (std::size_t i = 0; i < result.jobs.size(); ++i) {
    const JobSpec& spec = result.jobs[i];
    const JobOutcome& outcome = result.record.outcomes[i];
    ReplayJob job;
    job.id = spec.id;
    job.user = spec.user;
    job.queue = spec.queue;
    job.gpus = spec.gpus * (spec.gpu_share < 1 ? spec.gpu_share : 1.0);
    job.submit = spec.submit;
    job.recorded_wait = waited ? result.recorded_waits[i] : std::nan("");
    if (const auto* measured = std::get_if<MeasuredWork>(&spec.work)) job.recorded_run = measured->seconds;
    // A trace's start is when the job began running: after its start-up latency, where one is modelled.
    job.simulated_start =
        outcome.start == kNever ? kNever : outcome.start + (startup ? result.record.first_startup[i] : 0);
    jobs.push_back(std::move(job));
  }
  return jobs;
}

// The plots drawn from the score's CSV files in a folder of their own; nothing (and why) when they cannot be.
std::optional<std::string> draw_plots(const std::string& jobs_csv, const std::string& gpus_csv,
                                      std::vector<std::pair<std::string, std::string>>& pngs) {
  std::string folder = (fs::temp_directory_path() / "gcsim-score-XXXXXX").string();
  if (!mkdtemp(folder.data())) return "cannot make a temporary folder for the plots";
  write_file_atomically(folder + "/score_jobs.csv", jobs_csv);
  write_file_atomically(folder + "/score_gpus.csv", gpus_csv);
  std::string output;
  std::optional<std::string> problem = run_plot_script("plot_replay_score.py", {folder}, output);
  if (!problem)
    for (const char* name : kPlots) pngs.emplace_back(name, read_whole_file(folder + "/" + name));
  std::error_code ignored;
  fs::remove_all(folder, ignored);
  return problem;
}

}  // namespace

std::vector<FlagSpec> replay_score_flags() {
  return {{"trace"},       {"cluster"}, {"policy"}, {"trace-opt", true, true}, {"policy-opt", true, true},
          {"placement"},   {"seed"},    {"top"},    {"whole-gpus", false},     {"startup-latency"},
          {"startup-seed"}};
}

int score_trace_replay(const Arguments& args) {
  RunRequest request;
  request.workload = args.required("trace");
  const WorkloadSource source = parse_workload_source(request.workload);
  if (!source.format || *source.format == TraceFormat::kNative)
    throw UsageError(
        "option '--trace' expects FORMAT:FILE, a trace that records when its jobs started (FORMAT one "
        "of csv, swf, helios, pai, philly), got '" +
        request.workload + "'");
  request.cluster = args.required("cluster");
  request.policy = args.required("policy");
  request.trace_settings = args.all("trace-opt");
  request.policy_settings = args.all("policy-opt");
  request.placement = args.value_or("placement", "");
  request.seed = args.uint_or("seed", 0);
  request.whole_gpus = args.has("whole-gpus");
  const StartupLatencyFlags startup = startup_latency_flags(args);
  request.startup_latency = startup.model;
  request.startup_seed = startup.seed;
  request.wall_time = false;
  const std::uint64_t top = args.uint_or("top", 10);
  const PlotMode plots = parse_plot_mode(args.value_or("plots", "auto"));
  const std::string out_dir = args.value_or("out", "out/score");

  const RunResult result = run_simulation(request, std::cerr);
  const bool any_recorded = std::any_of(result.recorded_waits.begin(), result.recorded_waits.end(),
                                        [](double wait) { return !std::isnan(wait); });
  if (!any_recorded)
    throw InputError(source.path, "", "start",
                     "the trace records no job's start, so there is no recorded schedule to score the replay "
                     "against (a CSV needs start= and end= in its map, an SWF log its wait field 3)");
  const std::vector<ReplayJob> jobs = replay_jobs(result);
  const ReplayScore score = score_replay(jobs, result.record.timeline, top);
  const ReplayScoreContext context{request.workload, request.cluster, request.policy, request.startup_latency};

  std::ostringstream jobs_csv, gpus_csv;
  write_score_jobs_csv(jobs_csv, jobs);
  write_score_gpus_csv(gpus_csv, score);
  const std::string markdown = score_markdown(score, context);
  std::vector<std::pair<std::string, std::string>> pngs;
  std::optional<std::string> plot_problem;
  if (plots != PlotMode::kNo) plot_problem = draw_plots(jobs_csv.str(), gpus_csv.str(), pngs);
  OutputSet out(out_dir);
  out.stage("score.json", score_json(score, context).dump(1) + "\n");
  out.stage("score.md", markdown);
  out.stage("score_jobs.csv", jobs_csv.str());
  out.stage("score_gpus.csv", gpus_csv.str());
  for (const auto& [name, png] : pngs) out.stage(name, png);
  out.commit();
  if (!args.has("quiet")) std::cout << markdown;
  std::cout << "gcsim validate: wrote " << out_dir << "/score.md, score.json, score_jobs.csv, score_gpus.csv"
            << (pngs.empty() ? "" : ", score_wait_cdf.png, score_scatter.png, score_gpus.png") << "\n";
  if (plot_problem) {
    std::cerr << "gcsim validate: no plot: " << *plot_problem << "\n";
    if (plots == PlotMode::kYes) return exit_codes::kPlotError;
  }
  return exit_codes::kOk;
}

}  // namespace gcsim
