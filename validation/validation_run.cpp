#include "validation/validation_run.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sim/core/usage_error.hpp"
#include "sim/report/run_output_reader.hpp"
#include "validation/alltoall_scenario.hpp"
#include "validation/error_bounds.hpp"
#include "validation/ring_fit.hpp"

namespace gcsim::validation {
namespace {

namespace fs = std::filesystem;

constexpr int kExitSkipped = 77;  // what the real tools return when they cannot run here

void write_text(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error(path + ": cannot be written");
}

std::string load_average() {
  std::string first, second, third;
  std::ifstream("/proc/loadavg") >> first >> second >> third;
  return first + " " + second + " " + third;
}

// Steal and total CPU ticks from /proc/stat.
std::pair<long long, long long> cpu_ticks() {
  std::ifstream in("/proc/stat");
  std::string label;
  in >> label;
  long long total = 0, steal = 0, value = 0;
  for (int i = 0; i < 10 && in >> value; ++i) {
    total += value;
    if (i == 7) steal = value;
  }
  return {steal, total};
}

std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  return buf;
}

std::string ranks_config(double ranks, double bytes) {
  return "N=" + std::to_string(static_cast<int>(ranks)) + " S=" + size_label(bytes);
}

std::string first_line_with(const std::string& text, const std::string& word) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find(word) != std::string::npos) return line.substr(line.find(word));
  return word;
}

double farm_time(const std::map<std::string, double>& simulated, const std::string& schedule) {
  const auto it = simulated.find(schedule);
  if (it == simulated.end()) throw std::runtime_error("the render-farm simulation has no schedule '" + schedule + "'");
  return it->second;
}

std::string file_name(const std::string& path) { return fs::path(path).filename().string(); }

// The JCT of every job of a run's outputs in `out`, by id.
std::map<std::string, double> job_times(const std::string& out) {
  const std::string jobs = out + "/jobs.csv";
  std::map<std::string, double> jct;
  for (const JobsCsvRow& row : parse_jobs_csv(read_whole_file(jobs), jobs)) jct[row.id] = row.jct;
  return jct;
}

}  // namespace

ValidationOptions quick_options() {
  ValidationOptions options;
  options.quick = true;
  options.ranks = {3};
  options.bytes = "1MiB,16MiB,64MiB";
  options.iterations = 3;
  return options;
}

double rate_bytes_per_second(const std::string& rate) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(rate, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::map<std::string, double> units{{"bit", 1}, {"kbit", 1e3}, {"mbit", 1e6}, {"gbit", 1e9}};
  const auto unit = used ? units.find(rate.substr(used)) : units.end();
  if (unit == units.end() || value <= 0)
    throw UsageError("option '--rate' must be a number with bit, kbit, mbit or gbit, got '" + rate + "'");
  return value * unit->second / 8;
}

std::vector<PlannedProgram> validation_plan(const ValidationOptions& options, const ValidationTools& tools) {
  const auto in_build = [&](const std::string& relative) { return tools.build + "/" + relative; };
  std::vector<PlannedProgram> plan{{"shaped", "shaped ring allreduce", tools.scripts + "/real-allreduce.sh", true, ""},
                                   {"alltoall", "shaped MPI all-to-all", in_build("real/mpi_alltoall"), true, ""},
                                   {"loopback", "loopback ring allreduce", in_build("real/real_allreduce"), true, ""},
                                   {"renderfarm", "render farm", in_build("real/renderfarm"), true, ""},
                                   {"gpu", "CUDA ring", in_build("real/cuda_ring_allreduce"), true, ""},
                                   {"gpu", "NCCL allreduce", in_build("real/nccl_allreduce"), true, ""}};
  for (PlannedProgram& planned : plan) {
    if (options.skip.count(planned.part)) {
      planned.runs = false;
    } else if (planned.part == "alltoall" && options.skip.count("shaped")) {
      planned.runs = false;
      planned.skip_note = planned.name + " skipped: it runs on the shaped part's links and calibration (--skip shaped)";
    } else if (planned.part != "shaped" && !tools.is_built(planned.program)) {
      planned.runs = false;
      if (planned.part == "gpu")
        planned.skip_note = planned.name + " skipped: not built (needs nvcc" +
                            (planned.name == "NCCL allreduce" ? " and NCCL" : "") + " at configure time)";
      else if (planned.part == "alltoall")
        planned.skip_note = planned.name + " skipped: not built (needs Open MPI at configure time)";
      else
        planned.skip_note = planned.name + " skipped: " + planned.program + " was not built";
    }
  }
  return plan;
}

