// energy_outputs.hpp: what `gcsim run --energy` adds to a run's files
// (energy_meter.hpp says how it is counted).
//
//   power.csv     time, watts: the IT power (GPUs and nodes' base) from
//                 each time until the next row, one row per instant at
//                 which it changed (never binned)
//   jobs.csv      energy_kwh, energy_kwh_per_gpu_hour, last (jobs_csv_energy_fields)
//   summary.json  "energy": kWh in all (IT and with PUE), of the jobs, of
//                 idle GPUs, of the nodes' base, thrown away by lost work,
//                 per user and per queue; mean and peak kW; for each job
//                 under a stage power plan, its stages' watts and speeds
//                 and the pipeline's stretch ("stage_power_states")
//
//   out.stage("power.csv", [&](std::ostream& f) { write_power_csv(f, report); });
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/core/ids.hpp"
#include "sim/report/energy_meter.hpp"

namespace gcsim {

inline constexpr double kJoulesPerKwh = 3.6e6;

/// summary.json's "energy".
nlohmann::ordered_json energy_summary_json(const EnergyReport& report);
void write_power_csv(std::ostream& out, const EnergyReport& report);
/// jobs.csv's header addition, and a job's fields (each with its leading comma).
inline constexpr const char* kJobsCsvEnergyHeader = ",energy_kwh,energy_kwh_per_gpu_hour";
std::string jobs_csv_energy_fields(const EnergyReport& report, JobIndex job);

}  // namespace gcsim
