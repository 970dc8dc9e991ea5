// `gcsim validate`: run the real microbenchmarks of real/, simulate the same
// situations with gcsim, and report the error against gcsim's accuracy bounds
// (validation/error_bounds.hpp).
//
// SimGrid allows one engine per process, so every simulated configuration is
// a child `gcsim run` (this executable again, no shell); the real runs are
// the programs of build/real and scripts/real-allreduce.sh (network
// namespaces need root). What cannot run here is skipped with its reason.
#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "app/arguments.hpp"
#include "app/child_process.hpp"
#include "app/commands.hpp"
#include "app/python_plots.hpp"
#include "sim/io/atomic_output.hpp"
#include "sim/report/run_output_reader.hpp"
#include "validation/csv_table.hpp"
#include "validation/error_bounds.hpp"
#include "validation/renderfarm_scenario.hpp"
#include "validation/ring_scenario.hpp"
#include "validation/validation_report.hpp"

namespace gcsim {
namespace {

namespace fs = std::filesystem;
using namespace gcsim::validation;

constexpr int kExitSkipped = 77;  // what the real tools return when they cannot run here

const char* const kValidateUsage = R"(usage: gcsim validate [--quick] [--out DIR] [options]

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
  2. The same ring over loopback (CPU-bound: reported, not bounded).
  3. The render farm's frame chain (10 frames x 3 elements), serial,
     parallel and pipelined, with 50 ms and 10 ms sleeping tasks (and 50 ms
     spinning ones), against gcsim running the same DAG jobs with the
     executor's measured per-task overhead and wake-up latency; 1-unit tasks
     against the hand count 40 / 20 / 11.
  4. The CUDA ring and NCCL's allreduce where a GPU is visible (measured and
     checked, not simulated).

Bounds: shaped ring median |error| <= 2% for S >= 16 MiB and <= 5% for
1-4 MiB; render farm <= 2% for 50 ms tasks and <= 5% for 10 ms; gcsim vs the
closed form <= 0.1%; the ring's busbw >= 95% of the measured goodput at 64 MiB.

options:
  --quick             N = 3, 1, 16 and 64 MiB, no Open MPI, loopback N = 3, sleeping
                      render-farm tasks only: about a minute
  --out DIR           output folder (default out/validation)
  --ranks LIST        ranks of the shaped ring (default 2,3,4,5,6)
  --bytes LIST        sizes (default 4KiB,64KiB,1MiB,4MiB,16MiB,64MiB)
  --rate RATE         tc rate of every link, each way (default 200mbit)
  --iterations K      timed allreduces per size (default 5)
  --skip LIST         parts not to run: shaped,loopback,renderfarm,gpu
  --build DIR         the build folder holding real/ and validation/ (default: this
                      executable's)
  --plots WHEN        auto (default), yes (fail without matplotlib), no
  --quiet             do not print the report

exit status: 0 every bound holds, 2 bad command line, 4 outputs could not be
written, 6 --plots yes and no plot, 7 a real run failed, 8 a bound is broken
(outputs are written in the last three cases)
)";

struct Options {
  bool quick = false;
  std::string out = "out/validation";
  std::vector<std::uint32_t> ranks{2, 3, 4, 5, 6};
  std::string bytes = "4KiB,64KiB,1MiB,4MiB,16MiB,64MiB";
  std::string rate = "200mbit";
  int iterations = 5;
  std::set<std::string> skip;
  std::string build;
  PlotMode plots = PlotMode::kAuto;
  bool quiet = false;
};

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

// "200mbit" (tc's units: bit, kbit, mbit, gbit) in bytes per second.
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

Options parse_options(const Arguments& args) {
  Options o;
  o.quick = args.has("quick");
  if (o.quick) {
    o.ranks = {3};
    o.bytes = "1MiB,16MiB,64MiB";
    o.iterations = 3;
  }
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
  const std::set<std::string> parts{"shaped", "loopback", "renderfarm", "gpu"};
  for (const std::string& part : split_list(args.value_or("skip", ""))) {
    if (!parts.count(part)) throw UsageError("option '--skip': unknown part '" + part + "' (shaped, loopback, renderfarm, gpu)");
    o.skip.insert(part);
  }
  o.build = args.value_or("build", "");
  o.plots = parse_plot_mode(args.value_or("plots", "auto"));
  o.quiet = args.has("quiet");
  return o;
}

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

// Runs the real tools and the simulations, collecting the report.
class Validation {
 public:
  Validation(Options options, std::string self, std::string build)
      : o_(std::move(options)), self_(std::move(self)), build_(std::move(build)), raw_(o_.out + "/raw") {}