AllreduceComparison compare_allreduce(const CsvTable& csv, const std::string& experiment, bool bounded,
                                      double nominal_Bps, const RingSimulation& simulate) {
  AllreduceComparison result;
  std::map<std::pair<int, double>, double> ring_times;
  for (std::size_t i = 0; i < csv.size(); ++i) {
    if (csv.text(i, "impl") != "tcp-ring") continue;
    const auto ranks = static_cast<std::uint32_t>(csv.number(i, "ranks"));
    const double bytes = csv.number(i, "bytes");
    const double measured = csv.number(i, "time_median_s");
    const int iterations = static_cast<int>(csv.number(i, "iterations"));
    const RingCalibration link{csv.number(i, "hop_latency_s"), csv.number(i, "goodput_Bps")};
    const std::string config = ranks_config(ranks, bytes);
    if (csv.number(i, "errors") != 0)
      result.wrong_results.push_back(experiment + " " + config + ": the real allreduce produced wrong elements");
    const std::string name = experiment + "-" + std::to_string(ranks) + "-" + size_label(bytes);
    const double simulated = simulate(name, ranks, bytes, iterations, link);
    result.rows.push_back(
        {experiment, config, measured, "measured", simulated, bounded ? shaped_allreduce_bound(bytes) : std::nullopt});
    result.rows.push_back({"gcsim-vs-closed-form", experiment + " " + config,
                           ring_closed_form_seconds(ranks, bytes, link), "closed-form", simulated,
                           closed_form_bound()});
    if (nominal_Bps > 0) {
      const double nominal = simulate(name + "-nominal", ranks, bytes, iterations, {link.hop_latency_s, nominal_Bps});
      result.rows.push_back({experiment + "-nominal", config, measured, "measured", nominal, std::nullopt});
    }
    ring_times[{static_cast<int>(ranks), bytes}] = measured;
  }
  for (std::size_t i = 0; i < csv.size(); ++i) {
    if (csv.text(i, "impl") == "tcp-ring") continue;
    const auto key = std::make_pair(static_cast<int>(csv.number(i, "ranks")), csv.number(i, "bytes"));
    if (csv.number(i, "errors") != 0)
      result.wrong_results.push_back(csv.text(i, "impl") + " " + ranks_config(key.first, key.second) +
                                     ": wrong elements in the result");
    if (!ring_times.count(key)) continue;
    result.other_allreduce = "MPI_Allreduce (Open MPI)";
    result.side_by_side.push_back(
        {ranks_config(key.first, key.second), ring_times[key], csv.number(i, "time_median_s")});
  }
  return result;
}

AlltoallComparison compare_alltoall(const CsvTable& csv, const std::map<std::uint32_t, RingCalibration>& links,
                                    const AlltoallSimulation& simulate) {
  AlltoallComparison result;
  const std::string experiment = "alltoall-shaped";
  for (std::size_t i = 0; i < csv.size(); ++i) {
    const auto ranks = static_cast<std::uint32_t>(csv.number(i, "ranks"));
    const double bytes = csv.number(i, "bytes");
    const double block = csv.number(i, "block_bytes");
    const std::string config = ranks_config(ranks, bytes);
    if (csv.number(i, "errors") != 0)
      result.wrong_results.push_back(experiment + " " + config + ": the real all-to-all received wrong elements");
    const auto link = links.find(ranks);
    if (link == links.end())
      throw std::runtime_error(csv.where(i) + ": no ring calibration of " + std::to_string(ranks) +
                               " ranks to simulate the all-to-all on");
    const double simulated =
        simulate(experiment + "-" + std::to_string(ranks) + "-" + size_label(bytes), ranks, block, link->second);
    result.rows.push_back(
        {experiment, config, csv.number(i, "time_median_s"), "measured", simulated, shaped_alltoall_bound(bytes)});
    result.rows.push_back({"gcsim-vs-closed-form", experiment + " " + config,
                           alltoall_closed_form_seconds(ranks, block, link->second), "closed-form", simulated,
                           closed_form_bound()});
  }
  return result;
}

