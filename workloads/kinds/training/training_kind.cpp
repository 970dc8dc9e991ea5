#include "workloads/kinds/training/training_kind.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "workloads/kinds/job_fields.hpp"

namespace gcsim {
namespace {

const std::set<std::string> kTrainingFields = {
    "flops_per_iteration", "gradient_bytes", "iterations",     "parameter_servers",
    "fusion_buffer",       "allreduce",      "input_pipeline", "flops_per_iteration_by_gpu_type"};
const std::set<std::string> kInputPipelineFields = {"samples_per_gpu", "core_samples_per_s"};

}  // namespace

JobWork TrainingKind::read(const JsonObject& entry, std::string_view field, const JobSpec&, const std::string&) const {
  const JsonObject training = entry.required_object(field);
  training.reject_unknown_fields(kTrainingFields);
  TrainingWork work;
  // Per iteration: with at most 2^64 iterations, every product stays far from overflow.
  work.flops_per_iteration = within_horizon(training, "flops_per_iteration",
                                            training.required_quantity("flops_per_iteration", Quantity::kFlops, true),
                                            HorizonQuantity::kFlops);
  work.gradient_bytes =
      within_horizon(training, "gradient_bytes", training.required_quantity("gradient_bytes", Quantity::kBytes),
                     HorizonQuantity::kBytes);
  work.iterations = training.required_uint("iterations", 1);
  // Absent: a ring allreduce; given: at least one server.
  work.parameter_servers = read_count(training, "parameter_servers", 0);
  const std::string allreduce = training.optional_string("allreduce", "ring");
  if (allreduce != "ring" && allreduce != "hierarchical")
    training.fail("allreduce", "expected \"ring\" or \"hierarchical\", got \"" + allreduce + "\"");
  work.hierarchical_allreduce = allreduce == "hierarchical";
  if (work.hierarchical_allreduce && work.parameter_servers > 0)
    training.fail("allreduce",
                  "a job with parameter_servers exchanges its gradients through them, not by an allreduce");
  if (training.has("fusion_buffer")) {
    work.fusion_bytes = training.required_quantity("fusion_buffer", Quantity::kBytes, true);
    // Each buffer is its own exchange every iteration: a buffer far smaller
    // than the gradients makes more messages than any run could simulate.
    constexpr std::uint64_t kMostBuffers = 1'000'000;
    if (work.fusion_buffers() > kMostBuffers)
      training.fail("fusion_buffer", "makes " + std::to_string(work.fusion_buffers()) +
                                         " buffers of the gradients per iteration, more than " +
                                         std::to_string(kMostBuffers) + ": give a larger buffer");
  }
  if (training.has("input_pipeline")) {
    const JsonObject pipeline = training.required_object("input_pipeline");
    pipeline.reject_unknown_fields(kInputPipelineFields);
    // Both rates strictly positive: a pipeline that decodes nothing would never feed its GPUs.
    work.input_pipeline.samples_per_gpu = pipeline.required_quantity("samples_per_gpu", Quantity::kPlain, true);
    work.input_pipeline.core_samples_per_s = pipeline.required_quantity("core_samples_per_s", Quantity::kPlain, true);
    // One core's time for one GPU's samples of an iteration: a time like any other.
    within_horizon(pipeline, "core_samples_per_s", work.input_pipeline.core_seconds(1), HorizonQuantity::kTime);
  }
  if (training.has("flops_per_iteration_by_gpu_type")) {
    const JsonObject by_type = training.required_object("flops_per_iteration_by_gpu_type");
    for (const auto& [type, value] : by_type.value().items()) {
      if (type.empty()) by_type.fail(type, "a GPU type name is empty");
      work.set_flops_on(type, within_horizon(by_type, type, by_type.required_quantity(type, Quantity::kFlops, true),
                                             HorizonQuantity::kFlops));
    }
  }
  return work;
}

void TrainingKind::write(const JobSpec& job, nlohmann::json& entry) const {
  const auto& training = std::get<TrainingWork>(job.work);
  nlohmann::json& out = entry["training"] = {{"flops_per_iteration", training.flops_per_iteration},
                                             {"gradient_bytes", training.gradient_bytes},
                                             {"iterations", training.iterations}};
  if (training.parameter_servers > 0) out["parameter_servers"] = training.parameter_servers;
  if (training.fusion_bytes > 0) out["fusion_buffer"] = training.fusion_bytes;
  if (training.hierarchical_allreduce) out["allreduce"] = "hierarchical";
  if (training.input_pipeline.enabled())
    out["input_pipeline"] = {{"samples_per_gpu", training.input_pipeline.samples_per_gpu},
                             {"core_samples_per_s", training.input_pipeline.core_samples_per_s}};
  for (const auto& [type, flops] : training.flops_per_iteration_by_gpu_type)
    out["flops_per_iteration_by_gpu_type"][type] = flops;
}

JobWork TrainingKind::trial_work(const JobWork& full, double share) const {
  TrainingWork work = std::get<TrainingWork>(full);
  work.iterations = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::llround(static_cast<double>(work.iterations) * share)));
  return work;
}

std::shared_ptr<const JobKind> make_training_kind() { return std::make_shared<TrainingKind>(); }

}  // namespace gcsim
