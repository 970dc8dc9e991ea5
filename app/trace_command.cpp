// `gcsim trace`: inspect a real cluster trace and convert it into a workload.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "app/arguments.hpp"
#include "app/commands.hpp"
#include "app/output_files.hpp"
#include "app/trace_cluster_command.hpp"
#include "app/trace_request.hpp"
#include "sim/core/cluster_layout.hpp"
#include "sim/core/input_error.hpp"
#include "sim/core/number_text.hpp"
#include "sim/core/statistics.hpp"
#include "sim/io/atomic_output.hpp"
#include "sim/topology/cluster_reader.hpp"
#include "sim/io/json_input.hpp"
#include "traces/fit_report.hpp"
#include "workloads/fitted_generator.hpp"
#include "workloads/native_workload.hpp"
#include "traces/trace_fit.hpp"
#include "traces/pai_trace.hpp"
#include "traces/swf_trace.hpp"
#include "traces/trace_formats.hpp"
#include "traces/trace_stats.hpp"

namespace gcsim {
namespace {

constexpr const char* kTraceUsage =
    R"(usage: gcsim trace stats FILE --format FORMAT [--cluster CLUSTER.json] [--json OUT.json] [READER OPTIONS]
       gcsim trace convert FILE --format FORMAT --to native|swf --out OUT [--cluster-out CLUSTER.json]
                           [--cluster CLUSTER.json] [READER OPTIONS]
       gcsim trace fit FILE --format FORMAT --out GEN.json [--report REPORT.md] [--jobs N]
                       [--synth-seed S] [--synthetic-out WORKLOAD.json]
                       [--startup-latency-out LATENCY.txt] [READER OPTIONS]
       gcsim trace synth GEN.json --out WORKLOAD.json [--jobs N] [--seed S]

stats    summarises what the trace holds: jobs, submission span, GPUs per job,
         GPU-hours, run times, offered load (GPU-hours / (GPUs x submission span))
         against --cluster (else the traced machine, where the trace names it),
         jobs larger than that, status counts, and every skipped row counted per
         reason with its first line numbers. --json writes the same as JSON.
convert  writes the jobs as a gcsim workload (--to native, for 'gcsim run
         --workload') or as SWF (--to swf: what both formats hold). For a PAI
         trace, --cluster-out writes pai_machine_spec as a gcsim cluster: every
         machine with GPUs, a bad row or a GPU type gcsim has no figures for
         being an error (map such a type with --gpu-type MODEL=NAME[:FLOPS]).
fit      fits a synthetic generator to the trace and writes it to GEN.json:
         arrivals with a daily cycle (24 hourly rates and the mean
         inter-arrival), the share of jobs per GPU count, a run-time quantile
         table per GPU count, the share of jobs per user and queue. It then
         draws a synthetic trace of --jobs jobs (default: as many as the
         original) with --synth-seed (default 0) and prints how its statistics
         compare with the original's (jobs, mean inter-arrival, GPU-count
         shares, run-time percentiles, hourly profile, queues) and whether the
         GPU-count shares are within max(5% relative, 1 point) and the mean
         inter-arrival within 5%. --report writes the comparison as Markdown,
         --synthetic-out the synthetic trace as a native workload.
         --startup-latency-out writes the recorded waits (start - submit) of
         the jobs whose start the trace records, one a line (beyond 10,000
         jobs, 10,000 quantiles of them): a start-up latency file for
         --startup-latency empirical:FILE (gcsim run, gcsim validate
         --trace). Every wait counts, queueing included, so it is an upper
         bound of the latency; select a lightly loaded window (--from,
         --until) to come closer to it.
synth    draws --jobs jobs (default: as many as the generator was fitted on)
         from GEN.json with --seed (default 0): the same file everywhere.

FILE and FORMAT:
  philly  the Philly derived CSV (timestamp,duration,num_gpus,gpu_time,cluster)
  swf     a Parallel Workloads Archive log in the Standard Workload Format
  helios  a Helios cluster_log.csv
  pai     the Alibaba PAI 2020 folder (pai_task_table.csv, optional
          pai_job_table.csv, pai_instance_table.csv, pai_machine_spec.csv and
          their .header files)
  csv     any CSV with a header line, read through --map
  native  a gcsim workload (JSON)
CSV files are RFC 4180: a quoted field may hold the delimiter, "" and line
breaks. Files are read as UTF-8: one in UTF-16, Latin-1 or compressed is
refused with the command that converts it (docs/trace-replay.md).

Reader options:
  --gpu-type T        GPU type the run times are taken as measured on where the
                      trace names none (default V100; PAI names its own)
  --gpu-type MODEL=NAME[:FLOPS[:MEMORY]]
                      repeatable: GPU model MODEL of the trace becomes gcsim GPU
                      type NAME, with NAME's known figures or FLOPS (and MEMORY)
                      as given (31.2TFLOPS, 24GB); for jobs measured on MODEL and
                      for the PAI cluster. Known models: P100, T4, V100, V100M16,
                      V100M32, A10, MISC
  --procs-per-gpu N   swf: processors per GPU (default 1)
  --map P=COL,...     csv: column of each job property: submit, gpus, duration (or
                      start and end) required; id, user, queue, status,
                      gpu_type, estimate, job_type optional; cpu (the job's
                      host cores), memory (its host memory), gpu_memory (GPU
                      memory per GPU), share (of each GPU, in (0, 1]),
                      gpu_types ("V100|A100"), single_node (true or false),
                      priority, qos (spot or guaranteed), rdma (percent of an
                      RNIC), disk, role (CN or HN), application, max_per_node
                      (-1: no limit) optional. cpu, memory, gpu_memory, share
                      and disk may name the unit of their plain numbers:
                      memory=COL:GiB, cpu=COL:millicores, disk=COL:GiB,
                      share=COL:percent or share=COL:milli
  --spot-values A,B   csv: the qos column's values that make spot jobs (default:
                      spot, be, besteffort, best-effort, best_effort,
                      preemptible, opportunistic; ignoring case) ...
  --guaranteed-values C,D
                      ... and guaranteed ones (default: guaranteed, burstable,
                      ls, lsr, lse, prod, regular, on-demand; or empty); any
                      other value is a malformed row
  --priority-levels low=0,high=10
                      csv: named levels of the priority column (else integers)
  --time-unit U       csv: unit of numeric times: ns, us, ms, s (default), min, h, d
  --delimiter C       csv: field separator (default ','; 'tab' for a tab)
  --cpu-unit U        csv: unit of plain numbers in the cpu column: cores (the
                      default) or millicores; "500m" is millicores in any case
  --memory-unit U     csv: unit of plain numbers in the memory column (B, KB,
                      MB, GB, TB, KiB, MiB, GiB, TiB); a plain number without
                      one is an error naming the column ("16Gi", "16GB" carry
                      their own)
  --gpu-memory-unit U csv: the same for the gpu_memory column
  --censored R        keep (default) or drop the jobs the trace saw only in
                      part: an empty submit time (it ran before the trace's
                      window began) or end time (still running when it ended).
                      Kept, such a job is submitted at the window's start,
                      before every other job, or ends at its end; stats counts
                      them (csv, helios, pai, the Philly job log)
  --epoch T           the trace time that becomes time 0 (a calendar time
                      "YYYY-MM-DD HH:MM:SS" or a number); default: the first
                      submission (swf: the log's own start)
  --strict            fail on the first malformed row instead of skipping it (a
                      bad number or date, a negative submit time, a start before
                      the submission, an end before the start, ...)
  --work W            where each job's work comes from: recorded (default: the
                      recorded run time on the recorded GPUs) or
                      throughput:SOURCE:PATH, training work sized by a Gavel
                      (simulation_throughputs.json), Pollux or Sia
                      (throughput_traces/ folder) table; needs --cluster
  --job-type RULE     with --work throughput: each job's model: trace (a CSV
                      job_type column; default), uniform (drawn with --seed),
                      gpu-time (Pollux's GPU-hour buckets) or a model name

Selection (applied after reading, in this order):
  --from T, --until T keep jobs submitted in [from, until): a time after the time
                      origin (36h, 2d, 3600) or a calendar time; with --from,
                      submit times count from it
  --queue Q           keep jobs of queue Q; repeatable
  --min-gpus N, --max-gpus N
                      keep jobs asking for that many GPUs
  --sample F          keep each job with probability F (0 < F <= 1) ...
  --seed S            ... drawn from seed S (default 0): the same everywhere
  --load-scale X      divide submit times by X: X times the arrival rate, run
                      times kept, so X times the offered load

Exit status: 0 success (for fit, whatever the checks say), 1 bad trace,
cluster or generator file (or, with --strict, a malformed row), 2 bad command
line, 4 outputs could not be written.
)";