ValidationOutcome validation_outcome(bool required_plot_missing, bool run_failed,
                                     const std::vector<BoundCheck>& checks) {
  if (required_plot_missing) return ValidationOutcome::kNoPlot;
  if (run_failed) return ValidationOutcome::kRunFailed;
  if (broken_checks(checks) > 0) return ValidationOutcome::kBoundBroken;
  return ValidationOutcome::kBoundsHold;
}

ValidationRun::ValidationRun(ValidationOptions options, ValidationTools tools, std::ostream* progress)
    : o_(std::move(options)), tools_(std::move(tools)), progress_(progress), raw_(o_.out + "/raw") {}

ValidationReport ValidationRun::run() {
  fs::remove_all(raw_);
  fs::create_directories(raw_);
  const auto start = std::chrono::steady_clock::now();
  const std::string load_before = load_average();
  report_.preamble.push_back("Generated by `gcsim validate" + std::string(o_.quick ? " --quick" : "") + "` on " +
                             now_utc() + ".");
  const std::vector<PlannedProgram> plan = validation_plan(o_, tools_);
  const auto alltoall = std::find_if(plan.begin(), plan.end(), [](const auto& p) { return p.part == "alltoall"; });
  for (const PlannedProgram& planned : plan) {
    if (!planned.runs) {
      if (!planned.skip_note.empty()) note(planned.skip_note);
      continue;
    }
    // The all-to-all runs within the shaped part's script, on its links.
    if (planned.part == "shaped") shaped_allreduce(planned, *alltoall);
    if (planned.part == "loopback") loopback_allreduce(planned);
    if (planned.part == "renderfarm") render_farm(planned);
    if (planned.part == "gpu") gpu_allreduce(planned);
  }
  for (const BoundCheck& c : check_bounds(report_.rows)) report_.checks.push_back(c);
  for (const BoundCheck& c : busbw_checks_) report_.checks.push_back(c);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  utsname system{};
  uname(&system);
  report_.preamble.push_back("Ran " + std::to_string(static_cast<long>(seconds)) + " s on " +
                             std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + " cores, Linux " + system.release +
                             "; load average " + load_before + " before and " + load_average() + " after" +
                             steal_note_ + ".");
  return report_;
}

void ValidationRun::say(const std::string& line) const {
  if (progress_) *progress_ << "gcsim validate: " << line << std::endl;
}

void ValidationRun::note(const std::string& line) {
  report_.notes.push_back(line);
  say(line);
}

void ValidationRun::failure(const std::string& what, const ProgramResult& result, const std::string& log) {
  failed_ = true;
  note(what + " failed (exit status " + std::to_string(result.exit_code) + "); its output is in " + log);
}

// Runs `gcsim run` on dir/cluster.json and dir/workload.json with `run_options`,
// keeping its log in dir; returns the folder of its outputs. `what` names the
// simulation in errors.
std::string ValidationRun::simulate(const std::string& dir, const std::string& what,
                                    const std::vector<std::string>& run_options) {
  std::vector<std::string> args{"run",      "--cluster", dir + "/cluster.json", "--workload", dir + "/workload.json",
                                "--policy", "fifo",      "--no-wall-time",      "--out",      dir + "/out"};
  args.insert(args.end(), run_options.begin(), run_options.end());
  const ProgramResult result = tools_.run_program(tools_.gcsim, args);
  write_text(dir + "/gcsim.log", result.output);
  if (result.exit_code != 0)
    throw std::runtime_error(what + " in " + dir + " failed (exit status " + std::to_string(result.exit_code) + "):\n" +
                             result.output);
  return dir + "/out";
}

