// progress_line.hpp: the line a long run keeps up to date on a terminal:
// simulated time, jobs ended of all, events a second and the time left.
//
//   ProgressLine line(std::cerr);
//   options.progress = [&](const SimulationProgress& p) { line.show(p); };
#pragma once

#include <ostream>
#include <string>

#include "sim/engine/simulation.hpp"

namespace gcsim {

/// "simulated 3.20 h | jobs 1234/100000 | 1.25M events/s | 12 s left"; the
/// time left is the wall time so far scaled by the jobs not ended yet.
std::string progress_text(const SimulationProgress& progress);

/// Rewrites one line in place (a carriage return before each), and ends it
/// at the last report.
class ProgressLine {
 public:
  explicit ProgressLine(std::ostream& out) : out_(out) {}
  void show(const SimulationProgress& progress);

 private:
  std::ostream& out_;
  std::size_t width_ = 0;  // of the line shown, to blank what a shorter one leaves
};

/// Whether `--progress` (auto, always or never) shows the line: auto when
/// standard error is a terminal and the run is not --quiet.
bool progress_wanted(const std::string& mode, bool quiet);

}  // namespace gcsim