const std::vector<FlagSpec> kReaderFlags = {{"format"},
                                            {"gpu-type", true, true},
                                            {"procs-per-gpu"},
                                            {"map"},
                                            {"time-unit"},
                                            {"delimiter"},
                                            {"cpu-unit"},
                                            {"memory-unit"},
                                            {"gpu-memory-unit"},
                                            {"censored"},
                                            {"epoch"},
                                            {"strict", false},
                                            {"from"},
                                            {"until"},
                                            {"queue", true, true},
                                            {"min-gpus"},
                                            {"max-gpus"},
                                            {"sample"},
                                            {"seed"},
                                            {"load-scale"},
                                            {"work"},
                                            {"job-type"},
                                            {"spot-values"},
                                            {"guaranteed-values"},
                                            {"priority-levels"}};

std::vector<FlagSpec> flags_with(std::vector<FlagSpec> extra) {
  std::vector<FlagSpec> flags = kReaderFlags;
  flags.insert(flags.end(), extra.begin(), extra.end());
  return flags;
}

struct TraceInput {
  TraceFormat format;
  TraceRequest request;
};

TraceInput trace_input(const Arguments& args) {
  const std::string name = args.required("format");
  const auto format = parse_trace_format(name);
  if (!format) throw UsageError("unknown trace format '" + name + "' (expected one of " + trace_format_list() + ")");
  std::vector<std::pair<std::string, std::string>> settings;
  const std::pair<const char*, const char*> flag_keys[] = {{"procs-per-gpu", "procs_per_gpu"},
                                                           {"map", "map"},
                                                           {"time-unit", "time_unit"},
                                                           {"delimiter", "delimiter"},
                                                           {"cpu-unit", "cpu_unit"},
                                                           {"memory-unit", "memory_unit"},
                                                           {"gpu-memory-unit", "gpu_memory_unit"},
                                                           {"censored", "censored"},
                                                           {"spot-values", "spot_values"},
                                                           {"guaranteed-values", "guaranteed_values"},
                                                           {"priority-levels", "priority_levels"},
                                                           {"epoch", "epoch"},
                                                           {"from", "from"},
                                                           {"until", "until"},
                                                           {"min-gpus", "min_gpus"},
                                                           {"max-gpus", "max_gpus"},
                                                           {"sample", "sample"},
                                                           {"seed", "seed"},
                                                           {"load-scale", "load_scale"},
                                                           {"work", "work"},
                                                           {"job-type", "job_type"}};
  for (const auto& [flag, key] : flag_keys)
    if (args.has(flag)) settings.emplace_back(key, args.required(flag));
  for (const std::string& queue : args.all("queue")) settings.emplace_back("queue", queue);
  for (const std::string& type : args.all("gpu-type")) settings.emplace_back("gpu_type", type);
  if (args.has("strict")) settings.emplace_back("strict", "true");
  if (*format != TraceFormat::kCsv)
    for (const char* csv_only : {"map", "time-unit", "delimiter", "cpu-unit", "memory-unit", "gpu-memory-unit",
                                 "spot-values", "guaranteed-values", "priority-levels"})
      if (args.has(csv_only)) throw UsageError(std::string("option '--") + csv_only + "' applies to --format csv only");
  if (*format == TraceFormat::kCsv && !args.has("map"))
    throw UsageError("--format csv needs --map (submit=COL,gpus=COL,duration=COL, ...)");
  return {*format, trace_request(settings)};
}