// gcsim's time per iteration of one ring configuration.
double ValidationRun::simulate_ring(const std::string& name, std::uint32_t ranks, double bytes, int iterations,
                                    const RingCalibration& link) {
  const std::string dir = raw_ + "/sim/" + name;
  write_text(dir + "/cluster.json", ring_cluster_json(ranks, link));
  write_text(dir + "/workload.json", ring_workload_json(ranks, bytes, static_cast<std::uint64_t>(iterations)));
  return job_times(simulate(dir, "the simulation", {"--fidelity", "iteration"})).at("allreduce") / iterations;
}

// gcsim's time of one all-to-all: its DAG job's JCT on the ring's links.
double ValidationRun::simulate_alltoall(const std::string& name, std::uint32_t ranks, double block_bytes,
                                        const RingCalibration& link) {
  const std::string dir = raw_ + "/sim/" + name;
  write_text(dir + "/cluster.json", ring_cluster_json(ranks, link));
  write_text(dir + "/workload.json", alltoall_workload_json(ranks, block_bytes));
  // Its one job starts at 0, so the run's makespan is its time; summary.json
  // keeps every digit, where jobs.csv rounds to microseconds (0.5% of 4 KiB's).
  const std::string summary = simulate(dir, "the all-to-all simulation", {}) + "/summary.json";
  return parse_summary_json(read_whole_file(summary), summary).makespan;
}

// gcsim's makespans of the three schedules: DAG jobs named by their schedule, JCT = makespan.
std::map<std::string, double> ValidationRun::simulate_farm(const FarmCalibration& calibration,
                                                           const std::string& label) {
  const std::string dir = raw_ + "/sim/renderfarm-" + label;
  write_text(dir + "/cluster.json", farm_cluster_json());
  write_text(dir + "/workload.json", farm_workload_json(calibration));
  return job_times(simulate(dir, "the render-farm simulation", {}));
}

void ValidationRun::add(const AllreduceComparison& comparison) {
  for (const std::string& wrong : comparison.wrong_results) {
    failed_ = true;
    note(wrong);
  }
  report_.rows.insert(report_.rows.end(), comparison.rows.begin(), comparison.rows.end());
  if (!comparison.other_allreduce.empty()) report_.other_allreduce = comparison.other_allreduce;
  report_.side_by_side.insert(report_.side_by_side.end(), comparison.side_by_side.begin(),
                              comparison.side_by_side.end());
}

