// mpi_run_options.hpp: the options every MPI benchmark reads beside its
// measurement's (MeasurementOptions): where each rank runs and how its rows
// are labelled.
//
//   if (read_mpi_run_option(flag, value, o.run)) continue;
//   if (!o.run.netns_prefix.empty()) enter_rank_namespace(o.run.netns_prefix);
#pragma once

#include <string>

namespace gcsim::real {

struct MpiRunOptions {
  std::string netns_prefix;  // each rank enters the namespace PREFIX<rank> (rank_namespace.hpp); empty: none
  std::string label;         // the rows' impl column
  std::string transport = "tcp";
};

/// Reads `--netns`, `--label` or `--transport` into `options`; false for
/// any other flag.
inline bool read_mpi_run_option(const std::string& flag, const std::string& value, MpiRunOptions& options) {
  if (flag == "--netns") {
    options.netns_prefix = value;
  } else if (flag == "--label") {
    options.label = value;
  } else if (flag == "--transport") {
    options.transport = value;
  } else {
    return false;
  }
  return true;
}

}  // namespace gcsim::real
