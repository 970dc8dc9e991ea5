#include "validation/validation_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "validation/ring_scenario.hpp"

namespace gcsim::validation {

namespace {

std::string format(const char* spec, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, spec, value);
  return buf;
}

// Errors below 5e-4 % print as 0, not as -0.000.
double shown_error(const ValidationRow& row) {
  const double e = error_pct(row);
  return std::fabs(e) < 5e-4 ? 0.0 : e;
}

std::string bound_text(const ValidationRow& row) {
  return row.bound ? format("%g%%", row.bound->limit_pct) : std::string();
}

}  // namespace

std::string validation_csv(const std::vector<ValidationRow>& rows) {
  std::ostringstream out;
  out << "experiment,configuration,reference,reference_kind,simulated,error_pct,bound,bound_pct\n";
  for (const ValidationRow& row : rows) {
    out << row.experiment << ',' << row.configuration << ',' << format("%.9g", row.reference) << ','
        << row.reference_kind << ',' << format("%.9g", row.simulated) << ',' << format("%.4f", shown_error(row)) << ','
        << (row.bound ? row.bound->name : "") << ',' << (row.bound ? format("%g", row.bound->limit_pct) : "") << '\n';
  }
  return out.str();
}

std::size_t broken_checks(const std::vector<BoundCheck>& checks) {
  return static_cast<std::size_t>(
      std::count_if(checks.begin(), checks.end(), [](const BoundCheck& c) { return !c.holds; }));
}

std::string validation_markdown(const ValidationReport& report) {
  std::ostringstream md;
  md << "# Validation: real runs against their simulation\n\n";
  for (const std::string& line : report.preamble) md << line << "\n";
  md << "error = (simulated - reference) / reference. " << report.checks.size() - broken_checks(report.checks) << " of "
     << report.checks.size() << " bound checks hold.\n\n";
  for (const std::string& note : report.notes) md << "- " << note << "\n";
  if (!report.notes.empty()) md << "\n";

  md << "## Bounds\n\n| check | statistic | rows | value | limit | holds |\n|---|---|---:|---:|---:|---|\n";
  for (const BoundCheck& c : report.checks) {
    const bool lower = c.statistic == "busbw / goodput";
    md << "| " << c.name << " | " << c.statistic << " | " << c.rows << " | " << format("%.2f%%", c.value) << " | "
       << (lower ? ">= " : "<= ") << format("%g%%", c.limit) << " | " << (c.holds ? "yes" : "**no**") << " |\n";
  }
  md << "\n";

  if (!report.links.empty()) {
    md << "## Link calibration\n\n"
          "Measured on the ring's own connections (hop latency, ring-step goodput), and fitted by least squares "
          "to the ring's times over every measured size of at least 1 MiB (2(N-1)(alpha + S/(N B)), relative "
          "residuals; "
          "smaller sizes pass the token bucket's burst unshaped). Bulk sizes pin the goodput, not the latency: a "
          "fitted latency of 0 means the fit wanted a negative one.\n\n"
          "| ranks | hop latency (us) | ring-step goodput (MB/s) | goodput / nominal | busbw at 64 MiB (MB/s) | busbw "
          "/ goodput "
          "| fitted latency (us) | fitted goodput (MB/s) | fit's largest residual |\n"
          "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const LinkCalibrationRow& l : report.links) {
      md << "| " << l.ranks << " | " << format("%.1f", l.hop_latency_s * 1e6) << " | "
         << format("%.3f", l.goodput_Bps / 1e6) << " | " << format("%.1f%%", 100 * l.goodput_Bps / l.nominal_Bps)
         << " | " << (l.busbw_64MiB ? format("%.3f", *l.busbw_64MiB / 1e6) : "") << " | "
         << (l.busbw_64MiB ? format("%.1f%%", 100 * *l.busbw_64MiB / l.goodput_Bps) : "") << " | "
         << (l.fit ? format("%.1f", l.fit->hop_latency_s * 1e6) : "") << " | "
         << (l.fit ? format("%.3f", l.fit->goodput_Bps / 1e6) : "") << " | "
         << (l.fit ? format("%.2f%%", 100 * l.fit->max_relative_residual) : "") << " |\n";
    }
    md << "\n";
  }
  if (!report.side_by_side.empty()) {
    md << "## The ring and " << report.other_allreduce << " on the same links (measured)\n\n"
       << "| configuration | ring (s) | " << report.other_allreduce << " (s) | ratio |\n|---|---:|---:|---:|\n";
    for (const SideBySideRow& r : report.side_by_side)
      md << "| " << r.configuration << " | " << format("%.6g", r.ring_s) << " | " << format("%.6g", r.other_s) << " | "
         << format("%.2f", r.other_s / r.ring_s) << " |\n";
    md << "\n";
  }
  if (!report.executor.empty()) {
    md << "## Render-farm executor (measured before each set of runs)\n\n"
          "| tasks | per-task overhead (us) | wake-up latency (us) |\n|---|---:|---:|\n";
    for (const ExecutorRow& e : report.executor)
      md << "| " << e.tasks << " | " << format("%.1f", e.task_overhead_s * 1e6) << " | "
         << format("%.1f", e.wake_up_s * 1e6) << " |\n";
    md << "\n";
  }
  if (!report.gpu.empty()) {
    md << "## GPU allreduce (measured, checked against the exact sum)\n\n"
          "| impl | transport | ranks | size | time (s) | busbw (GB/s) | wrong elements "
          "|\n|---|---|---:|---|---:|---:|---:|\n";
    for (const GpuRow& g : report.gpu)
      md << "| " << g.impl << " | " << g.transport << " | " << g.ranks << " | " << size_label(g.bytes) << " | "
         << format("%.6g", g.time_s) << " | " << format("%.3f", g.busbw_Bps / 1e9) << " | " << g.wrong_elements
         << " |\n";
    md << "\n";
  }

  md << "## Results\n\n| experiment | configuration | reference | kind | simulated | error | bound |\n"
        "|---|---|---:|---|---:|---:|---:|\n";
  for (const ValidationRow& row : report.rows)
    md << "| " << row.experiment << " | " << row.configuration << " | " << format("%.6g", row.reference) << " | "
       << row.reference_kind << " | " << format("%.6g", row.simulated) << " | " << format("%+.2f%%", shown_error(row))
       << " | " << bound_text(row) << " |\n";
  md << "\n## Median |error| by experiment\n\n| experiment | rows | median abs error |\n|---|---:|---:|\n";
  std::vector<std::string> order;
  std::map<std::string, std::vector<double>> errors;
  for (const ValidationRow& row : report.rows) {
    if (!errors.count(row.experiment)) order.push_back(row.experiment);
    errors[row.experiment].push_back(std::fabs(error_pct(row)));
  }
  for (const std::string& name : order) {
    std::vector<double> e = errors[name];
    std::sort(e.begin(), e.end());
    const std::size_t n = e.size();
    const double median = n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
    md << "| " << name << " | " << n << " | " << format("%.2f%%", median) << " |\n";
  }
  return md.str();
}

}  // namespace gcsim::validation
