// `gcsim trace`: inspect a real cluster trace and convert it into a workload.
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "sim/cli/arguments.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/trace_options.hpp"
#include "sim/core/cluster_layout.hpp"
#include "sim/core/input_error.hpp"
#include "sim/io/atomic_output.hpp"
#include "sim/topology/cluster_reader.hpp"
#include "workloads/native_workload.hpp"
#include "workloads/traces/pai_trace.hpp"
#include "workloads/traces/swf_trace.hpp"
#include "workloads/traces/trace_formats.hpp"
#include "workloads/traces/trace_stats.hpp"

namespace gcsim {
namespace {

constexpr const char* kTraceUsage =
    R"(usage: gcsim trace stats FILE --format FORMAT [--cluster CLUSTER.json] [--json OUT.json] [READER OPTIONS]
       gcsim trace convert FILE --format FORMAT --to native|swf --out OUT [--cluster-out CLUSTER.json] [READER OPTIONS]

stats    summarises what the trace holds: jobs, submission span, GPUs per job,
         GPU-hours, run times, offered load (GPU-hours / (GPUs x submission span))
         against --cluster (else the traced machine, where the trace names it),
         jobs larger than that, status counts, and every skipped row counted per
         reason with its first line numbers. --json writes the same as JSON.
convert  writes the jobs as a gcsim workload (--to native, for 'gcsim run
         --workload') or as SWF (--to swf: what both formats hold). For a PAI
         trace, --cluster-out writes pai_machine_spec as a gcsim cluster.

FILE and FORMAT:
  philly  the Philly derived CSV (timestamp,duration,num_gpus,gpu_time,cluster)
  swf     a Parallel Workloads Archive log in the Standard Workload Format
  helios  a Helios cluster_log.csv
  pai     the Alibaba PAI 2020 folder (pai_task_table.csv, optional
          pai_job_table.csv, pai_instance_table.csv, pai_machine_spec.csv and
          their .header files)
  csv     any CSV with a header line, read through --map
  native  a gcsim workload (JSON)

Reader options:
  --gpu-type T        GPU type the run times are taken as measured on (default V100;
                      PAI names its own)
  --procs-per-gpu N   swf: processors per GPU (default 1)
  --map P=COL,...     csv: column of each job property: submit, gpus, duration (or
                      start and end) required; id, user, queue, status, gpu_type,
                      estimate optional
  --time-unit U       csv: unit of numeric times: ns, us, ms, s (default), min, h, d
  --delimiter C       csv: field separator (default ','; 'tab' for a tab)
  --epoch T           the trace time that becomes time 0 (a calendar time
                      "YYYY-MM-DD HH:MM:SS" or a number); default: the first
                      submission (swf: the log's own start)
  --strict            fail on the first malformed row instead of skipping it

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

Exit status: 0 success, 1 bad trace or cluster file (or, with --strict, a
malformed row), 2 bad command line, 4 outputs could not be written.
)";

const std::vector<FlagSpec> kReaderFlags = {
    {"format"},   {"gpu-type"},      {"procs-per-gpu"}, {"map"},       {"time-unit"},         {"delimiter"},
    {"epoch"},    {"strict", false}, {"from"},          {"until"},     {"queue", true, true}, {"min-gpus"},
    {"max-gpus"}, {"sample"},        {"seed"},          {"load-scale"}};

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
  if (!format)
    throw UsageError("unknown trace format '" + name + "' (expected philly, swf, helios, pai, csv or native)");
  std::vector<std::pair<std::string, std::string>> settings;
  const std::pair<const char*, const char*> flag_keys[] = {{"gpu-type", "gpu_type"},
                                                           {"procs-per-gpu", "procs_per_gpu"},
                                                           {"map", "map"},
                                                           {"time-unit", "time_unit"},
                                                           {"delimiter", "delimiter"},
                                                           {"epoch", "epoch"},
                                                           {"from", "from"},
                                                           {"until", "until"},
                                                           {"min-gpus", "min_gpus"},
                                                           {"max-gpus", "max_gpus"},
                                                           {"sample", "sample"},
                                                           {"seed", "seed"},
                                                           {"load-scale", "load_scale"}};
  for (const auto& [flag, key] : flag_keys)
    if (args.has(flag)) settings.emplace_back(key, args.required(flag));
  for (const std::string& queue : args.all("queue")) settings.emplace_back("queue", queue);
  if (args.has("strict")) settings.emplace_back("strict", "true");
  if (*format != TraceFormat::kCsv)
    for (const char* csv_only : {"map", "time-unit", "delimiter"})
      if (args.has(csv_only)) throw UsageError(std::string("option '--") + csv_only + "' applies to --format csv only");
  if (*format == TraceFormat::kCsv && !args.has("map"))
    throw UsageError("--format csv needs --map (submit=COL,gpus=COL,duration=COL, ...)");
  return {*format, trace_request(settings)};
}

TraceReadResult read_input(const std::string& path, const TraceInput& input) {
  return read_trace_request(input.format, path, input.request);
}

int stats(const std::string& path, int argc, char** argv) {
  const Arguments args(argc, argv, flags_with({{"cluster"}, {"json"}}));
  const TraceInput input = trace_input(args);
  std::optional<ClusterLayout> layout;
  if (args.has("cluster")) layout.emplace(read_cluster_file(args.required("cluster")));
  const TraceReadResult trace = read_input(path, input);
  const TraceStats summary = compute_trace_stats(trace, layout ? &*layout : nullptr);
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

int convert(const std::string& path, int argc, char** argv) {
  const Arguments args(argc, argv, flags_with({{"to"}, {"out"}, {"cluster-out"}}));
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

  const TraceReadResult trace = read_input(path, input);
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
    const PaiMachineSpec spec = read_pai_machine_spec(spec_path, input.request.read.strict);
    const PaiCluster cluster = pai_cluster_json(spec, "pai-2020");
    cluster_text = cluster.cluster.dump(2) + "\n";
    cluster_notes = cluster.assumptions;
    if (!spec.skipped.empty())
      cluster_notes.push_back(std::to_string(spec.skipped.size()) + " machine spec rows skipped (first: line " +
                              std::to_string(spec.skipped.front().line) + ", " + spec.skipped.front().reason + ")");
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
  if (!cluster_text.empty()) {
    std::cout << "gcsim trace convert: wrote the cluster to " << args.required("cluster-out") << "\n";
    for (const std::string& note : cluster_notes) std::cout << "assumed       " << note << "\n";
  }
  return exit_codes::kOk;
}

}  // namespace

int trace_command(int argc, char** argv) {
  for (int i = 0; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::cout << kTraceUsage;
      return exit_codes::kOk;
    }
  try {
    if (argc < 1) throw UsageError("expected 'stats' or 'convert' (see --help)");
    const std::string action = argv[0];
    if (action != "stats" && action != "convert")
      throw UsageError("unknown action '" + action + "' (expected 'stats' or 'convert')");
    if (argc < 2 || std::string(argv[1]).rfind("--", 0) == 0)
      throw UsageError("expected the trace FILE after 'gcsim trace " + action + "'");
    const std::string path = argv[1];
    return action == "stats" ? stats(path, argc - 2, argv + 2) : convert(path, argc - 2, argv + 2);
  } catch (const UsageError& e) {
    std::cerr << "gcsim trace: " << e.what() << "\n";
    return exit_codes::kUsage;
  } catch (const InputError& e) {
    std::cerr << "gcsim: error: " << e.what() << "\n";
    return exit_codes::kInputError;
  }
}

}  // namespace gcsim
