#include "sim/report/replay_score_outputs.hpp"

#include <cmath>
#include <sstream>

#include "sim/core/number_text.hpp"

namespace gcsim {
namespace {

nlohmann::json optional_number(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json wait_json(const WaitScore& score) {
  return {
      {"jobs", score.jobs},
      {"mean_wait_s", {{"simulated", score.mean_simulated}, {"recorded", score.mean_recorded}}},
      {"median_wait_s", {{"simulated", score.median_simulated}, {"recorded", score.median_recorded}}},
      {"mean_wait_relative_error", optional_number(score.mean_relative_error)},
      {"median_wait_relative_error", optional_number(score.median_relative_error)},
      {"abs_wait_error_s", {{"p50", score.abs_error_p50}, {"p90", score.abs_error_p90}, {"p99", score.abs_error_p99}}},
      {"within_60s", score.within_60s},
      {"ks_distance", score.ks}};
}

nlohmann::json groups_json(const std::vector<GroupWaitScore>& groups) {
  nlohmann::json list = nlohmann::json::array();
  for (const GroupWaitScore& group : groups) {
    nlohmann::json entry = wait_json(group.score);
    entry["name"] = group.name;
    list.push_back(entry);
  }
  return list;
}

std::string percent(const std::optional<double>& fraction) {
  return fraction ? fixed(*fraction * 100, 1) + "%" : "n/a";
}

void wait_row(std::ostream& out, const std::string& name, const WaitScore& s) {
  out << "| " << name << " | " << s.jobs << " | " << fixed(s.mean_simulated, 1) << " | " << fixed(s.mean_recorded, 1)
      << " | " << percent(s.mean_relative_error) << " | " << fixed(s.median_simulated, 1) << " | "
      << fixed(s.median_recorded, 1) << " | " << percent(s.median_relative_error) << " | " << fixed(s.abs_error_p50, 1)
      << " | " << fixed(s.abs_error_p90, 1) << " | " << fixed(s.abs_error_p99, 1) << " | "
      << fixed(s.within_60s * 100, 1) << "% | " << fixed(s.ks, 3) << " |\n";
}

void wait_table(std::ostream& out, const std::string& first, const std::vector<GroupWaitScore>& groups) {
  out << "| " << first
      << " | jobs | mean wait sim (s) | mean wait rec (s) | mean rel. error | median sim (s) | median rec (s) | median "
         "rel. error | abs. error p50 (s) | p90 (s) | p99 (s) | within 60 s | KS |\n"
      << "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const GroupWaitScore& group : groups) wait_row(out, group.name, group.score);
}

// A CSV field: quoted when it holds a comma, quote or line break.
std::string csv_text(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

nlohmann::json score_json(const ReplayScore& score, const ReplayScoreContext& context) {
  nlohmann::json json = {
      {"trace", context.trace},
      {"cluster", context.cluster},
      {"policy", context.policy},
      {"startup_latency",
       context.startup_latency.empty() ? nlohmann::json(nullptr) : nlohmann::json(context.startup_latency)},
      {"jobs", score.jobs},
      {"without_recorded_start", score.without_recorded_start},
      {"not_started", score.not_started},
      {"waits", wait_json(score.all)},
      {"queues", groups_json(score.queues)},
      {"users", groups_json(score.users)},
      {"mean_allocated_gpus", {{"simulated", score.mean_gpus_simulated}, {"recorded", score.mean_gpus_recorded}}}};
  return json;
}

std::string score_markdown(const ReplayScore& score, const ReplayScoreContext& context) {
  std::ostringstream out;
  out << "# Replay of " << context.trace << " scored against its recorded schedule\n\n"
      << "Cluster " << context.cluster << ", policy " << context.policy << ", start-up latency "
      << (context.startup_latency.empty() ? "none" : context.startup_latency) << ".\n\n"
      << score.jobs << " jobs replayed; " << score.all.jobs << " scored, " << score.without_recorded_start
      << " left out for want of a recorded start, " << score.not_started << " the replay never started.\n\n"
      << "Waits (start - submit), simulated against recorded:\n\n";
  wait_table(out, "set", {{"all", score.all}});
  if (!score.queues.empty()) {
    out << "\nPer queue (the " << score.queues.size() << " of most jobs):\n\n";
    wait_table(out, "queue", score.queues);
  }
  if (!score.users.empty()) {
    out << "\nPer user (the " << score.users.size() << " of most jobs):\n\n";
    wait_table(out, "user", score.users);
  }
  out << "\nAllocated GPUs, time-weighted mean: simulated " << fixed(score.mean_gpus_simulated, 2) << ", recorded "
      << fixed(score.mean_gpus_recorded, 2) << " (score_gpus.csv has both over time).\n";
  return out.str();
}

void write_score_jobs_csv(std::ostream& out, const std::vector<ReplayJob>& jobs) {
  out << "id,user,queue,gpus,submit,recorded_wait,simulated_wait,abs_error\n";
  for (const ReplayJob& job : jobs) {
    const bool recorded = !std::isnan(job.recorded_wait), simulated = job.simulated_start != kNever;
    const double simulated_wait = job.simulated_start - job.submit;
    out << csv_text(job.id) << ',' << csv_text(job.user) << ',' << csv_text(job.queue) << ',' << exact_number(job.gpus)
        << ',' << exact_number(job.submit) << ',' << (recorded ? exact_number(job.recorded_wait) : "") << ','
        << (simulated ? exact_number(simulated_wait) : "") << ','
        << (recorded && simulated ? exact_number(std::fabs(simulated_wait - job.recorded_wait)) : "") << '\n';
  }
}

void write_score_gpus_csv(std::ostream& out, const ReplayScore& score) {
  out << "time,simulated,recorded\n";
  for (const GpuStep& step : score.gpus)
    out << exact_number(step.time) << ',' << exact_number(step.simulated) << ',' << exact_number(step.recorded) << '\n';
}

}  // namespace gcsim
