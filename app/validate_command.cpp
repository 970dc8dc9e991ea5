// `gcsim validate`: its options, and the call to the validation library's
// run (validation/validation_run.hpp: the real microbenchmarks of real/, gcsim
// simulating the same situations, the report against gcsim's accuracy bounds
// of validation/error_bounds.hpp). Here: the processes it runs (children
// without a shell; every simulation is this executable again), the plot,
// and the outputs.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "app/arguments.hpp"
#include "app/child_process.hpp"
#include "app/commands.hpp"
#include "app/python_plots.hpp"
#include "app/replay_score_command.hpp"
#include "sim/core/usage_error.hpp"
#include "sim/io/atomic_output.hpp"
#include "sim/report/run_output_reader.hpp"
#include "validation/validation_report.hpp"
#include "validation/validation_run.hpp"

namespace gcsim {
namespace {

namespace fs = std::filesystem;
using namespace gcsim::validation;

const char* const kValidateUsage = R"(usage: gcsim validate [--quick] [--out DIR] [options]
       gcsim validate --trace FORMAT:FILE --cluster CLUSTER.json --policy NAME [--out DIR]
                      [--trace-opt K=V ...] [--policy-opt K=V ...] [--placement NAME] [--seed N]
                      [--whole-gpus] [--startup-latency MODEL] [--startup-seed N] [--top N]
                      [--plots auto|yes|no] [--quiet]

Without --trace:

Runs real microbenchmarks, simulates the same situations with gcsim, and
writes DIR/validation.csv, DIR/validation.md and DIR/validation.png
(simulated against measured, with the y = x line); the intermediate files
(real CSVs, gcsim inputs and outputs, logs) go to DIR/raw/.

  1. A ring allreduce between network namespaces over links shaped with tc
     tbf (needs root), N ranks, sizes S; its links calibrated on the same
     connections (hop latency from a small-message round trip, goodput from
     a bulk ring step); gcsim simulates each run in iteration fidelity on a
     cluster written from that calibration, and is also checked against the
     closed form 2(N-1)(alpha + S/(N B)). Open MPI's MPI_Allreduce runs on the
     same links beside it where Open MPI is installed.
     On the same links and calibration, Open MPI's MPI_Alltoall (pairwise
     exchange) with S per rank, every received block checked; gcsim simulates
     it as N(N-1) flows at once (a DAG job), and is checked against the closed
     form alpha + (N-1) S/(N B).
  2. The same ring over loopback (CPU-bound: reported, not bounded).
  3. The render farm's frame chain (10 frames x 3 elements), serial,
     parallel and pipelined, with 50 ms and 10 ms sleeping tasks (and 50 ms
     spinning ones), against gcsim running the same DAG jobs with the
     executor's measured per-task overhead and wake-up latency; 1-unit tasks
     against the hand count 40 / 20 / 11.
  4. The CUDA ring and NCCL's allreduce where a GPU is visible (measured and
     checked, not simulated).

Bounds: shaped ring median |error| <= 2% for S >= 16 MiB and <= 5% for
1-4 MiB; shaped all-to-all median |error| <= 3% for S >= 16 MiB; render farm <= 2% for 50 ms tasks and <= 5% for 10 ms; gcsim vs the
closed form <= 0.1%; the ring's busbw >= 95% of the measured goodput at 64 MiB.