  ValidationReport run() {
    fs::remove_all(raw_);
    fs::create_directories(raw_);
    const auto start = std::chrono::steady_clock::now();
    const std::string load_before = load_average();
    report_.preamble.push_back("Generated by `gcsim validate" + std::string(o_.quick ? " --quick" : "") + "` on " +
                               now_utc() + ".");
    if (!o_.skip.count("shaped")) shaped_allreduce();
    if (!o_.skip.count("loopback")) loopback_allreduce();
    if (!o_.skip.count("renderfarm")) render_farm();
    if (!o_.skip.count("gpu")) gpu_allreduce();
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

  bool failed() const { return failed_; }
  const std::string& raw() const { return raw_; }

 private:
  void progress(const std::string& line) const {
    if (!o_.quiet) std::cout << "gcsim validate: " << line << std::endl;
  }
  void note(const std::string& line) {
    report_.notes.push_back(line);
    progress(line);
  }
  void failure(const std::string& what, const ChildResult& result, const std::string& log) {
    failed_ = true;
    note(what + " failed (exit status " + std::to_string(result.exit_code) + "); its output is in " + log);
  }
  std::string tool(const std::string& relative) const { return build_ + "/" + relative; }
  bool have(const std::string& path) const {
    std::error_code ec;
    return fs::is_regular_file(path, ec) && access(path.c_str(), X_OK) == 0;
  }

  // gcsim's time per iteration of one ring configuration.
  double simulate_ring(const std::string& name, std::uint32_t ranks, double bytes, int iterations,
                       const RingCalibration& link) {
    const std::string dir = raw_ + "/sim/" + name;
    write_text(dir + "/cluster.json", ring_cluster_json(ranks, link));
    write_text(dir + "/workload.json", ring_workload_json(ranks, bytes, static_cast<std::uint64_t>(iterations)));
    const ChildResult result =
        run_child(self_, {"run", "--cluster", dir + "/cluster.json", "--workload", dir + "/workload.json", "--policy",
                          "fifo", "--fidelity", "iteration", "--no-wall-time", "--out", dir + "/out"});
    write_text(dir + "/gcsim.log", result.output);
    if (result.exit_code != 0)
      throw std::runtime_error("the simulation in " + dir + " failed (exit status " +
                               std::to_string(result.exit_code) + "):\n" + result.output);
    const std::string jobs = dir + "/out/jobs.csv";
    return parse_jobs_csv(read_whole_file(jobs), jobs).at(0).jct / iterations;
  }

  // Simulated and closed-form rows for every tcp-ring row of an allreduce CSV.
  void compare_allreduce(const CsvTable& csv, const std::string& experiment, bool bounded, double nominal_Bps) {
    std::map<std::pair<int, double>, double> ring_times;
    for (std::size_t i = 0; i < csv.size(); ++i) {
      if (csv.text(i, "impl") != "tcp-ring") continue;
      const auto ranks = static_cast<std::uint32_t>(csv.number(i, "ranks"));
      const double bytes = csv.number(i, "bytes");
      const double measured = csv.number(i, "time_median_s");
      const int iterations = static_cast<int>(csv.number(i, "iterations"));
      const RingCalibration link{csv.number(i, "hop_latency_s"), csv.number(i, "goodput_Bps")};
      const std::string config = ranks_config(ranks, bytes);
      if (csv.number(i, "errors") != 0) {
        failed_ = true;
        note(experiment + " " + config + ": the real allreduce produced wrong elements");
      }
      const std::string name = experiment + "-" + std::to_string(ranks) + "-" + size_label(bytes);
      const double simulated = simulate_ring(name, ranks, bytes, iterations, link);
      report_.rows.push_back({experiment, config, measured, "measured", simulated,
                              bounded ? shaped_allreduce_bound(bytes) : std::nullopt});
      report_.rows.push_back({"gcsim-vs-closed-form", experiment + " " + config,
                              ring_closed_form_seconds(ranks, bytes, link), "closed-form", simulated, closed_form_bound()});
      if (nominal_Bps > 0) {
        const double nominal = simulate_ring(name + "-nominal", ranks, bytes, iterations, {link.hop_latency_s, nominal_Bps});
        report_.rows.push_back({experiment + "-nominal", config, measured, "measured", nominal, std::nullopt});
      }
      ring_times[{static_cast<int>(ranks), bytes}] = measured;
    }
    for (std::size_t i = 0; i < csv.size(); ++i) {
      if (csv.text(i, "impl") == "tcp-ring") continue;
      const auto key = std::make_pair(static_cast<int>(csv.number(i, "ranks")), csv.number(i, "bytes"));
      if (csv.number(i, "errors") != 0) {
        failed_ = true;
        note(csv.text(i, "impl") + " " + ranks_config(key.first, key.second) + ": wrong elements in the result");
      }
      if (!ring_times.count(key)) continue;
      report_.other_allreduce = "MPI_Allreduce (Open MPI)";
      report_.side_by_side.push_back({ranks_config(key.first, key.second), ring_times[key], csv.number(i, "time_median_s")});
    }
  }

  void shaped_allreduce() {
    const std::string script = scripts_dir() + "/real-allreduce.sh";
    std::string ranks;
    for (std::uint32_t n : o_.ranks) ranks += (ranks.empty() ? "" : " ") + std::to_string(n);
    progress("[shaped] ring allreduce between network namespaces, N = {" + ranks + "}, " + o_.bytes + ", links " +
             o_.rate + " each way");
    const std::string csv = raw_ + "/allreduce-shaped.csv";
    const auto [steal0, total0] = cpu_ticks();
    const ChildResult result =
        run_child("/bin/bash", {script, "--build", build_, "--rate", o_.rate, "--ranks", ranks, "--bytes", o_.bytes,
                                "--warmup", "1", "--iterations", std::to_string(o_.iterations), "--out", csv,
                                // Open MPI's side-by-side runs are measured, not bounded: the full mode only.
                                "--mpi", o_.quick ? "no" : "auto"});
    const auto [steal1, total1] = cpu_ticks();
    write_text(raw_ + "/allreduce-shaped.log", result.output);
    if (result.exit_code == kExitSkipped) {
      note("shaped ring allreduce " + first_line_with(result.output, "skipped"));
      return;
    }
    if (result.exit_code != 0) return failure("the shaped ring allreduce", result, raw_ + "/allreduce-shaped.log");
    if (total1 > total0) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "; CPU steal during the shaped allreduce %.1f%%",
                    100.0 * static_cast<double>(steal1 - steal0) / static_cast<double>(total1 - total0));
      steal_note_ = buf;
    }
    const CsvTable table = read_csv_table(csv);
    const double nominal = rate_bytes_per_second(o_.rate);
    compare_allreduce(table, "allreduce-shaped", true, nominal);
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
    for (auto& [n, link] : links) {
      link.fit = fit_ring_link(n, timings[n]);
      report_.links.push_back(link);
      if (link.busbw_64MiB) busbw_checks_.push_back(busbw_check(n, *link.busbw_64MiB, link.goodput_Bps));
    }
  }

