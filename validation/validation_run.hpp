// validation_run.hpp: what `gcsim validate` runs, and the run itself: the
// real microbenchmarks of real/, gcsim simulating the same situations, and
// the report of the one against the other (validation_report.hpp).
//
// The library starts no process itself: programs run through the
// ProgramRunner it is given (the gcsim executable hands it one that runs a
// child without a shell; a test, one that answers from crafted output).
// SimGrid allows one engine per process, so every simulation is a child
// `gcsim run`. What cannot run here is skipped with its reason (the plan).
//
//   ValidationTools tools{"/path/to/gcsim", "build", "scripts", run_program, is_executable};
//   ValidationRun run(options, tools, &std::cout);
//   ValidationReport report = run.run();
//   switch (validation_outcome(false, run.failed(), report.checks)) { ... }
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "validation/csv_table.hpp"
#include "validation/renderfarm_scenario.hpp"
#include "validation/ring_scenario.hpp"
#include "validation/validation_report.hpp"

namespace gcsim::validation {

/// What to run: `gcsim validate`'s options, less where the report is shown.
struct ValidationOptions {
  bool quick = false;
  std::string out = "out/validation";
  std::vector<std::uint32_t> ranks{2, 3, 4, 5, 6};
  std::string bytes = "4KiB,64KiB,1MiB,4MiB,16MiB,64MiB";
  std::string rate = "200mbit";
  int iterations = 5;
  std::set<std::string> skip;  // of kPartNames
};

/// The parts --skip may name, in the order they run. The all-to-all runs on
/// the shaped part's links, within its run, so it needs that part.
inline const std::vector<std::string> kPartNames{"shaped", "alltoall", "loopback", "renderfarm", "gpu"};

/// --quick's ranks, sizes and iterations, before any option given beside it.
ValidationOptions quick_options();

/// "200mbit" (tc's units: bit, kbit, mbit, gbit) in bytes per second; a
/// UsageError naming option '--rate' for anything else.
double rate_bytes_per_second(const std::string& rate);

/// What a program run returned: its exit status (77: it cannot run here and
/// says why) and its standard output and error together.
struct ProgramResult {
  int exit_code = 0;
  std::string output;
};

/// Runs `program` with `args` and waits for it; throws std::runtime_error
/// only when no process could be created.
using ProgramRunner = std::function<ProgramResult(const std::string& program, const std::vector<std::string>& args)>;

struct ValidationTools {
  std::string gcsim;    // the executable that simulates (`gcsim run`)
  std::string build;    // the build folder holding real/
  std::string scripts;  // the folder holding real-allreduce.sh
  ProgramRunner run_program;
  std::function<bool(const std::string& path)> is_built;  // an executable file is there
};

/// One program of the plan, and whether it runs.
struct PlannedProgram {
  std::string part;     // its entry of kPartNames
  std::string name;     // what the notes call it: "loopback ring allreduce", "CUDA ring", ...
  std::string program;  // the path run
  bool runs = true;
  std::string skip_note;  // why not, for the report; empty when --skip named the part
};

/// The programs of every part, in the order they run: each runs unless
/// --skip names its part (left out silently) or it was not built (noted);
/// the all-to-all, started by the shaped part's script, also not when --skip
/// names the shaped part (noted). The shaped ring is a script that decides
/// itself whether it can run here.
std::vector<PlannedProgram> validation_plan(const ValidationOptions& options, const ValidationTools& tools);

/// The time gcsim simulates for one iteration of a ring allreduce of `ranks`
/// ranks over `bytes` on links calibrated as `link`; `name` names its files.
using RingSimulation = std::function<double(const std::string& name, std::uint32_t ranks, double bytes, int iterations,
                                            const RingCalibration& link)>;

/// The rows of an allreduce CSV (real_allreduce's columns) set against gcsim.
struct AllreduceComparison {
  std::vector<ValidationRow> rows;
  std::vector<SideBySideRow> side_by_side;  // another implementation (impl other than tcp-ring) beside the ring
  std::string other_allreduce;              // its name, when there is one
  std::vector<std::string> wrong_results;   // a line per row whose result had wrong elements
};

/// For every tcp-ring row: measured against simulated (bounded by
/// shaped_allreduce_bound when `bounded`), gcsim against the closed form,
/// and with `nominal_Bps` > 0 measured against gcsim on the nominal rate.
/// Other implementations' rows of a ring's ranks and size go side by side.
AllreduceComparison compare_allreduce(const CsvTable& csv, const std::string& experiment, bool bounded,
                                      double nominal_Bps, const RingSimulation& simulate);

/// The time gcsim simulates for an all-to-all of `ranks` ranks exchanging
/// blocks of `block_bytes` over links calibrated as `link`; `name` names its files.
using AlltoallSimulation = std::function<double(const std::string& name, std::uint32_t ranks, double block_bytes,
                                                const RingCalibration& link)>;

/// The rows of an all-to-all CSV (mpi_alltoall's columns) set against gcsim.
struct AlltoallComparison {
  std::vector<ValidationRow> rows;
  std::vector<std::string> wrong_results;  // a line per row whose result had wrong elements
};

/// For every row: measured against simulated on the links the ring
/// calibrated for its ranks (`links`, by ranks; a row of ranks without one
/// is a std::runtime_error), bounded by shaped_alltoall_bound, and gcsim
/// against the closed form.
AlltoallComparison compare_alltoall(const CsvTable& csv, const std::map<std::uint32_t, RingCalibration>& links,
                                    const AlltoallSimulation& simulate);

/// How a validation ended, in the order they take precedence.
enum class ValidationOutcome {
  kNoPlot,       // plots were required and could not be drawn
  kRunFailed,    // a real run failed or gave wrong results
  kBoundBroken,  // a check did not hold
  kBoundsHold,
};
ValidationOutcome validation_outcome(bool required_plot_missing, bool run_failed,
                                     const std::vector<BoundCheck>& checks);

/// Runs the plan, writing raw files under options.out/raw, and collects the
/// report. Progress lines go to `progress` (nullptr: none). A simulation that
/// fails or an output that cannot be read throws std::runtime_error; a real
/// run that fails is noted in the report and makes failed() true.
class ValidationRun {
 public:
  ValidationRun(ValidationOptions options, ValidationTools tools, std::ostream* progress);