TraceReadResult read_input(const std::string& path, const TraceInput& input, const ClusterLayout* cluster = nullptr) {
  return read_trace_request(input.format, path, input.request, cluster);
}

int stats(const std::string& path, const Arguments& args) {
  const TraceInput input = trace_input(args);
  std::optional<ClusterLayout> layout;
  if (args.has("cluster")) layout.emplace(read_cluster_file(args.required("cluster")));
  // The figures describe the trace as recorded; a throughput table changes only where the work comes from.
  TraceInput recorded = input;
  recorded.request.throughput_source.reset();
  const TraceReadResult trace = read_input(path, recorded);
  TraceStats summary = compute_trace_stats(trace, layout ? &*layout : nullptr);
  if (input.request.throughput_source) {
    const TraceReadResult sized = read_input(path, input, layout ? &*layout : nullptr);
    summary.work_source = sized.work_source;
    summary.assumptions = sized.assumptions;
  }
  if (args.has("json")) {
    try {
      write_file_atomically(args.required("json"), trace_stats_json(summary).dump(2) + "\n");
    } catch (const std::exception& e) {
      std::cerr << "gcsim: error: " << e.what() << "\n";
      return exit_codes::kOutputError;
    }
  }
  std::cout << "trace         " << path << "\n" << trace_stats_text(summary);
  return exit_codes::kOk;
}

