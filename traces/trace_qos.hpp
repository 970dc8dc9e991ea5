// trace_qos.hpp: a trace's QoS-class and priority fields read as a job's
// (JobSpec::qos, JobSpec::priority), by the rules TraceReadOptions gives.
//
// A QoS field is compared ignoring case with the spot values, then the
// guaranteed ones; an empty field is guaranteed; any other value is not a
// class (the reader then skips the row as malformed). The defaults cover
// Kubernetes' QoS classes (Guaranteed, Burstable, BestEffort), Alibaba's
// (LS, LSR, LSE, BE) and cloud terms:
//   spot:       spot, be, besteffort, best-effort, best_effort, preemptible, opportunistic
//   guaranteed: guaranteed, burstable, ls, lsr, lse, prod, regular, on-demand
// A priority field is an integer (larger is more important) or a level
// named in TraceReadOptions::priority_levels, ignoring case; empty: 0.
//
//   std::optional<QosClass> qos = trace_qos_class("BestEffort", options);  // kSpot
//   std::optional<std::int64_t> p = trace_priority("high", options);      // with priority_levels high=10: 10
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/job_spec.hpp"
#include "traces/trace_read.hpp"

namespace gcsim {

const std::vector<std::string>& default_spot_values();
const std::vector<std::string>& default_guaranteed_values();

/// The class the field names, or nullopt when it names none.
std::optional<QosClass> trace_qos_class(std::string_view field, const TraceReadOptions& options);
/// The priority the field gives, or nullopt when it is neither an integer nor a level.
std::optional<std::int64_t> trace_priority(std::string_view field, const TraceReadOptions& options);

/// "Spot,Low" -> {"spot", "low"}; std::invalid_argument for an empty list or value.
std::vector<std::string> parse_qos_values(const std::string& text);
/// "low=0,high=10" -> {{"low", 0}, {"high", 10}}, names lower-cased;
/// std::invalid_argument for a pair without a name or an integer.
std::map<std::string, std::int64_t> parse_priority_levels(const std::string& text);

}  // namespace gcsim
