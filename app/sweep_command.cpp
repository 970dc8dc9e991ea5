// `gcsim sweep`: every combination of a grid of `gcsim run`s, on local cores
// (--jobs) and, under `mpirun -np K`, over K ranks (rank r takes the runs
// whose number is r modulo K; rank 0 gathers their rows, sweep_mpi.hpp). Each run
// writes DIR/runs/run-NNNN/ atomically, so its summary.json is the ledger: a
// sweep run again skips the runs already done. DIR/sweep.csv (a row per run,
// its values and metrics) and DIR/sweep.md are the same whatever --jobs or K.
#include <atomic>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "app/child_process.hpp"
#include "app/commands.hpp"
#include "app/python_plots.hpp"
#include "app/sweep_mpi.hpp"
#include "app/sweep_spec.hpp"
#include "sim/core/input_error.hpp"
#include "sim/core/number_text.hpp"
#include "sim/io/atomic_output.hpp"
#include "sim/io/csv_records.hpp"
#include "sim/io/json_input.hpp"
#include "sim/report/bench_comparison.hpp"
#include "sim/report/run_outputs.hpp"

namespace gcsim {
namespace {
namespace fs = std::filesystem;

constexpr const char* kSweepUsage = R"(usage: gcsim sweep SPEC.json --out DIR [--jobs N] [--plots auto|yes|no] [--quiet]
       mpirun -np K gcsim sweep SPEC.json --out DIR [--jobs N]

Runs every combination of the spec's axes (policies, clusters, workloads,
seeds, any `gcsim run` option), each as its own `gcsim run --no-wall-time`
writing DIR/runs/run-NNNN/, N at a time (default 1), and writes
  DIR/sweep.csv   a row per run: its number, its value on each axis, each metric
  DIR/sweep.md    the same as a table, and each metric's mean per value of each axis
  DIR/sweep_METRIC_by_AXIS.png   those means drawn (with matplotlib; --plots
                  as for gcsim compare: auto draws them when a Python has it)
Under mpirun the runs spread over the ranks; rank 0 gathers and writes (DIR
must be on a file system every rank sees).
The files are the same, byte for byte, whatever N or the ranks. A run whose
summary.json is there is done: a sweep run again (after an interruption)
skips it. The spec's format is in docs/sweep.md.

Exit status: 0 every run done; 7 a run failed (the others are done, and a
sweep run again retries it); 1 a bad spec, or a metric a summary lacks; 2 a
bad command line.
)";

struct RunOutcome {
  bool ran = false;    // false: done before (skipped)
  int status = 0;      // of `gcsim run`; kOk when skipped
  std::string output;  // its messages, when it failed
};

// `gcsim run` of one grid point, in the spec's folder, unless its summary is there.
RunOutcome run_point(const SweepSpec& spec, const SweepRun& run, const std::string& run_dir) {
  if (fs::exists(run_dir + "/summary.json")) return {};
  std::vector<std::string> args{"run"};
  args.insert(args.end(), run.args.begin(), run.args.end());
  args.insert(args.end(), {"--out", run_dir, "--quiet", "--no-wall-time"});
  const ChildResult result = run_child("/proc/self/exe", args, ChildOutput::kCapture, spec.folder);
  // A deadlock, a livelock or thrashing are results: their outputs are written.
  const bool written = exit_codes::run_wrote_outputs(result.exit_code);
  return {true, written ? exit_codes::kOk : result.exit_code, written ? "" : result.output};
}

// A run's CSV row: its number, its axis values, its metrics (each number in its shortest exact form).
std::string csv_row(const SweepSpec& spec, const SweepRun& run, const std::string& run_dir) {
  const std::string summary_path = run_dir + "/summary.json";
  const nlohmann::json summary = read_json_file(summary_path);
  std::string row = std::to_string(run.index);
  for (const std::string& value : run.values) row += "," + csv_field(value);
  for (const std::string& metric : spec.metrics) {
    const std::optional<double> value = metric_value(summary, metric);
    row += ",";
    if (value) row += exact_number(*value);
  }
  return row;
}

std::string csv_header(const SweepSpec& spec) {
  std::string header = "run";
  for (const SweepAxis& axis : spec.axes) header += "," + csv_field(axis.name);
  for (const std::string& metric : spec.metrics) header += "," + csv_field(metric);
  return header + "\n";
}

// sweep.md: every row, then each metric's mean over the runs of each value of each axis.
std::string sweep_markdown(const SweepSpec& spec, const std::vector<SweepRun>& runs,
                           const std::vector<std::vector<std::string>>& cells) {
  std::ostringstream out;
  out << "| run |";
  for (const SweepAxis& axis : spec.axes) out << " " << axis.name << " |";
  for (const std::string& metric : spec.metrics) out << " " << metric << " |";
  out << "\n|---:|";
  for (std::size_t a = 0; a < spec.axes.size(); ++a) out << "---|";
  for (std::size_t m = 0; m < spec.metrics.size(); ++m) out << "---:|";
  out << "\n";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    out << "| " << i << " |";
    for (const std::string& value : runs[i].values) out << " " << value << " |";
    for (const std::string& cell : cells[i]) out << " " << (cell.empty() ? "n/a" : cell) << " |";
    out << "\n";
  }
  for (std::size_t a = 0; a < spec.axes.size(); ++a) {
    out << "\nMean per " << spec.axes[a].name << ":\n\n| " << spec.axes[a].name << " |";
    for (const std::string& metric : spec.metrics) out << " " << metric << " |";
    out << "\n|---|";
    for (std::size_t m = 0; m < spec.metrics.size(); ++m) out << "---:|";
    out << "\n";
    for (const std::string& value : spec.axes[a].values) {
      out << "| " << value << " |";
      for (std::size_t m = 0; m < spec.metrics.size(); ++m) {
        double sum = 0;
        std::size_t n = 0;
        for (std::size_t i = 0; i < runs.size(); ++i)
          if (runs[i].values[a] == value && !cells[i][m].empty()) sum += std::stod(cells[i][m]), ++n;
        out << " " << (n > 0 ? exact_number(sum / static_cast<double>(n)) : std::string("n/a")) << " |";
      }
      out << "\n";
    }
  }
  return out.str();
}