int convert(const std::string& path, const Arguments& args) {
  const TraceInput input = trace_input(args);
  const std::string to = args.required("to");
  const std::string out = args.required("out");
  if (to != "native" && to != "swf") throw UsageError("option '--to' must be 'native' or 'swf', got '" + to + "'");
  if (args.has("cluster-out") && input.format != TraceFormat::kPai)
    throw UsageError("option '--cluster-out' applies to --format pai only (it describes pai_machine_spec)");
  std::uint32_t procs_per_gpu = 1;
  if (to == "swf") {
    const double ratio = input.request.read.procs_per_gpu;
    if (ratio != static_cast<double>(static_cast<std::uint32_t>(ratio)) || ratio < 1)
      throw UsageError("--to swf needs a whole --procs-per-gpu >= 1");
    procs_per_gpu = static_cast<std::uint32_t>(ratio);
  }

  std::optional<ClusterLayout> layout;
  if (args.has("cluster")) layout.emplace(read_cluster_file(args.required("cluster")));
  const TraceReadResult trace = read_input(path, input, layout ? &*layout : nullptr);
  if (trace.jobs.empty()) throw InputError(path, "", "", "no replayable job in the trace (after selection)");
  std::string text;
  if (to == "native") {
    text = native_workload_json(trace.jobs).dump(1) + "\n";
  } else {
    SwfWriteOptions options;
    options.procs_per_gpu = procs_per_gpu;
    options.job_status = trace.job_status;
    options.machine_gpus = trace.machine_gpus;
    options.computer = "gcsim workload from " + trace.format + " trace " + path;
    try {
      text = swf_text(trace.jobs, options);
    } catch (const InputError& e) {  // name the file the jobs came from
      throw InputError(path, e.where(), e.field(), e.problem());
    }
  }
  std::string cluster_text;
  std::vector<std::string> cluster_notes;
  if (args.has("cluster-out")) {
    const std::filesystem::path given(path);
    const std::filesystem::path dir = std::filesystem::is_directory(given) ? given : given.parent_path();
    const std::string spec_path = (dir / "pai_machine_spec.csv").string();
    // Strict: a cluster that lost a machine to a bad row would misdescribe the trace's.
    const PaiMachineSpec spec = read_pai_machine_spec(spec_path, true);
    const PaiCluster cluster = pai_cluster_json(spec, "pai-2020", input.request.read.gpu_models);
    cluster_text = cluster.cluster.dump(2) + "\n";
    cluster_notes = cluster.assumptions;
  }
  try {
    write_file_atomically(out, text);
    if (!cluster_text.empty()) write_file_atomically(args.required("cluster-out"), cluster_text);
  } catch (const std::exception& e) {
    std::cerr << "gcsim: error: " << e.what() << "\n";
    return exit_codes::kOutputError;
  }
  std::size_t malformed = 0;
  for (const SkippedRow& row : trace.skipped) malformed += row.malformed ? 1 : 0;
  std::cout << "gcsim trace convert: wrote " << trace.jobs.size() << " jobs to " << out << " (" << to << ") from "
            << trace.rows << " rows; " << trace.skipped.size() << " rows skipped (" << malformed
            << " malformed), 'gcsim trace stats' lists them\n";
  for (const std::string& step : trace.selection) std::cout << "selected      " << step << "\n";
  std::cout << "work          " << trace.work_source << "\n";
  if (!cluster_text.empty()) {
    std::cout << "gcsim trace convert: wrote the cluster to " << args.required("cluster-out") << "\n";
    for (const std::string& note : cluster_notes) std::cout << "assumed       " << note << "\n";
  }
  return exit_codes::kOk;
}