  ValidationReport run();
  bool failed() const { return failed_; }
  /// Where the raw files go: options.out + "/raw".
  const std::string& raw() const { return raw_; }

 private:
  void say(const std::string& line) const;
  void note(const std::string& line);
  void failure(const std::string& what, const ProgramResult& result, const std::string& log);
  double simulate_ring(const std::string& name, std::uint32_t ranks, double bytes, int iterations,
                       const RingCalibration& link);
  double simulate_alltoall(const std::string& name, std::uint32_t ranks, double block_bytes,
                           const RingCalibration& link);
  std::map<std::string, double> simulate_farm(const FarmCalibration& calibration, const std::string& label);
  std::string simulate(const std::string& dir, const std::string& what, const std::vector<std::string>& run_options);
  void add(const AllreduceComparison& comparison);
  void shaped_allreduce(const PlannedProgram& script, const PlannedProgram& alltoall);
  void shaped_alltoall(const std::string& csv, const std::map<std::uint32_t, RingCalibration>& links);
  void loopback_allreduce(const PlannedProgram& ring);
  void render_farm(const PlannedProgram& farm);
  void gpu_allreduce(const PlannedProgram& tool);

  ValidationOptions o_;
  ValidationTools tools_;
  std::ostream* progress_;
  std::string raw_;
  ValidationReport report_;
  std::vector<BoundCheck> busbw_checks_;
  std::string steal_note_;
  bool failed_ = false;
};

}  // namespace gcsim::validation