options:
  --quick             N = 3, 1, 16 and 64 MiB, Open MPI's all-to-all but not its allreduce,
                      loopback N = 3, sleeping render-farm tasks only: about a minute
  --out DIR           output folder (default out/validation)
  --ranks LIST        ranks of the shaped ring (default 2,3,4,5,6)
  --bytes LIST        sizes, per rank (default 4KiB,64KiB,1MiB,4MiB,16MiB,64MiB)
  --rate RATE         tc rate of every link, each way (default 200mbit)
  --iterations K      timed allreduces per size (default 5)
  --skip LIST         parts not to run: shaped,alltoall,loopback,renderfarm,gpu (the
                      all-to-all runs within the shaped part)
  --build DIR         the build folder holding real/ and validation/ (default: this
                      executable's)
  --plots WHEN        auto (default), yes (fail without matplotlib), no
  --quiet             do not print the report

exit status: 0 every bound holds, 2 bad command line, 4 outputs could not be
written, 6 --plots yes and no plot, 7 a real run failed, 8 a bound is broken
(outputs are written in the last three cases)

With --trace: scores a replay of a real trace against the schedule the traced
cluster recorded (docs/trace-replay.md, "Scoring a replay"). The trace is
replayed as `gcsim run --workload FORMAT:FILE` replays it (the same
--trace-opt settings, policy and options), and each job's simulated wait
(start - submit) is set beside its recorded one, where the trace records when
the job started: a CSV's start column (map start= and end=), SWF's wait
field 3 (-1: unknown), Helios' start_time, PAI's first task start after the
job table's submission, the Philly job log's first attempt. Jobs without one
are counted and left out; a trace with none is an input error. With a
start-up latency model, a job's simulated start is when its first run
began its work, after the latency. Writes to DIR (default out/score), all
at once:
  score.md, score.json  mean and median wait simulated and recorded and their
                        relative errors, the P50, P90 and P99 of the per-job
                        absolute wait error, the share of jobs within 60 s,
                        the Kolmogorov-Smirnov distance of the two wait
                        distributions; the same for the --top N queues and
                        users of most jobs (default 10); the time-weighted
                        mean of the GPUs allocated, simulated and recorded
  score_jobs.csv        id, user, queue, gpus, submit, recorded_wait,
                        simulated_wait, abs_error per job
  score_gpus.csv        time, simulated, recorded allocated GPUs (recorded:
                        each job from its recorded start for its run time)
  score_wait_cdf.png, score_scatter.png, score_gpus.png
                        the two waits' CDFs side by side, simulated against
                        recorded wait per job, the GPUs over time (matplotlib)
exit status: 0 scored, 1 bad input (a trace without recorded starts), 2 bad
command line, 4 outputs could not be written, 6 --plots yes and no plot
)";

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

ValidationOptions parse_options(const Arguments& args) {
  ValidationOptions o = args.has("quick") ? quick_options() : ValidationOptions{};
  o.out = args.value_or("out", o.out);
  if (args.has("ranks")) {
    o.ranks.clear();
    for (const std::string& item : split_list(args.required("ranks"))) {
      const int n = std::atoi(item.c_str());
      if (n < 2 || n > 64 || std::to_string(n) != item)
        throw UsageError("option '--ranks': '" + item + "' is not a rank count between 2 and 64");
      o.ranks.push_back(static_cast<std::uint32_t>(n));
    }
  }
  o.bytes = args.value_or("bytes", o.bytes);
  o.rate = args.value_or("rate", o.rate);
  rate_bytes_per_second(o.rate);
  o.iterations = static_cast<int>(args.uint_or("iterations", static_cast<std::uint64_t>(o.iterations)));
  if (o.iterations < 1) throw UsageError("option '--iterations' must be at least 1");
  for (const std::string& part : split_list(args.value_or("skip", ""))) {
    if (std::find(kPartNames.begin(), kPartNames.end(), part) == kPartNames.end())
      throw UsageError("option '--skip': unknown part '" + part + "' (shaped, alltoall, loopback, renderfarm, gpu)");
    o.skip.insert(part);
  }
  return o;
}

ValidationTools tools(const Arguments& args) {
  ValidationTools t;
  t.gcsim = fs::read_symlink("/proc/self/exe").string();
  // build/app/gcsim -> build
  t.build = args.value_or("build", "");
  if (t.build.empty()) t.build = fs::path(t.gcsim).parent_path().parent_path().string();
  t.scripts = scripts_dir();
  t.run_program = [](const std::string& program, const std::vector<std::string>& program_args) {
    const ChildResult result = run_child(program, program_args);
    return ProgramResult{result.exit_code, result.output};
  };
  t.is_built = [](const std::string& path) {
    std::error_code ec;
    return fs::is_regular_file(path, ec) && access(path.c_str(), X_OK) == 0;
  };
  return t;
}

