#include "traces/throughput_work.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>

#include "sim/core/portable_random.hpp"

namespace gcsim {
namespace {

/// The cluster GPU type a model's FLOPs per iteration are sized for.
struct Calibration {
  std::string cluster_type;  // the cluster's name for it
  double flops = 0;
};

std::map<std::string, std::uint64_t> gpus_per_type(const ClusterLayout& cluster) {
  std::map<std::string, std::uint64_t> gpus;
  for (const NodeGroup& group : cluster.spec().node_groups)
    gpus[group.gpu_type] += static_cast<std::uint64_t>(group.count) * group.gpus_per_node;
  return gpus;
}

std::optional<Calibration> calibration_for(const std::string& model, const ThroughputTable& table,
                                           const ClusterLayout& cluster) {
  const auto gpus = gpus_per_type(cluster);
  std::optional<Calibration> best;
  std::uint64_t best_gpus = 0;
  for (const GpuType& type : cluster.spec().gpu_types) {
    if (!table.table_gpu_type(model, type.name)) continue;
    const std::uint64_t count = gpus.count(type.name) ? gpus.at(type.name) : 0;
    const bool better = !best || count > best_gpus ||
                        (count == best_gpus &&
                         (type.flops > best->flops || (type.flops == best->flops && type.name < best->cluster_type)));
    if (better) {
      best = Calibration{type.name, type.flops};
      best_gpus = count;
    }
  }
  return best;
}

std::string list(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

JobTypeRule parse_job_type_rule(const std::string& text, std::uint64_t seed) {
  if (text.empty()) throw std::invalid_argument("the job type rule must not be empty");
  if (text == "trace") return {JobTypeRule::Kind::kTrace, "", seed};
  if (text == "uniform") return {JobTypeRule::Kind::kUniform, "", seed};
  if (text == "gpu-time") return {JobTypeRule::Kind::kGpuTime, "", seed};
  return {JobTypeRule::Kind::kFixed, text, seed};
}

std::string job_type_rule_text(const JobTypeRule& rule) {
  switch (rule.kind) {
    case JobTypeRule::Kind::kTrace:
      return "the trace's job type column";
    case JobTypeRule::Kind::kUniform:
      return "drawn uniformly from the table's models (seed " + std::to_string(rule.seed) + ")";
    case JobTypeRule::Kind::kGpuTime:
      return "by recorded GPU-hours as Pollux and Sia do: < 1 cifar10, < 10 deepspeech2 or bert (seed " +
             std::to_string(rule.seed) + "), < 100 yolov3, else imagenet";
    case JobTypeRule::Kind::kFixed:
      return "'" + rule.model + "' for every job";
  }
  return "";
}

void apply_throughput_work(TraceReadResult& trace, const ThroughputTable& table, const JobTypeRule& rule,
                           const ClusterLayout& cluster) {
  const std::string source = throughput_source_name(table.source);
  std::map<std::string, std::optional<Calibration>> calibrations;
  const auto calibration = [&](const std::string& model) -> const std::optional<Calibration>& {
    auto it = calibrations.find(model);
    if (it == calibrations.end()) it = calibrations.emplace(model, calibration_for(model, table, cluster)).first;
    return it->second;
  };
  std::vector<std::string> cluster_types;
  for (const GpuType& type : cluster.spec().gpu_types) cluster_types.push_back(type.name);
  const auto require_model = [&](const std::string& model) {
    if (!table.iterations_per_second.count(model))
      throw std::invalid_argument("the " + source + " table has no model '" + model +
                                  "' (it has: " + list(table.models()) + ")");
    if (!calibration(model))
      throw std::invalid_argument("the " + source + " table profiles '" + model + "' on " +
                                  list(table.gpu_types(model)) + ", none of which cluster '" + cluster.spec().name +
                                  "' has (" + list(cluster_types) +
                                  "); GPU types match by name, ignoring case and punctuation");
  };

  // The model of every job.
  std::vector<std::string> models(trace.jobs.size());
  std::vector<std::string> runnable;  // for uniform draws
  for (const std::string& model : table.models())
    if (calibration(model)) runnable.push_back(model);
  PortableRandom random(rule.seed);
  for (std::size_t i = 0; i < trace.jobs.size(); ++i) {
    const JobSpec& job = trace.jobs[i];
    if (is_cpu_job(job.work)) continue;  // a CPU job (a CSV row of cores) trains no model
    const auto* measured = std::get_if<MeasuredWork>(&job.work);
    switch (rule.kind) {
      case JobTypeRule::Kind::kTrace:
        if (i >= trace.job_types.size() || trace.job_types[i].empty())
          throw std::invalid_argument("the " + trace.format + " trace records no job type for job '" + job.id +
                                      "': give job_type=uniform, gpu-time or a model of the table (" +
                                      list(table.models()) + ")");
        models[i] = trace.job_types[i];
        break;
      case JobTypeRule::Kind::kUniform:
        if (runnable.empty())
          throw std::invalid_argument("no model of the " + source + " table is profiled on a GPU type of cluster '" +
                                      cluster.spec().name + "' (" + list(cluster_types) + ")");
        models[i] = runnable[random.below(runnable.size())];
        break;
      case JobTypeRule::Kind::kGpuTime: {
        const double u = random.uniform();  // one draw per job, whatever its bucket
        const double gpu_hours = measured ? measured->seconds * job.gpus * job.gpu_share / 3600 : 0;
        models[i] = gpu_hours < 1     ? "cifar10"
                    : gpu_hours < 10  ? (u < 0.5 ? "deepspeech2" : "bert")
                    : gpu_hours < 100 ? "yolov3"
                                      : "imagenet";
        break;
      }
      case JobTypeRule::Kind::kFixed:
        models[i] = rule.model;
        break;
    }
    if (measured) require_model(models[i]);
  }

  std::map<std::string, std::size_t> per_model;
  std::map<std::string, std::size_t> per_calibration;
  std::size_t converted = 0, extrapolated = 0, derived_recorded = 0;
  std::map<std::string, std::size_t> per_type_speed;  // other cluster types given the table's speed, jobs
  std::map<std::string, std::size_t> unprofiled;      // other cluster types the table lacks for the model, jobs
  std::set<std::string> derived_types;
  for (std::size_t i = 0; i < trace.jobs.size(); ++i) {
    JobSpec& job = trace.jobs[i];
    const auto* measured = std::get_if<MeasuredWork>(&job.work);
    if (!measured) continue;
    const std::string& model = models[i];
    const Calibration& on = *calibration(model);
    const ThroughputLookup at_calibration = *table.lookup(model, on.cluster_type, job.gpus);
    double recorded_speed = 0;
    if (const auto at_recorded = table.lookup(model, measured->gpu_type, job.gpus)) {
      recorded_speed = at_recorded->iterations_per_second;
    } else {
      const int type = cluster.find_gpu_type(measured->gpu_type);
      if (type < 0)
        throw std::invalid_argument("job '" + job.id + "' was measured on " + measured->gpu_type +
                                    ", which neither the " + source + " table profiles for '" + model + "' (" +
                                    list(table.gpu_types(model)) + ") nor cluster '" + cluster.spec().name +
                                    "' defines (" + list(cluster_types) + "): set gpu_type to a type one of them has");
      recorded_speed = at_calibration.iterations_per_second *
                       cluster.spec().gpu_types[static_cast<std::size_t>(type)].flops / on.flops;
      ++derived_recorded;
      derived_types.insert(measured->gpu_type);
    }
    if (at_calibration.profiled_gpus != job.gpus) ++extrapolated;
    // Iterations, before rounding; a job that ran on a share of each GPU did that share of the table's speed.
    const double work = measured->seconds * recorded_speed * job.gpu_share;
    const double seconds_on_calibration = work / at_calibration.iterations_per_second;
    TrainingWork training;
    training.iterations = static_cast<std::uint64_t>(std::max(1.0, std::floor(work + 0.5)));
    training.flops_per_iteration = on.flops * seconds_on_calibration / static_cast<double>(training.iterations);
    training.gradient_bytes = 0;
    // Every other cluster GPU type the table profiles for this model runs it at the table's speed there.
    for (const GpuType& type : cluster.spec().gpu_types) {
      if (type.name == on.cluster_type) continue;
      const auto there = table.lookup(model, type.name, job.gpus);
      if (!there) {
        ++unprofiled[type.name];
        continue;
      }
      training.set_flops_on(
          type.name, type.flops * (work / there->iterations_per_second) / static_cast<double>(training.iterations));
      ++per_type_speed[type.name];
    }
    job.work = training;
    ++converted;
    ++per_model[model];
    ++per_calibration[on.cluster_type];
  }
  trace.job_types = models;

  std::string calibrated;
  for (const auto& [type, count] : per_calibration)
    calibrated += (calibrated.empty() ? "" : ", ") + type + " (" + std::to_string(count) + " jobs)";
  std::string per_type;
  for (const auto& [type, count] : per_type_speed)
    per_type += (per_type.empty() ? "" : ", ") + type + " (" + std::to_string(count) + " jobs)";
  trace.work_source = "throughput table " + source + " (" + table.path + "): " + std::to_string(converted) +
                      " jobs as training, iterations = recorded run time x the table's iterations/s of the job's model "
                      "on its recorded GPU type and count; each iteration lasts as the table says on " +
                      calibrated + (per_type.empty() ? std::string() : " and on " + per_type) +
                      "; GPU types the table does not profile for a model scale by their FLOP/s";
  std::vector<std::pair<std::string, std::size_t>> ordered(per_model.begin(), per_model.end());
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string mix;
  for (std::size_t k = 0; k < ordered.size() && k < 6; ++k)
    mix += (mix.empty() ? "" : ", ") + ordered[k].first + " " + std::to_string(ordered[k].second);
  if (ordered.size() > 6) mix += ", ... (" + std::to_string(ordered.size()) + " models)";
  trace.assumptions.push_back("job models " + job_type_rule_text(rule) + ": " + mix);
  trace.assumptions.push_back(
      "gradients are not sent over the simulated network (0 bytes): the table's step times include the exchange, so "
      "placement and network do not change these jobs' speed");
  // Cluster types the table does not profile for some models fall back to FLOP/s scaling.
  for (const auto& [type, count] : unprofiled)
    trace.assumptions.push_back(std::to_string(count) + " jobs' models are not profiled on " + type +
                                " by the table: there they run at its FLOP/s relative to their calibration type");
  trace.assume_for(extrapolated, std::string(" jobs have a GPU count the table does not profile for their model: the "
                                             "nearest profiled count below it (else above) is used") +
                                     (table.per_worker_iterations ? ", its throughput scaled by the ratio of the counts"
                                                                  : ", its step time kept (weak scaling)"));
  if (derived_recorded > 0) {
    std::vector<std::string> names(derived_types.begin(), derived_types.end());
    trace.assumptions.push_back(std::to_string(derived_recorded) + " jobs were measured on " + list(names) +
                                ", which the table does not profile for their model: their iterations/s there is the "
                                "calibration type's scaled by the cluster's FLOP/s");
  }
}

}  // namespace gcsim
