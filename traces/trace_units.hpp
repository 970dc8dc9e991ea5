// trace_units.hpp: the units of a trace's amount columns (CPU, host memory,
// GPU memory). A plain number in such a column is in the unit the user
// declares for it; a field may also carry its own unit, in gcsim's cluster
// format ("16GB", "16GiB") or as Kubernetes writes quantities ("16Gi", "16G",
// "500m" CPU).
//
//   const double bytes_per_unit = parse_memory_unit("MiB");        // 1048576
//   std::optional<double> bytes = parse_bytes_with_unit("16Gi");   // 16 x 2^30
//   std::optional<double> cores = parse_cores_with_unit("2500m");  // 2.5
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gcsim {

/// "cores" (1) or "millicores" / "milli" (1e-3, thousandths of a core, as
/// Kubernetes counts CPU); throws std::invalid_argument otherwise.
double parse_cpu_unit(const std::string& text);
/// A size unit of the cluster format (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)
/// in bytes; throws std::invalid_argument otherwise.
double parse_memory_unit(const std::string& text);
/// The units the two accept, for messages: "cores, millicores" and "B, KB, ...".
std::string cpu_unit_list();
std::string memory_unit_list();

/// A size written with its unit: "16GB", "16GiB", "16Gi", "16G", "16 KiB"
/// (Kubernetes' suffixes k, M, G, T, P, E and Ki ... Ei too); nullopt for a
/// plain number or a field that is neither.
std::optional<double> parse_bytes_with_unit(std::string_view text);
/// CPU written with its unit, Kubernetes' millicores "2500m" (2.5 cores);
/// nullopt otherwise.
std::optional<double> parse_cores_with_unit(std::string_view text);

}  // namespace gcsim