// The recorded waits of the jobs whose trace records them (TraceReadResult::recorded_waits).
std::vector<double> recorded_waits_of(const TraceReadResult& trace) {
  std::vector<double> waits;
  for (const double wait : trace.recorded_waits)
    if (!std::isnan(wait)) waits.push_back(wait);
  return waits;
}

// A start-up latency file (--startup-latency empirical:FILE), each line
// equally likely when drawn: every recorded wait, sorted, up to
// kLatencyLines of them; beyond, that many quantiles at the middle of each
// share (for 10,000: p0.005, p0.015, ..., p99.995), so that a trace of a
// million jobs makes a file of 10,000 lines. All the waits, queueing
// included: the latency it gives is an upper bound.
constexpr std::size_t kLatencyLines = 10000;

std::string startup_latency_file(std::vector<double> waits, const std::string& source) {
  std::sort(waits.begin(), waits.end());
  std::ostringstream out;
  out << "# start-up latency, seconds, one a line, each equally likely: the recorded waits (start - submit) of "
      << waits.size() << " jobs of " << source
      << (waits.size() > kLatencyLines ? ", as " + std::to_string(kLatencyLines) + " quantiles" : std::string())
      << "\n# every wait, queueing included: an upper bound of the start-up latency\n";
  if (waits.size() <= kLatencyLines) {
    for (const double wait : waits) out << exact_number(wait) << "\n";
    return out.str();
  }
  const auto lines = static_cast<double>(kLatencyLines);
  for (std::size_t q = 0; q < kLatencyLines; ++q)
    out << exact_number(percentile_of_sorted(waits, (static_cast<double>(q) + 0.5) / lines * 100)) << "\n";
  return out.str();
}

