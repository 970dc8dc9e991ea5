#include "app/progress_line.hpp"

#include <unistd.h>

#include <cstdio>

#include "sim/core/usage_error.hpp"

namespace gcsim {
namespace {

std::string duration(double seconds) {
  char text[32];
  if (seconds >= 3600)
    std::snprintf(text, sizeof text, "%.2f h", seconds / 3600);
  else if (seconds >= 60)
    std::snprintf(text, sizeof text, "%.1f min", seconds / 60);
  else
    std::snprintf(text, sizeof text, "%.0f s", seconds);
  return text;
}

std::string rate(double per_second) {
  char text[32];
  if (per_second >= 1e6)
    std::snprintf(text, sizeof text, "%.2fM", per_second / 1e6);
  else if (per_second >= 1e3)
    std::snprintf(text, sizeof text, "%.1fk", per_second / 1e3);
  else
    std::snprintf(text, sizeof text, "%.0f", per_second);
  return text;
}

}  // namespace

std::string progress_text(const SimulationProgress& p) {
  std::string text =
      "simulated " + duration(p.simulated) + " | jobs " + std::to_string(p.jobs_ended) + "/" + std::to_string(p.jobs);
  if (p.wall_seconds > 0) text += " | " + rate(static_cast<double>(p.events) / p.wall_seconds) + " events/s";
  if (p.done)
    text += " | done in " + duration(p.wall_seconds);
  else if (p.jobs_ended > 0 && p.jobs_ended < p.jobs)
    text += " | " +
            duration(p.wall_seconds * static_cast<double>(p.jobs - p.jobs_ended) / static_cast<double>(p.jobs_ended)) +
            " left";
  return text;
}

void ProgressLine::show(const SimulationProgress& progress) {
  const std::string text = "gcsim: " + progress_text(progress);
  out_ << '\r' << text;
  if (text.size() < width_) out_ << std::string(width_ - text.size(), ' ');
  width_ = text.size();
  if (progress.done) out_ << '\n';
  out_.flush();
}

bool progress_wanted(const std::string& mode, bool quiet) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  if (mode != "auto") throw UsageError("option '--progress' must be 'auto', 'always' or 'never', got '" + mode + "'");
  return !quiet && ::isatty(STDERR_FILENO) == 1;
}

}  // namespace gcsim
