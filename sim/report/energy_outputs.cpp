#include "sim/report/energy_outputs.hpp"

#include "sim/core/number_text.hpp"
#include "sim/report/row_block_writer.hpp"

namespace gcsim {

namespace {

double kwh(double joules) { return joules / kJoulesPerKwh; }

nlohmann::ordered_json kwh_by_name(const std::map<std::string, double>& joules) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [name, value] : joules) j[name] = kwh(value);
  return j;
}

}  // namespace

nlohmann::ordered_json energy_summary_json(const EnergyReport& r) {
  nlohmann::ordered_json j = {{"it_kwh", kwh(r.it_joules)},
                              {"facility_kwh", kwh(r.facility_joules)},
                              {"pue", r.pue},
                              {"jobs_kwh", kwh(r.jobs_joules)},
                              {"idle_gpu_kwh", kwh(r.idle_gpu_joules)},
                              {"base_kwh", kwh(r.base_joules)},
                              {"lost_work_kwh", kwh(r.lost_joules)},
                              {"mean_kw", r.mean_watts / 1000.0},
                              {"peak_kw", r.peak_watts / 1000.0},
                              {"per_user_kwh", kwh_by_name(r.user_joules)},
                              {"per_queue_kwh", kwh_by_name(r.queue_joules)}};
  if (r.nodes_sleep) j["sleep_kwh"] = kwh(r.sleep_joules);  // only where nodes may sleep
  if (!r.stage_power_states.empty()) {                      // only where a job has a stage power plan
    nlohmann::ordered_json& plans = j["stage_power_states"] = nlohmann::ordered_json::array();
    for (const auto& [job, states] : r.stage_power_states) {
      nlohmann::ordered_json watts = nlohmann::ordered_json::array(), speeds = nlohmann::ordered_json::array(),
                             mean = nlohmann::ordered_json::array(), ops = nlohmann::ordered_json::array();
      for (const PlannedStage& stage : states.stages) {
        watts.push_back(stage.highest.watts);
        speeds.push_back(stage.highest.speed);
        mean.push_back(stage.mean_watts);
        nlohmann::ordered_json counted = nlohmann::ordered_json::array();
        for (const auto& [state, count] : stage.ops_per_state)
          counted.push_back({{"watts", state.watts}, {"speed", state.speed}, {"ops", count}});
        ops.push_back(std::move(counted));
      }
      plans.push_back({{"job", states.job_id},
                       {"stage_watts", watts},
                       {"stage_speeds", speeds},
                       {"stretch", states.stretch},
                       {"stage_mean_watts", mean},
                       {"stage_ops_per_state", ops}});
    }
  }
  return j;
}

void write_power_csv(std::ostream& out, const EnergyReport& report) {
  RowBlockWriter rows(out);
  rows.text("time,watts\n");
  for (const auto& [time, watts] : report.power) {
    rows.text(exact_number(time)).character(',').text(exact_number(watts)).character('\n');
    rows.end_row();
  }
  rows.flush();
}

std::string jobs_csv_energy_fields(const EnergyReport& report, JobIndex job) {
  const double joules = report.job_joules[job];
  const double gpu_hours = report.job_gpu_seconds[job] / 3600.0;
  std::string fields = "," + exact_number(kwh(joules)) + ",";
  if (gpu_hours > 0) fields += exact_number(kwh(joules) / gpu_hours);
  return fields;
}

}  // namespace gcsim