int fit(const std::string& path, const Arguments& args) {
  const TraceInput input = trace_input(args);
  if (input.request.throughput_source)
    throw UsageError("option '--work' does not apply to fit: the generator is fitted to recorded run times");
  const std::string out = args.required("out");
  const TraceReadResult trace = read_input(path, input);
  TraceFitOptions options;
  options.source_file = path;
  options.source_format = trace.format;
  TraceFit fit;
  try {
    fit = fit_workload_model(trace.jobs, {trace.time_origin, trace.calendar_clock}, options);
  } catch (const std::invalid_argument& e) {
    throw InputError(path, "", "", std::string("cannot fit a generator: ") + e.what());
  }
  const std::size_t jobs = args.uint_or("jobs", fit.model.source_jobs);
  if (jobs < 2) throw UsageError("option '--jobs' must be at least 2 (a mean inter-arrival needs two jobs)");
  const std::uint64_t seed = args.uint_or("synth-seed", 0);
  const std::vector<JobSpec> synthetic = generate_fitted_workload(fit.model, jobs, seed);
  const FitComparison comparison = compare_fit(workload_statistics(trace.jobs, trace.time_origin),
                                               workload_statistics(synthetic, fit.model.first_submit_time_of_day_s));

  std::vector<std::pair<std::string, std::string>> files = {{out, fitted_model_json(fit.model).dump(1) + "\n"}};
  const std::string title = "Fitted generator " + out + " against " + trace.format + " trace " + path;
  if (args.has("report")) files.emplace_back(args.required("report"), fit_report_markdown(comparison, title));
  if (args.has("synthetic-out"))
    files.emplace_back(args.required("synthetic-out"), native_workload_json(synthetic).dump(1) + "\n");
  std::size_t latency_jobs = 0;
  if (args.has("startup-latency-out")) {
    const std::vector<double> waits = recorded_waits_of(trace);
    if (waits.empty())
      throw InputError(path, "", "start",
                       "the trace records no job's start, so there is no wait to learn a start-up latency from "
                       "(a CSV needs start= and end= in its map, an SWF log its wait field 3)");
    latency_jobs = waits.size();
    files.emplace_back(args.required("startup-latency-out"),
                       startup_latency_file(waits, trace.format + " trace " + path));
  }
  if (!write_output_files(files)) return exit_codes::kOutputError;

  std::cout << "trace         " << path << " (" << trace.format << ", " << fit.model.source_jobs << " jobs fitted)\n";
  for (const std::string& step : trace.selection) std::cout << "selected      " << step << "\n";
  for (const std::string& note : fit.notes) std::cout << "note          " << note << "\n";
  std::cout << "generator     " << out << "\n"
            << "synthetic     " << jobs << " jobs, seed " << seed
            << (args.has("synthetic-out") ? ", written to " + args.required("synthetic-out") : std::string()) << "\n";
  if (args.has("report")) std::cout << "report        " << args.required("report") << "\n";
  if (args.has("startup-latency-out"))
    std::cout << "latency       " << args.required("startup-latency-out") << " (the recorded waits of " << latency_jobs
              << " jobs; --startup-latency empirical:FILE draws from it)\n";
  std::cout << "\n" << fit_report_text(comparison);
  return exit_codes::kOk;
}

int synth(const std::string& path, const Arguments& args) {
  const std::string out = args.required("out");
  const FittedWorkloadModel model = fitted_model_from_json(read_json_file(path), path);
  const std::size_t jobs = args.uint_or("jobs", model.source_jobs);
  if (jobs == 0) throw UsageError("option '--jobs' must be at least 1 (the generator names no job count)");
  const std::uint64_t seed = args.uint_or("seed", 0);
  const std::vector<JobSpec> synthetic = generate_fitted_workload(model, jobs, seed);
  if (!write_output_files({{out, native_workload_json(synthetic).dump(1) + "\n"}})) return exit_codes::kOutputError;
  std::cout << "gcsim trace synth: wrote " << synthetic.size() << " jobs to " << out << " (seed " << seed << ")\n";
  return exit_codes::kOk;
}

}  // namespace

Command trace_command() {
  Command command{"trace", "summarise a real cluster trace, or convert it into a workload",
                  std::string(kTraceUsage) + "\n" + kTraceClusterUsage};
  command.actions = {
      {"stats", "trace FILE", flags_with({{"cluster"}, {"json"}}), stats},
      {"convert", "trace FILE", flags_with({{"to"}, {"out"}, {"cluster-out"}, {"cluster"}}), convert},
      {"fit", "trace FILE",
       flags_with({{"out"}, {"report"}, {"jobs"}, {"synth-seed"}, {"synthetic-out"}, {"startup-latency-out"}}), fit},
      {"synth", "generator GEN.json", {{"out"}, {"jobs"}, {"seed"}}, synth},
      {"cluster", "VC table", kTraceClusterFlags, trace_cluster}};
  return command;
}

}  // namespace gcsim