void ValidationRun::shaped_allreduce(const PlannedProgram& script, const PlannedProgram& alltoall) {
  std::string ranks;
  for (std::uint32_t n : o_.ranks) ranks += (ranks.empty() ? "" : " ") + std::to_string(n);
  say("[shaped] ring allreduce between network namespaces, N = {" + ranks + "}, " + o_.bytes + ", links " + o_.rate +
      " each way");
  if (alltoall.runs) say("[alltoall] Open MPI's MPI_Alltoall on the same links, " + o_.bytes + " per rank");
  const std::string csv = raw_ + "/allreduce-shaped.csv";
  const std::string alltoall_csv = raw_ + "/alltoall-shaped.csv";
  const auto [steal0, total0] = cpu_ticks();
  const ProgramResult result = tools_.run_program(
      "/bin/bash", {script.program, "--build", tools_.build, "--rate", o_.rate, "--ranks", ranks, "--bytes", o_.bytes,
                    "--warmup", "1", "--iterations", std::to_string(o_.iterations), "--out", csv,
                    // Open MPI's side-by-side runs are measured, not bounded: the full mode only.
                    "--mpi", o_.quick ? "no" : "auto",
                    // The all-to-all is measured and simulated, in both modes; the script
                    // says when it cannot run it (no mpirun).
                    "--alltoall", alltoall.runs ? "auto" : "no", "--alltoall-out", alltoall_csv});
  const auto [steal1, total1] = cpu_ticks();
  write_text(raw_ + "/allreduce-shaped.log", result.output);
  if (result.exit_code == kExitSkipped) {
    note(script.name + " " + first_line_with(result.output, "skipped"));
    if (alltoall.runs) note(alltoall.name + " " + first_line_with(result.output, "skipped"));
    return;
  }
  if (result.exit_code != 0) return failure("the " + script.name, result, raw_ + "/allreduce-shaped.log");
  if (total1 > total0) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "; CPU steal during the shaped allreduce %.1f%%",
                  100.0 * static_cast<double>(steal1 - steal0) / static_cast<double>(total1 - total0));
    steal_note_ = buf;
  }
  const CsvTable table = read_csv_table(csv);
  const double nominal = rate_bytes_per_second(o_.rate);
  const auto simulate = [this](const std::string& name, std::uint32_t n, double bytes, int iterations,
                               const RingCalibration& link) { return simulate_ring(name, n, bytes, iterations, link); };
  add(compare_allreduce(table, "allreduce-shaped", true, nominal, simulate));
  std::map<std::uint32_t, LinkCalibrationRow> links;
  std::map<std::uint32_t, std::vector<RingTiming>> timings;
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (table.text(i, "impl") != "tcp-ring") continue;
    const auto n = static_cast<std::uint32_t>(table.number(i, "ranks"));
    LinkCalibrationRow& link = links[n];
    link.ranks = n;
    link.hop_latency_s = table.number(i, "hop_latency_s");
    link.goodput_Bps = table.number(i, "goodput_Bps");
    link.nominal_Bps = nominal;
    if (table.number(i, "bytes") == 64.0 * 1048576) link.busbw_64MiB = table.number(i, "busbw_Bps");
    // The fit takes the sizes the token bucket shapes: its burst lets 4 and 64 KiB through unshaped.
    if (table.number(i, "bytes") >= 1048576)
      timings[n].push_back({table.number(i, "bytes"), table.number(i, "time_median_s")});
  }
  std::map<std::uint32_t, RingCalibration> calibrated;
  for (auto& [n, link] : links) {
    link.fit = fit_ring_link(n, timings[n]);
    report_.links.push_back(link);
    if (link.busbw_64MiB) busbw_checks_.push_back(busbw_check(n, *link.busbw_64MiB, link.goodput_Bps));
    calibrated[n] = {link.hop_latency_s, link.goodput_Bps};
  }
  if (!alltoall.runs) return;
  // Without mpirun the script leaves the all-to-all out and says so.
  if (!fs::exists(alltoall_csv))
    return note(alltoall.name + " " + first_line_with(first_line_with(result.output, "all-to-all skipped"), "skipped"));
  shaped_alltoall(alltoall_csv, calibrated);
}

void ValidationRun::shaped_alltoall(const std::string& csv, const std::map<std::uint32_t, RingCalibration>& links) {
  const auto simulate = [this](const std::string& name, std::uint32_t n, double block, const RingCalibration& link) {
    return simulate_alltoall(name, n, block, link);
  };
  const AlltoallComparison comparison = compare_alltoall(read_csv_table(csv), links, simulate);
  for (const std::string& wrong : comparison.wrong_results) {
    failed_ = true;
    note(wrong);
  }
  report_.rows.insert(report_.rows.end(), comparison.rows.begin(), comparison.rows.end());
}

void ValidationRun::loopback_allreduce(const PlannedProgram& ring) {
  const std::vector<std::uint32_t> ranks = o_.quick ? std::vector<std::uint32_t>{3} : std::vector<std::uint32_t>{2, 4};
  const std::string sizes = o_.quick ? "1MiB" : "1MiB,16MiB";
  say("[loopback] ring allreduce over loopback, " + sizes);
  const std::string csv = raw_ + "/allreduce-loopback.csv";
  std::string log;
  for (std::uint32_t n : ranks) {
    const ProgramResult result = tools_.run_program(
        ring.program,
        {"local", "--ranks", std::to_string(n), "--bytes", sizes, "--warmup", "1", "--iterations", "5", "--csv", csv});
    log += result.output;
    if (result.exit_code != 0) {
      write_text(raw_ + "/allreduce-loopback.log", log);
      return failure("the " + ring.name, result, raw_ + "/allreduce-loopback.log");
    }
  }
  write_text(raw_ + "/allreduce-loopback.log", log);
  const auto simulate = [this](const std::string& name, std::uint32_t n, double bytes, int iterations,
                               const RingCalibration& link) { return simulate_ring(name, n, bytes, iterations, link); };
  add(compare_allreduce(read_csv_table(csv), "allreduce-loopback", false, 0, simulate));
}

