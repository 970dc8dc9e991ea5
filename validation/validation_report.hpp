// validation_report.hpp: the outputs of `gcsim validate`: validation.csv (one
// row per compared figure) and validation.md (the same for people, with the
// link calibration, the executor overheads, the side-by-side MPI and GPU
// figures, and every bound's check).
//
//   ValidationReport report;
//   report.rows = ...; report.checks = check_bounds(report.rows);
//   out.stage("validation.csv", validation_csv(report.rows));
//   out.stage("validation.md", validation_markdown(report));
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "validation/error_bounds.hpp"
#include "validation/ring_fit.hpp"

namespace gcsim::validation {

/// A shaped link as measured by the ring's own calibration.
struct LinkCalibrationRow {
  std::uint32_t ranks = 0;
  double hop_latency_s = 0;
  double goodput_Bps = 0;
  double nominal_Bps = 0;             // the rate the links were shaped to
  std::optional<double> busbw_64MiB;  // the ring's busbw at 64 MiB, when measured
  std::optional<RingLinkFit> fit;     // latency and goodput fitted over every measured size
};

/// Measured times of another allreduce on the same links and sizes.
struct SideBySideRow {
  std::string configuration;  // "N=3 S=16MiB"
  double ring_s = 0;
  double other_s = 0;
};

/// The render-farm executor's own costs, measured before a set of runs.
struct ExecutorRow {
  std::string tasks;  // "sleep 50 ms"
  double task_overhead_s = 0;
  double wake_up_s = 0;
};

/// A measured allreduce on GPUs (not simulated).
struct GpuRow {
  std::string impl;
  std::string transport;
  std::uint32_t ranks = 0;
  double bytes = 0;
  double time_s = 0;
  double busbw_Bps = 0;
  std::size_t wrong_elements = 0;
};

struct ValidationReport {
  std::vector<std::string> preamble;  // when, where, how long: one line each
  std::vector<std::string> notes;     // parts skipped or failed, with why
  std::vector<LinkCalibrationRow> links;
  std::string other_allreduce;  // the name of the side-by-side implementation, e.g. "MPI_Allreduce (Open MPI)"
  std::vector<SideBySideRow> side_by_side;
  std::vector<ExecutorRow> executor;
  std::vector<GpuRow> gpu;
  std::vector<ValidationRow> rows;
  std::vector<BoundCheck> checks;
};

/// experiment,configuration,reference,reference_kind,simulated,error_pct,bound,bound_pct
std::string validation_csv(const std::vector<ValidationRow>& rows);

std::string validation_markdown(const ValidationReport& report);

/// Checks that do not hold.
std::size_t broken_checks(const std::vector<BoundCheck>& checks);

}  // namespace gcsim::validation