int sweep(const std::string& spec_path, const Arguments& args) {
  const SweepSpec spec = read_sweep_spec(spec_path);
  const std::vector<SweepRun> runs = sweep_runs(spec);
  const std::string out_dir = fs::absolute(args.required("out")).lexically_normal().string();
  const SweepRanks ranks(out_dir);
  const std::uint64_t jobs = args.uint_or("jobs", 1);
  if (jobs < 1 || jobs > 1024) throw UsageError("option '--jobs' must be between 1 and 1024");
  const bool quiet = args.has("quiet");
  const PlotMode plots = parse_plot_mode(args.value_or("plots", "auto"));

  std::vector<std::size_t> mine;
  for (const SweepRun& run : runs)
    if (run.index % ranks.size() == ranks.rank()) mine.push_back(run.index);
  std::vector<RunOutcome> outcomes(runs.size());
  std::atomic<std::size_t> next{0}, finished{0};
  std::mutex print;
  auto worker = [&] {
    for (std::size_t k = next++; k < mine.size(); k = next++) {
      const SweepRun& run = runs[mine[k]];
      outcomes[run.index] = run_point(spec, run, out_dir + "/runs/" + sweep_run_name(run.index, runs.size()));
      const std::size_t done = ++finished;
      if (!quiet && outcomes[run.index].ran) {
        const std::lock_guard<std::mutex> lock(print);
        std::cout << "gcsim sweep: [" << done << "/" << mine.size() << "] " << sweep_run_name(run.index, runs.size())
                  << " done" << std::endl;
      }
    }
  };
  std::vector<std::thread> workers;
  for (std::uint64_t w = 0; w < std::min<std::uint64_t>(jobs, mine.size()); ++w) workers.emplace_back(worker);
  for (std::thread& t : workers) t.join();

  std::size_t ran = 0, failed = 0;
  std::string rows;  // this rank's rows, "index,values,metrics\n" each
  for (std::size_t index : mine) {
    const RunOutcome& o = outcomes[index];
    ran += o.ran;
    const std::string name = sweep_run_name(index, runs.size());
    if (o.status != exit_codes::kOk) {
      ++failed;
      std::cerr << "gcsim sweep: error: " << name << " failed (exit status " << o.status << "); its messages:\n"
                << o.output;
      continue;
    }
    rows += csv_row(spec, runs[index], out_dir + "/runs/" + name) + "\n";
  }
  const SweepRanks::Totals totals = ranks.gather(rows, ran, failed);
  if (ranks.rank() != 0) return totals.failed > 0 ? exit_codes::kRunFailed : exit_codes::kOk;

  if (!quiet)
    std::cout << "gcsim sweep: " << runs.size() << " runs over " << ranks.size() << " rank(s): " << totals.ran
              << " ran, " << runs.size() - totals.ran - totals.failed << " done before (skipped), " << totals.failed
              << " failed\n";
  if (totals.failed > 0) return exit_codes::kRunFailed;
  // Rows in run order, whichever rank made them; a quoted axis value may hold commas and line breaks.
  std::vector<std::vector<std::string>> rows_by_run(runs.size());
  for (CsvRecord& record : read_csv_records(totals.rows, out_dir + "/sweep.csv"))
    rows_by_run.at(std::stoul(record.fields.front())) = std::move(record.fields);
  std::vector<std::vector<std::string>> cells(runs.size());
  std::string csv = csv_header(spec);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::vector<std::string>& fields = rows_by_run[i];
    for (std::size_t f = 0; f < fields.size(); ++f) csv += (f > 0 ? "," : "") + csv_field(fields[f]);
    csv += "\n";
    cells[i].assign(fields.end() - static_cast<std::ptrdiff_t>(spec.metrics.size()), fields.end());
  }
  OutputSet out(out_dir);
  out.stage("sweep.csv", csv);
  out.stage("sweep.md", sweep_markdown(spec, runs, cells));
  out.commit();
  if (plots != PlotMode::kNo) {
    std::string output;
    if (const auto problem = run_plot_script("plot_sweep.py", {out_dir, std::to_string(spec.metrics.size())}, output)) {
      if (plots == PlotMode::kYes) {
        std::cerr << "gcsim sweep: error: cannot draw the plots: " << *problem << "\n";
        return exit_codes::kPlotError;
      }
      std::cerr << "gcsim sweep: notice: plots skipped: " << *problem << "\n";
    } else if (!quiet) {
      std::cout << output;
    }
  }
  if (!quiet) std::cout << "  outputs     " << out_dir << "/sweep.csv, sweep.md\n";
  return exit_codes::kOk;
}

}  // namespace

Command sweep_command() {
  Command command{"sweep",
                  "run a grid of runs on local cores or MPI ranks, gathered in one table",
                  kSweepUsage,
                  "SPEC.json",
                  {{"out"}, {"jobs"}, {"plots"}, {"quiet", false}},
                  sweep};
  command.other_failure = OtherFailure{exit_codes::kRunFailed, "gcsim sweep: error: "};
  return command;
}

}  // namespace gcsim