void ValidationRun::render_farm(const PlannedProgram& farm) {
  struct FarmRun {
    double unit;
    std::string work;
    std::string label;
    bool bounded;
  };
  std::vector<FarmRun> runs{{0.05, "sleep", "sleep-50ms", true}, {0.01, "sleep", "sleep-10ms", true}};
  // Spinning tasks on more workers (4) than this machine may have cores: the
  // contention for cores is not in the model, so they are reported, not bounded.
  if (!o_.quick) runs.push_back({0.05, "spin", "spin-50ms", false});
  say("[renderfarm] frame chain, 10 frames x 3 elements, serial, parallel and pipelined");
  std::string log;
  std::optional<CsvTable> hand_count_source;
  for (const FarmRun& run : runs) {
    const std::string csv = raw_ + "/renderfarm-" + run.label + ".csv";
    char unit[32];
    std::snprintf(unit, sizeof unit, "%g", run.unit);
    const ProgramResult result = tools_.run_program(farm.program, {"--frames", "10", "--elements", "3", "--unit", unit,
                                                                   "--work", run.work, "--repeat", "5", "--csv", csv});
    log += result.output;
    if (result.exit_code != 0) {
      write_text(raw_ + "/renderfarm.log", log);
      return failure("the " + farm.name, result, raw_ + "/renderfarm.log");
    }
    const CsvTable measured = read_csv_table(csv);
    const double overhead = measured.number(0, "task_overhead_s");
    const double wake_up = measured.number(0, "wake_up_s");
    report_.executor.push_back(
        {run.work + " " + std::to_string(static_cast<int>(run.unit * 1000 + 0.5)) + " ms", overhead, wake_up});
    const auto simulated = simulate_farm({run.unit, overhead, wake_up}, run.label);
    for (std::size_t i = 0; i < measured.size(); ++i) {
      const std::string schedule = measured.text(i, "schedule");
      report_.rows.push_back({"renderfarm-" + run.label, schedule, measured.number(i, "makespan_median_s"), "measured",
                              farm_time(simulated, schedule), run.bounded ? renderfarm_bound(run.unit) : std::nullopt});
    }
    if (!hand_count_source) hand_count_source = measured;
  }
  write_text(raw_ + "/renderfarm.log", log);
  // 1-unit tasks: the simulation against the list schedule counted by hand.
  const auto units = simulate_farm({1, 0, 0}, "units");
  for (std::size_t i = 0; i < hand_count_source->size(); ++i) {
    const std::string schedule = hand_count_source->text(i, "schedule");
    report_.rows.push_back({"renderfarm-units", schedule, hand_count_source->number(i, "list_schedule_units"),
                            "hand-count", farm_time(units, schedule), hand_count_bound()});
  }
}

void ValidationRun::gpu_allreduce(const PlannedProgram& tool) {
  const std::string sizes = o_.quick ? "1MiB,16MiB" : "4KiB,1MiB,16MiB,64MiB";
  std::vector<std::string> args{"--bytes", sizes};
  if (tool.name == "CUDA ring") args = {"--ranks", o_.quick ? "3" : "2,3,4", "--bytes", sizes};
  const std::string csv = raw_ + "/" + file_name(tool.program) + ".csv";
  args.insert(args.end(), {"--warmup", "2", "--iterations", "10", "--csv", csv});
  const ProgramResult result = tools_.run_program(tool.program, args);
  const std::string log = raw_ + "/" + file_name(tool.program) + ".log";
  write_text(log, result.output);
  if (result.exit_code == kExitSkipped) return note(tool.name + " " + first_line_with(result.output, "skipped"));
  if (result.exit_code != 0) return failure("the " + tool.name, result, log);
  say("[gpu] " + tool.name + " ran");
  const CsvTable table = read_csv_table(csv);
  for (std::size_t i = 0; i < table.size(); ++i)
    report_.gpu.push_back({table.text(i, "impl"), table.text(i, "transport"),
                           static_cast<std::uint32_t>(table.number(i, "ranks")), table.number(i, "bytes"),
                           table.number(i, "time_median_s"), table.number(i, "busbw_Bps"),
                           static_cast<std::size_t>(table.number(i, "errors"))});
}

}  // namespace gcsim::validation