  void loopback_allreduce() {
    const std::string ring = tool("real/real_allreduce");
    if (!have(ring)) return note("loopback ring allreduce skipped: " + ring + " was not built");
    const std::vector<std::uint32_t> ranks = o_.quick ? std::vector<std::uint32_t>{3} : std::vector<std::uint32_t>{2, 4};
    const std::string sizes = o_.quick ? "1MiB" : "1MiB,16MiB";
    progress("[loopback] ring allreduce over loopback, " + sizes);
    const std::string csv = raw_ + "/allreduce-loopback.csv";
    std::string log;
    for (std::uint32_t n : ranks) {
      const ChildResult result = run_child(ring, {"local", "--ranks", std::to_string(n), "--bytes", sizes, "--warmup",
                                                  "1", "--iterations", "5", "--csv", csv});
      log += result.output;
      if (result.exit_code != 0) {
        write_text(raw_ + "/allreduce-loopback.log", log);
        return failure("the loopback ring allreduce", result, raw_ + "/allreduce-loopback.log");
      }
    }
    write_text(raw_ + "/allreduce-loopback.log", log);
    compare_allreduce(read_csv_table(csv), "allreduce-loopback", false, 0);
  }

  void render_farm() {
    const std::string farm = tool("real/renderfarm");
    if (!have(farm)) return note("render farm skipped: " + farm + " was not built");
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
    progress("[renderfarm] frame chain, 10 frames x 3 elements, serial, parallel and pipelined");
    std::string log;
    std::optional<CsvTable> hand_count_source;
    for (const FarmRun& run : runs) {
      const std::string csv = raw_ + "/renderfarm-" + run.label + ".csv";
      char unit[32];
      std::snprintf(unit, sizeof unit, "%g", run.unit);
      ChildResult result = run_child(farm, {"--frames", "10", "--elements", "3", "--unit", unit, "--work", run.work,
                                            "--repeat", "5", "--csv", csv});
      log += result.output;
      if (result.exit_code != 0) {
        write_text(raw_ + "/renderfarm.log", log);
        return failure("the render farm", result, raw_ + "/renderfarm.log");
      }
      const CsvTable measured = read_csv_table(csv);
      const double overhead = measured.number(0, "task_overhead_s");
      const double wake_up = measured.number(0, "wake_up_s");
      report_.executor.push_back({run.work + " " + std::to_string(static_cast<int>(run.unit * 1000 + 0.5)) + " ms",
                                  overhead, wake_up});
      const auto simulated = simulate_farm({run.unit, overhead, wake_up}, run.label);
      for (std::size_t i = 0; i < measured.size(); ++i) {
        const std::string schedule = measured.text(i, "schedule");
        report_.rows.push_back({"renderfarm-" + run.label, schedule, measured.number(i, "makespan_median_s"),
                                "measured", farm_time(simulated, schedule),
                                run.bounded ? renderfarm_bound(run.unit) : std::nullopt});
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

  // gcsim's makespans of the three schedules: DAG jobs named by their schedule, JCT = makespan.
  std::map<std::string, double> simulate_farm(const FarmCalibration& calibration, const std::string& label) {
    const std::string dir = raw_ + "/sim/renderfarm-" + label;
    write_text(dir + "/cluster.json", farm_cluster_json());
    write_text(dir + "/workload.json", farm_workload_json(calibration));
    const ChildResult result = run_child(self_, {"run", "--cluster", dir + "/cluster.json", "--workload",
                                                 dir + "/workload.json", "--policy", "fifo", "--no-wall-time", "--out",
                                                 dir + "/out"});
    write_text(dir + "/gcsim.log", result.output);
    if (result.exit_code != 0)
      throw std::runtime_error("the render-farm simulation in " + dir + " failed (exit status " +
                               std::to_string(result.exit_code) + "):\n" + result.output);
    const std::string jobs = dir + "/out/jobs.csv";
    std::map<std::string, double> makespans;
    for (const JobsCsvRow& row : parse_jobs_csv(read_whole_file(jobs), jobs)) makespans[row.id] = row.jct;
    return makespans;
  }

  static double farm_time(const std::map<std::string, double>& simulated, const std::string& schedule) {
    const auto it = simulated.find(schedule);
    if (it == simulated.end()) throw std::runtime_error("the render-farm simulation has no schedule '" + schedule + "'");
    return it->second;
  }


  void gpu_allreduce() {
    struct GpuTool {
      std::string path;
      std::vector<std::string> args;
      std::string name;
    };
    const std::string sizes = o_.quick ? "1MiB,16MiB" : "4KiB,1MiB,16MiB,64MiB";
    const std::vector<GpuTool> tools{
        {tool("real/cuda_ring_allreduce"), {"--ranks", o_.quick ? "3" : "2,3,4", "--bytes", sizes}, "CUDA ring"},
        {tool("real/nccl_allreduce"), {"--bytes", sizes}, "NCCL allreduce"}};
    for (const GpuTool& t : tools) {
      if (!have(t.path)) {
        note(t.name + " skipped: not built (needs nvcc" + std::string(t.name == "NCCL allreduce" ? " and NCCL" : "") +
             " at configure time)");
        continue;
      }
      const std::string csv = raw_ + "/" + fs::path(t.path).filename().string() + ".csv";
      std::vector<std::string> args = t.args;
      args.insert(args.end(), {"--warmup", "2", "--iterations", "10", "--csv", csv});
      const ChildResult result = run_child(t.path, args);
      const std::string log = raw_ + "/" + fs::path(t.path).filename().string() + ".log";
      write_text(log, result.output);
      if (result.exit_code == kExitSkipped) {
        note(t.name + " " + first_line_with(result.output, "skipped"));
        continue;
      }
      if (result.exit_code != 0) {
        failure("the " + t.name, result, log);
        continue;
      }
      progress("[gpu] " + t.name + " ran");
      const CsvTable table = read_csv_table(csv);
      for (std::size_t i = 0; i < table.size(); ++i)
        report_.gpu.push_back({table.text(i, "impl"), table.text(i, "transport"),
                               static_cast<std::uint32_t>(table.number(i, "ranks")), table.number(i, "bytes"),
                               table.number(i, "time_median_s"), table.number(i, "busbw_Bps"),
                               static_cast<std::size_t>(table.number(i, "errors"))});
    }
  }

  static std::string first_line_with(const std::string& text, const std::string& word) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (line.find(word) != std::string::npos) return line.substr(line.find(word));
    return word;
  }

  Options o_;
  std::string self_;
  std::string build_;
  std::string raw_;
  ValidationReport report_;
  std::vector<BoundCheck> busbw_checks_;
  std::string steal_note_;
  bool failed_ = false;
};

}  // namespace

int validate_command(int argc, char** argv) {
  for (int i = 0; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::cout << kValidateUsage;
      return exit_codes::kOk;
    }
  Options options;
  std::string self;
  std::string build;
  try {
    const Arguments args(argc, argv,
                         {{"quick", false}, {"out"}, {"ranks"}, {"bytes"}, {"rate"}, {"iterations"}, {"skip"},
                          {"build"}, {"plots"}, {"quiet", false}});
    options = parse_options(args);
    self = fs::read_symlink("/proc/self/exe").string();
    // build/app/gcsim -> build
    build = options.build.empty() ? fs::path(self).parent_path().parent_path().string() : options.build;
  } catch (const UsageError& e) {
    std::cerr << "gcsim validate: " << e.what() << "\n\n" << kValidateUsage;
    return exit_codes::kUsage;
  }
  try {
    Validation validation(options, self, build);
    ValidationReport report;
    try {
      report = validation.run();
    } catch (const std::exception& e) {  // a simulation or a real tool's output that could not be read
      std::cerr << "gcsim validate: " << e.what() << "\n";
      return exit_codes::kRunFailed;
    }
    const std::string csv = validation_csv(report.rows);
    const std::string markdown = validation_markdown(report);
    write_text(validation.raw() + "/validation.csv", csv);
    std::optional<std::string> png;
    std::optional<std::string> plot_problem;
    if (options.plots != PlotMode::kNo) {
      std::string output;
      plot_problem = run_plot_script("plot_validation.py",
                                     {validation.raw() + "/validation.csv", validation.raw() + "/validation.png"}, output);
      if (!plot_problem) png = read_whole_file(validation.raw() + "/validation.png");
    }
    OutputSet out(options.out);
    out.stage("validation.csv", csv);
    out.stage("validation.md", markdown);
    if (png) out.stage("validation.png", *png);
    out.commit();
    if (!options.quiet) std::cout << markdown;
    std::cout << "gcsim validate: wrote " << options.out << "/validation.csv, validation.md"
              << (png ? ", validation.png" : "") << "\n";
    if (plot_problem) {
      std::cerr << "gcsim validate: no plot: " << *plot_problem << "\n";
      if (options.plots == PlotMode::kYes) return exit_codes::kPlotError;
    }
    if (validation.failed()) return exit_codes::kRunFailed;
    const std::size_t broken = broken_checks(report.checks);
    if (broken > 0) {
      for (const BoundCheck& c : report.checks)
        if (!c.holds)
          std::cerr << "gcsim validate: bound broken: " << c.name << ": " << c.statistic << " " << c.value << "% (limit "
                    << c.limit << "%)\n";
      return exit_codes::kBoundBroken;
    }
    return exit_codes::kOk;
  } catch (const std::exception& e) {
    std::cerr << "gcsim validate: " << e.what() << "\n";
    return exit_codes::kOutputError;
  }
}

}  // namespace gcsim
