// `gcsim compare`: run one workload on one cluster under several policies and
// tabulate the results side by side.
//
// SimGrid allows one engine per process, so each policy runs in a child
// `gcsim run` (this executable again, no shell), one after the other; compare
// then reads back what each run wrote.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "policies/register_builtin.hpp"
#include "app/arguments.hpp"
#include "app/child_process.hpp"
#include "app/commands.hpp"
#include "app/interrupt_signals.hpp"
#include "app/policy_option_flags.hpp"
#include "app/plugin_loader.hpp"
#include "app/python_plots.hpp"
#include "sim/core/input_error.hpp"
#include "sim/io/atomic_output.hpp"
#include "sim/report/comparison_table.hpp"
#include "sim/report/run_output_reader.hpp"
#include "sim/topology/cluster_reader.hpp"
#include "app/trace_request.hpp"
#include "workloads/native_workload.hpp"
#include "workloads/workload_validation.hpp"

namespace gcsim {
namespace {
namespace fs = std::filesystem;

constexpr const char* kCompareUsage = R"(usage: gcsim compare --policies NAME,NAME,... --cluster CLUSTER.json
                     --workload WORKLOAD.json --out DIR [--seed N] [--trace-opt KEY=VALUE ...]
                     [--fidelity job|iteration] [--job-rounds R] [--placement NAME]
                     [--policy-opt KEY=VALUE ...] [--plugin LIB.so ...] [--plots auto|yes|no]
                     [--whole-gpus] [--gpu-memory-isolation on|off] [--check] [--no-wall-time]
                     [--contention] [--energy] [--html] [--quiet]

Runs the workload on the cluster once per policy, in the order given, each as
its own `gcsim run` writing DIR/runs/POLICY/ (summary.json, jobs.csv,
timeline.csv), then writes one row per policy to
  DIR/comparison.csv   every figure in its shortest exact form ("n/a" where undefined)
  DIR/comparison.md    the same as a Markdown table, with a key to the columns
and, with matplotlib, plots of them (see --plots). Policy names, the
placement, the options and the input files are all checked before any run
starts; nothing is written when one is wrong.

Options:
  --policies LIST     comma-separated policies, each at most once (gcsim policies lists them)
  --cluster FILE      cluster description (JSON, see docs/cluster-format.md)
  --workload FILE     jobs (gcsim's native JSON, see docs/workload-format.md), or
                      FORMAT:FILE to replay a trace (philly, swf, helios, pai, csv)
  --trace-opt K=V     a trace reader, selection, work or checkpoint setting,
                      handed to every run (see gcsim run --help);
                      repeatable
  --out DIR           output directory (created if missing)
  --seed N            seed handed to every run (default 0)
  --fidelity F        job (default) or iteration, for every run (see gcsim run --help)
  --job-rounds R      job fidelity rounds for every run (see gcsim run --help)
  --placement NAME    placement for every policy (default: each policy's own)
  --policy-opt K=V    an option handed to every policy; repeatable
  --plugin LIB.so     load policies from a library (see gcsim run --help); repeatable
  --whole-gpus        every run gives whole GPUs to jobs asking a fraction of one
  --check             every run audits its schedule (gcsim run --help); a broken
                      invariant stops the comparison with status 16
  --gpu-memory-isolation on|off
                      every run's GPU memory isolation (gcsim run --help)
  --node-failures FILE
                      every run replays these node failures (gcsim run --help)
                      (see gcsim run --help), as policies that do not share GPUs need
  --plots WHEN        auto (default): draw the plots when a Python with matplotlib
                      is found, otherwise say so and go on; yes: fail (exit 6)
                      without one; no: do not plot
  --html              also write DIR/report.html: one self-contained page (plotly's
                      JavaScript embedded, it opens offline) of the CDFs, the
                      allocation over time, a zoomable Gantt chart per policy and
                      comparison.md's tables (see below); needs a Python with
                      plotly (Debian: python3-plotly), checked before any run
                      starts: without one, compare fails (exit 6) running nothing
  --contention        every run writes who slowed whom (gcsim run --help:
                      contention.csv, link_utilization.csv), and the plots
                      add contention_POLICY.png
  --energy            every run accounts the energy drawn (gcsim run --help:
                      power.csv, jobs.csv's and summary.json's energy), and the
                      tables add its kWh and peak kW
  --no-wall-time      every run leaves wall time out of its summary.json, and
                      wall_time_s is n/a: byte-identical reruns
  --quiet             print only errors and notices

Columns (comparison.csv; times in seconds, over finished jobs):
  policy, jobs, finished, failed, unfinished
  finished_jobs               finished/jobs: the jobs the time figures cover
                              (comparison.md marks a row that leaves some out
                              with a dagger and says why under the table)
  jct_mean_s, jct_p50_s, jct_p95_s, jct_p99_s     job completion time = end - submit
  wait_mean_s, wait_p50_s, wait_p95_s, wait_p99_s queueing delay = first start - submit
  makespan_s                  first submission to last completion
  gpu_util_allocated          time-weighted share of GPUs held by jobs over the makespan
  gpu_util_busy               time-weighted share of GPUs computing over the makespan
  fragmentation               time-weighted share of GPUs free while at least one job
                              waits: integral of (total - allocated) * [queued > 0] dt
                              / (total * makespan), from timeline.csv
  preemptions, lost_gpu_hours from summary.json: preemptions and the GPU time of
                              preempted runs that was thrown away
  lost_share                  from summary.json: lost / (lost + useful) GPU time,
                              the share of the GPU time jobs ran that was thrown away
  jain_fairness_slowdown      Jain's index (sum x)^2 / (n sum x^2) over users of each
                              user's mean slowdown (slowdown = jct / uncontended run
                              time); 1 = every user slowed down alike; n/a
                              with fewer than two users
  ftf_rho_max, ftf_rho_mean   finish-time fairness rho (Themis, NSDI'20): shared over
                              isolated finish time, the isolated time approximated by
                              the uncontended run time, so rho = jct / uncontended
                              (both slowdown figures leave serving replicas out)
  queue_guarantee_attainment  the least over a capacity scheduler's leaf queues of the
                              time-weighted attainment of their guarantees, as each run's
                              summary.json gives them ("queues"):
                              while the queue has demand (GPUs of its jobs submitted and
                              not ended), the mean of min(1, its running jobs' GPUs /
                              min(demand, absolute capacity x cluster GPUs)); a job counts
                              as running from its first start to its end. n/a for
                              policies without capacity queues. comparison.md adds a
                              table of every queue's attainment
  deadlocks, deadlock_at_s    1 and the detection time when the run deadlocked, else 0, n/a
  stopped, stopped_at_s       why the run stopped before its end (none, deadlock,
                              livelock, thrashing, signal) and when, else n/a
  wall_time_s                 host time the run spent simulating
  energy_kwh, facility_kwh, peak_kw
                              with --energy: the IT energy drawn (GPUs and nodes'
                              base), the same times the cluster's PUE, and the
                              highest IT power, from summary.json's "energy"

Plots (scripts/plot_comparison.py, which reads only the files above and also
runs alone: python3 scripts/plot_comparison.py DIR):
  DIR/jct_cdf.png, DIR/wait_cdf.png   CDFs of JCT and queueing delay per policy
  DIR/utilization.png                 allocated GPUs over time per policy
  DIR/power.png                       with --energy: the cluster's IT power over
                                      time per policy, each peak in the legend
  DIR/gantt_POLICY.png                GPUs over time, one bar per job (runs of at
                                      most 200 jobs)
  DIR/contention_POLICY.png           with --contention: the share of its run each
                                      job lost to contention, and the busiest
                                      links' use over time as a heatmap
The interpreter is the first that can `import matplotlib` of: $GCSIM_PYTHON,
/usr/bin/python3, python3 on PATH. The script is looked for in
$GCSIM_SCRIPTS_DIR, else in the scripts/ folder of the source tree gcsim was
built from.

The HTML report (--html; scripts/report_comparison.py, which also runs alone:
python3 scripts/report_comparison.py DIR) is written by the first of the same
interpreters that can `import plotly`, staged and renamed into place. It holds
the JCT and queueing delay CDFs and the allocation over time per policy, a
Gantt chart per policy whose bars name their job, GPUs, start and end on hover,
and comparison.md's tables. A big run stays a page a browser opens: a Gantt
chart holds at most 5000 bars (the jobs in order of their first start, the page
says how many of how many), a CDF at most 2000 points, an allocation curve at
most 4000. The page is about 9 MB (plotly.js) plus the runs' points.

A run that ends in a deadlock, or that gcsim run stops as a livelock or as
thrashing (see gcsim run --help), is a result, not a failure: compare says so
with the run's messages and goes on; its row says why and when it stopped
(stopped, stopped_at_s), counts the jobs it finished (its figures cover only
those: comparison.md marks the row), its preemptions, the GPU-hours they lost
and the lost share, and its summary.json has the run's report. A run whose
lost share exceeds 10% has its notice shown.

Exit status: 0 success (runs ended by a deadlock, a livelock or thrashing
included), 1 bad input file, 2 bad command line, unknown or repeated policy,
3 a policy returned an invalid plan or failed, 4 outputs could not be read or
written, 11 a run ran out of memory, 12 a failure inside gcsim (for 1, 3, 4,
11 and 12 the failing run's messages are shown), 6 --plots yes and the plots
could not be drawn, or --html and the report cannot be written (no Python
with plotly: nothing runs), 7 a run could not be started or was killed, 15
SIGINT or SIGTERM stopped the comparison (no report.html then).

SIGINT or SIGTERM is passed on to the run under way, which stops and writes
its outputs marked partial (see gcsim run --help); the policies after it do
not run. compare then writes the comparison of the runs that wrote outputs,
at once: comparison.md opens with what stopped and what did not run, and
DIR/partial.json lists the signal, the policies done, the one stopped
early and those not run (a complete comparison removes it). A second
signal ends compare and its run at once, leaving no half-written file. A
run whose compare is killed gets SIGTERM and writes its partial outputs.
)";

std::vector<std::string> parse_policy_list(const std::string& text) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  std::istringstream in(text);
  std::string name;
  while (std::getline(in, name, ',')) {
    if (name.empty()) throw UsageError("option '--policies' has an empty name in '" + text + "'");
    if (name == "." || name == ".." || name.find('/') != std::string::npos)
      throw UsageError("policy name '" + name + "' cannot name a run directory");
    if (!seen.insert(name).second)
      throw UsageError("policy '" + name + "' is listed twice in '--policies'; each policy runs once");
    names.push_back(name);
  }
  if (names.empty() || text.back() == ',')
    throw UsageError("option '--policies' expects NAME,NAME,..., got '" + text + "'");
  return names;
}

RunOutputs read_run_outputs(const std::string& dir) {
  RunOutputs run;
  const std::string summary = dir + "/summary.json", jobs = dir + "/jobs.csv", timeline = dir + "/timeline.csv";
  run.summary = parse_summary_json(read_whole_file(summary), summary);
  run.jobs = parse_jobs_csv(read_whole_file(jobs), jobs);
  run.timeline = parse_timeline_csv(read_whole_file(timeline), timeline);
  return run;
}

/// Runs one policy as a child `gcsim run` (this executable, no shell) and
/// returns kOk, a run stopped early included, or the exit status compare
/// should end with.
int run_policy(const std::string& policy, const std::vector<std::string>& common_args, const std::string& run_dir) {
  std::vector<std::string> args{"run", "--policy", policy, "--out", run_dir, "--quiet"};
  args.insert(args.end(), common_args.begin(), common_args.end());
  const ChildResult result = run_child("/proc/self/exe", args);
  if (result.exit_code == exit_codes::kOk) {
    // The run's notice on the work its preemptions threw away (its last words; trace notes come before).
    if (const auto notice = result.output.find("gcsim: notice: preemptions"); notice != std::string::npos)
      std::cerr << "gcsim compare: policy '" << policy << "': " << result.output.substr(notice + 7);
    return exit_codes::kOk;
  }
  if (result.exit_code == exit_codes::kInterrupted) {
    std::cerr << "gcsim compare: notice: the run of policy '" << policy
              << "' was interrupted; its outputs are partial:\n"
              << result.output;
    return exit_codes::kInterrupted;
  }
  const char* stopped = result.exit_code == exit_codes::kDeadlock    ? "ended in a deadlock"
                        : result.exit_code == exit_codes::kLivelock  ? "was stopped as a livelock"
                        : result.exit_code == exit_codes::kThrashing ? "was stopped as thrashing"
                                                                     : nullptr;
  if (stopped) {
    std::cerr << "gcsim compare: notice: policy '" << policy << "' " << stopped
              << " (comparison.csv and .md: the stopped and lost_share columns, its figures over the jobs that "
                 "finished marked in the .md; and its summary.json):\n"
              << result.output;
    return exit_codes::kOk;
  }
  std::cerr << "gcsim compare: error: the run of policy '" << policy << "' failed (exit status " << result.exit_code
            << "); its messages:\n"
            << result.output;
  const bool known = result.exit_code == exit_codes::kInputError || result.exit_code == exit_codes::kUsage ||
                     result.exit_code == exit_codes::kPolicyBug || result.exit_code == exit_codes::kOutputError ||
                     result.exit_code == exit_codes::kOutOfMemory || result.exit_code == exit_codes::kInternalError;
  return known ? result.exit_code : exit_codes::kRunFailed;
}

// ---- plots ------------------------------------------------------------------------------

/// Writes DIR/report.html (--html).
constexpr const char* kHtmlReportScript = "report_comparison.py";

/// Draws the plots; returns an explanation when they could not be drawn.
std::optional<std::string> draw_plots(const std::string& out_dir, bool quiet) {
  std::string output;
  if (auto problem = run_plot_script("plot_comparison.py", {out_dir}, output)) return problem;
  if (!quiet) std::cout << output;
  return std::nullopt;
}

/// After SIGINT or SIGTERM: the comparison of the runs that wrote outputs
/// (`partial_run`'s partial), marked partial in comparison.md and
/// partial.json, written at once; ends with kInterrupted.
int write_partial_comparison(const std::string& out_dir, const std::vector<std::string>& policies,
                             const std::vector<std::string>& ran, const std::string& partial_run, bool quiet) {
  std::vector<ComparisonRow> rows;
  nlohmann::ordered_json not_run = nlohmann::ordered_json::array();
  for (const std::string& policy : policies)
    if (std::find(ran.begin(), ran.end(), policy) == ran.end()) not_run.push_back(policy);
  nlohmann::ordered_json partial{
      {"signal", signal_name(interrupt_signal())},
      {"policies_done", nlohmann::ordered_json::array()},
      {"policy_partial", partial_run.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(partial_run)},
      {"policies_not_run", std::move(not_run)}};
  for (const std::string& policy : ran)
    if (policy != partial_run) partial["policies_done"].push_back(policy);
  std::string note = std::string("Partial: ") + signal_name(interrupt_signal()) + " stopped the comparison.";
  if (!partial_run.empty()) note += " The run of " + partial_run + " stopped early (its summary.json: \"partial\").";
  if (!partial["policies_not_run"].empty()) note += " Not run: " + partial["policies_not_run"].dump() + ".";
  try {
    for (const std::string& policy : ran)
      rows.push_back(comparison_row(policy, read_run_outputs(out_dir + "/runs/" + policy)));
    OutputSet out(out_dir);
    out.stage("comparison.csv", comparison_csv(rows));
    out.stage("comparison.md", note + "\n\n" + comparison_markdown(rows));
    out.stage("partial.json", partial.dump(2) + "\n");
    out.commit();
  } catch (const std::runtime_error& e) {
    std::cerr << "gcsim compare: error: " << e.what() << "\n";
    return exit_codes::kOutputError;
  }
  std::cerr << "gcsim compare: " << note << " Written: " << out_dir << "/comparison.csv, comparison.md, partial.json\n";
  if (!quiet) std::cout << "\n" << comparison_markdown(rows) << "\n";
  return exit_codes::kInterrupted;
}

int compare_policies(const Arguments& args) {
  const std::vector<std::string> policies = parse_policy_list(args.required("policies"));
  const std::string cluster_path = args.required("cluster");
  const std::string workload_path = args.required("workload");
  const std::string out_dir = args.required("out");
  const std::uint64_t seed = args.uint_or("seed", 0);
  const std::string fidelity = args.value_or("fidelity", "job");
  if (fidelity != "job" && fidelity != "iteration")
    throw UsageError("option '--fidelity' must be 'job' or 'iteration', got '" + fidelity + "'");
  const PlotMode plots = parse_plot_mode(args.value_or("plots", "auto"));
  const bool quiet = args.has("quiet");
  const bool html = args.has("html");
  // Before anything runs: a report that cannot be written is a comparison not worth starting.
  if (html)
    if (const auto problem = script_problem(kHtmlReportScript, kPlotly)) {
      std::cerr << "gcsim compare: error: --html: cannot write the HTML report: " << *problem << "\n";
      return exit_codes::kPlotError;
    }

  // Everything the runs would reject is found before the first one starts.
  PolicyRegistry registry;
  register_builtin(registry);
  for (const std::string& plugin : args.all("plugin")) load_policy_plugin(plugin, registry);
  // Options go to the policies that take them; one that no policy takes is a mistake.
  const PolicyOptions given = policy_options(args.all("policy-opt"), seed);
  std::map<std::string, std::vector<std::string>> own_options;  // policy -> its --policy-opt pairs
  std::set<std::string> taken;
  std::vector<std::unique_ptr<SchedulingPolicy>> made_policies;
  for (const std::string& policy : policies) {
    std::vector<std::string> unused;
    try {
      auto made =
          registry.make_policy_reporting_unused(policy, PolicyOptions(given), args.value_or("placement", ""), unused);
      made_policies.push_back(std::move(made));
    } catch (const UnknownPolicy&) {
      throw;
    } catch (const std::invalid_argument& e) {
      throw UsageError("invalid policy option for '" + policy + "': " + e.what());
    }
    for (const std::string& pair : args.all("policy-opt")) {
      const std::string key = pair.substr(0, pair.find('='));
      if (std::find(unused.begin(), unused.end(), key) != unused.end()) continue;
      own_options[policy].push_back(pair);
      taken.insert(key);
    }
  }
  for (const std::string& pair : args.all("policy-opt"))
    if (!taken.count(pair.substr(0, pair.find('='))))
      throw UsageError("no policy of '--policies' takes the option '" + pair + "'");
  const ClusterLayout layout(read_cluster_file(cluster_path));
  std::ostringstream trace_notes;
  std::vector<JobSpec> jobs = read_workload_argument(workload_path, args.all("trace-opt"), trace_notes, &layout);
  if (args.has("whole-gpus")) give_whole_gpus(jobs);
  validate_workload_against_cluster(jobs, layout, workload_path);
  for (const auto& policy : made_policies) validate_workload_for_policy(jobs, *policy, workload_path);
  if (!quiet) std::cout << trace_notes.str();

  std::vector<std::string> common{"--cluster", cluster_path,         "--workload", workload_path,
                                  "--seed",    std::to_string(seed), "--fidelity", fidelity};
  if (args.has("placement")) common.insert(common.end(), {"--placement", args.required("placement")});
  if (args.has("job-rounds")) common.insert(common.end(), {"--job-rounds", args.required("job-rounds")});
  for (const std::string& plugin : args.all("plugin")) common.insert(common.end(), {"--plugin", plugin});
  for (const std::string& setting : args.all("trace-opt")) common.insert(common.end(), {"--trace-opt", setting});
  if (args.has("whole-gpus")) common.push_back("--whole-gpus");
  if (args.has("check")) common.push_back("--check");
  if (args.has("no-wall-time")) common.push_back("--no-wall-time");
  if (args.has("contention")) common.push_back("--contention");
  if (args.has("energy")) common.push_back("--energy");
  if (args.has("node-failures")) common.insert(common.end(), {"--node-failures", args.required("node-failures")});
  if (args.has("gpu-memory-isolation"))
    common.insert(common.end(), {"--gpu-memory-isolation", args.required("gpu-memory-isolation")});

  // A signal stops the run under way (it writes its partial outputs) and
  // the runs after it; the comparison then holds the runs that wrote outputs.
  catch_interrupt_signals();
  std::vector<std::string> ran;
  std::string partial_run;  // the run the signal stopped, if it wrote its outputs
  for (std::size_t i = 0; i < policies.size() && interrupt_signal() == 0; ++i) {
    if (!quiet) std::cout << "gcsim compare: [" << i + 1 << "/" << policies.size() << "] " << policies[i] << std::endl;
    std::vector<std::string> args_of_run = common;
    for (const std::string& pair : own_options[policies[i]])
      args_of_run.insert(args_of_run.end(), {"--policy-opt", pair});
    const int status = run_policy(policies[i], args_of_run, out_dir + "/runs/" + policies[i]);
    if (status == exit_codes::kInterrupted) {
      ran.push_back(policies[i]);
      partial_run = policies[i];
      break;
    }
    if (status != exit_codes::kOk) {
      if (interrupt_signal() != 0) break;  // the signal ended the run before it could write anything
      return status;
    }
    ran.push_back(policies[i]);
  }
  if (interrupt_signal() != 0) return write_partial_comparison(out_dir, policies, ran, partial_run, quiet);

  std::vector<ComparisonRow> rows;
  try {
    // Each run's summary.json carries its policy's queue guarantees: compare reads only run outputs.
    for (const std::string& policy : policies)
      rows.push_back(comparison_row(policy, read_run_outputs(out_dir + "/runs/" + policy)));
    OutputSet out(out_dir);
    out.stage("comparison.csv", comparison_csv(rows));
    out.stage("comparison.md", comparison_markdown(rows));
    out.commit();
    // A complete comparison replaces an interrupted one.
    std::error_code ignored;
    fs::remove(fs::path(out_dir) / "partial.json", ignored);
  } catch (const std::runtime_error& e) {  // InputError included: a run's file did not parse
    std::cerr << "gcsim compare: error: " << e.what() << "\n";
    return exit_codes::kOutputError;
  }
  if (!quiet) std::cout << "\n" << comparison_markdown(rows) << "\n";

  if (plots != PlotMode::kNo) {
    if (const auto problem = draw_plots(out_dir, quiet)) {
      if (plots == PlotMode::kYes) {
        std::cerr << "gcsim compare: error: cannot draw the plots: " << *problem << "\n";
        return exit_codes::kPlotError;
      }
      std::cerr << "gcsim compare: notice: plots skipped: " << *problem << "\n"
                << "gcsim compare: the table is written (" << out_dir << "/comparison.csv, comparison.md)\n";
    }
  }
  if (html) {
    std::string output;
    if (const auto problem = run_plot_script(kHtmlReportScript, {out_dir}, output, kPlotly)) {
      std::cerr << "gcsim compare: error: --html: cannot write the HTML report: " << *problem << "\n";
      return exit_codes::kPlotError;
    }
    if (!quiet) std::cout << output;
  }
  if (!quiet) std::cout << "  outputs     " << out_dir << "/\n";
  return exit_codes::kOk;
}

}  // namespace

Command compare_command() {
  Command command{"compare",
                  "run a workload under several policies and tabulate the results",
                  kCompareUsage,
                  {{"policies"},
                   {"cluster"},
                   {"workload"},
                   {"out"},
                   {"seed"},
                   {"fidelity"},
                   {"job-rounds"},
                   {"placement"},
                   {"policy-opt", true, true},
                   {"plugin", true, true},
                   {"plots"},
                   {"quiet", false},
                   {"no-wall-time", false},
                   {"contention", false},
                   {"energy", false},
                   {"html", false},
                   {"trace-opt", true, true},
                   {"whole-gpus", false},
                   {"check", false},
                   {"gpu-memory-isolation"},
                   {"node-failures"}},
                  compare_policies};
  // What else fails is a run's process that could not be created.
  command.other_failure = OtherFailure{exit_codes::kRunFailed, "gcsim compare: error: "};
  return command;
}

}  // namespace gcsim