// The microbenchmarks' own options, which a scored replay does not take.
const char* const kBenchmarkFlags[] = {"quick", "ranks", "bytes", "rate", "iterations", "skip", "build"};

int validate(const Arguments& args) {
  if (args.has("trace")) {
    for (const char* flag : kBenchmarkFlags)
      if (args.has(flag))
        throw UsageError(std::string("option '--") + flag + "' applies to the microbenchmarks, not with --trace");
    return score_trace_replay(args);
  }
  for (const FlagSpec& flag : replay_score_flags())
    if (args.has(flag.name)) throw UsageError("option '--" + flag.name + "' applies with --trace FORMAT:FILE only");
  const ValidationOptions options = parse_options(args);
  const PlotMode plots = parse_plot_mode(args.value_or("plots", "auto"));
  const bool quiet = args.has("quiet");
  ValidationRun validation(options, tools(args), quiet ? nullptr : &std::cout);
  ValidationReport report;
  try {
    report = validation.run();
  } catch (const std::exception& e) {  // a simulation or a real tool's output that could not be read
    throw CommandFailure(exit_codes::kRunFailed, e.what());
  }
  const std::string csv = validation_csv(report.rows);
  const std::string markdown = validation_markdown(report);
  write_file_atomically(validation.raw() + "/validation.csv", csv);
  std::optional<std::string> png;
  std::optional<std::string> plot_problem;
  if (plots != PlotMode::kNo) {
    std::string output;
    plot_problem = run_plot_script(
        "plot_validation.py", {validation.raw() + "/validation.csv", validation.raw() + "/validation.png"}, output);
    if (!plot_problem) png = read_whole_file(validation.raw() + "/validation.png");
  }
  OutputSet out(options.out);
  out.stage("validation.csv", csv);
  out.stage("validation.md", markdown);
  if (png) out.stage("validation.png", *png);
  out.commit();
  if (!quiet) std::cout << markdown;
  std::cout << "gcsim validate: wrote " << options.out << "/validation.csv, validation.md"
            << (png ? ", validation.png" : "") << "\n";
  if (plot_problem) std::cerr << "gcsim validate: no plot: " << *plot_problem << "\n";
  switch (validation_outcome(plot_problem && plots == PlotMode::kYes, validation.failed(), report.checks)) {
    case ValidationOutcome::kNoPlot:
      return exit_codes::kPlotError;
    case ValidationOutcome::kRunFailed:
      return exit_codes::kRunFailed;
    case ValidationOutcome::kBoundBroken:
      for (const BoundCheck& c : report.checks)
        if (!c.holds)
          std::cerr << "gcsim validate: bound broken: " << c.name << ": " << c.statistic << " " << c.value
                    << "% (limit " << c.limit << "%)\n";
      return exit_codes::kBoundBroken;
    case ValidationOutcome::kBoundsHold:
      break;
  }
  return exit_codes::kOk;
}

}  // namespace

Command validate_command() {
  std::vector<FlagSpec> flags = {{"quick", false}, {"out"},  {"ranks"}, {"bytes"}, {"rate"},
                                 {"iterations"},   {"skip"}, {"build"}, {"plots"}, {"quiet", false}};
  for (const FlagSpec& flag : replay_score_flags()) flags.push_back(flag);
  Command command{"validate",
                  "run real microbenchmarks, simulate them, and report gcsim's error; or score a trace replay "
                  "against the recorded schedule",
                  kValidateUsage, flags, validate};
  command.usage_after_usage_error = true;
  // What else fails is an output that could not be written.
  command.other_failure = OtherFailure{exit_codes::kOutputError, "gcsim validate: "};
  return command;
}

}  // namespace gcsim
