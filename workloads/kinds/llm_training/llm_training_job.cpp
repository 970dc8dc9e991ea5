#include "workloads/kinds/llm_training/llm_training_job.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "sim/io/work_horizon.hpp"
#include "workloads/kinds/job_fields.hpp"
#include "workloads/kinds/llm_training/llm_phases.hpp"

namespace gcsim {
namespace {

const std::set<std::string> kLlmFields = {"model",
                                          "parallel",
                                          "compute",
                                          "recomputation",
                                          "gradients",
                                          "dp_overlap",
                                          "iterations",
                                          "rank_order",
                                          "stage_layers",
                                          "stage_power_limits_watts",
                                          "stage_power_plan",
                                          "stage_power_slack"};
const std::set<std::string> kModelFields = {"parameters",      "layers",       "hidden_size",       "sequence_length",
                                            "vocabulary_size", "global_batch", "micro_batch",       "bytes_per_element",
                                            "experts",         "top_k",        "moe_layer_interval"};
const std::set<std::string> kParallelFields = {"tensor", "pipeline", "data", "expert"};
const std::set<std::string> kComputeFields = {"rule", "layer_forward_seconds", "layer_backward_seconds", "gpu_flops"};
const char* const kLayerTimeFields[] = {"layer_forward_seconds", "layer_backward_seconds", "gpu_flops"};

// More layers than any model has; the counts of a micro-batch's exchanges
// (4 per layer each way) stay far within 32 bits.
constexpr std::uint64_t kMostLayers = 1'000'000;
// Messages one exchange sends per iteration, each counted exactly in a double.
constexpr double kMostMessages = 1e15;

std::uint32_t count_of(const JsonObject& owner, std::string_view field, std::uint64_t value) {
  if (value > std::numeric_limits<std::uint32_t>::max())
    owner.fail(field, "expected at most " + std::to_string(std::numeric_limits<std::uint32_t>::max()) + ", got " +
                          std::to_string(value));
  return static_cast<std::uint32_t>(value);
}
std::uint32_t required_count(const JsonObject& owner, std::string_view field) {
  return count_of(owner, field, owner.required_uint(field, 1));
}
std::uint32_t optional_count(const JsonObject& owner, std::string_view field, std::uint32_t fallback,
                             std::uint64_t min = 1) {
  return count_of(owner, field, owner.optional_uint(field, fallback, min));
}

TransformerShape read_model(const JsonObject& model) {
  model.reject_unknown_fields(kModelFields);
  TransformerShape shape;
  shape.parameters = model.required_quantity("parameters", Quantity::kPlain, true);
  shape.layers = required_count(model, "layers");
  if (shape.layers > kMostLayers)
    model.fail("layers",
               "expected at most " + std::to_string(kMostLayers) + " layers, got " + std::to_string(shape.layers));
  shape.hidden_size = required_count(model, "hidden_size");
  shape.sequence_length = required_count(model, "sequence_length");
  shape.vocabulary_size = optional_count(model, "vocabulary_size", 0, 0);
  shape.global_batch = required_count(model, "global_batch");
  shape.micro_batch = optional_count(model, "micro_batch", 1);
  shape.bytes_per_element = model.optional_quantity("bytes_per_element", Quantity::kPlain, 2, true);
  shape.experts = optional_count(model, "experts", 0, 0);
  if (shape.experts == 0) {
    for (const char* field : {"top_k", "moe_layer_interval"})
      if (model.has(field)) model.fail(field, "only a mixture of experts (experts >= 1) routes tokens to experts");
  } else {
    shape.top_k = optional_count(model, "top_k", 1);
    shape.moe_layer_interval = optional_count(model, "moe_layer_interval", 1);
  }
  return shape;
}

ParallelDegrees read_parallel(const JsonObject& llm) {
  if (!llm.has("parallel")) return {};
  const JsonObject parallel = llm.required_object("parallel");
  parallel.reject_unknown_fields(kParallelFields);
  ParallelDegrees degrees;
  degrees.tensor = optional_count(parallel, "tensor", 1);
  degrees.pipeline = optional_count(parallel, "pipeline", 1);
  degrees.data = optional_count(parallel, "data", 1);
  degrees.expert = optional_count(parallel, "expert", 1);
  return degrees;
}

LlmCompute read_compute(const JsonObject& llm) {
  LlmCompute compute;
  compute.recomputation = llm.optional_bool("recomputation", false);
  if (!llm.has("compute")) return compute;
  const JsonObject given = llm.required_object("compute");
  given.reject_unknown_fields(kComputeFields);
  const std::string rule = given.optional_string("rule", "megatron");
  if (rule == "megatron" || rule == "parameters") {
    compute.rule = rule == "megatron" ? ComputeRule::kMegatronFlops : ComputeRule::kParameterFlops;
    for (const char* field : kLayerTimeFields)
      if (given.has(field))
        given.fail(field, "only with \"rule\": \"layer_times\" (rule \"" + rule +
                              "\" counts FLOPs, computed at the "
                              "FLOP/s of the GPUs the job gets)");
    return compute;
  }
  if (rule != "layer_times")
    given.fail("rule", "expected \"megatron\", \"parameters\" or \"layer_times\", got \"" + rule + "\"");
  compute.rule = ComputeRule::kLayerTimes;
  compute.layer_forward_seconds =
      within_horizon(given, "layer_forward_seconds",
                     given.required_quantity("layer_forward_seconds", Quantity::kTime, true), HorizonQuantity::kTime);
  compute.layer_backward_seconds =
      within_horizon(given, "layer_backward_seconds",
                     given.required_quantity("layer_backward_seconds", Quantity::kTime, true), HorizonQuantity::kTime);
  compute.gpu_flops = given.required_quantity("gpu_flops", Quantity::kFlops, true);
  return compute;
}

// stage_layers: whole numbers of layers (their count and sum are find_llm_problem()'s).
std::vector<std::uint32_t> read_stage_layers(const JsonObject& llm) {
  std::vector<std::uint32_t> layers;
  if (!llm.has("stage_layers")) return layers;
  const nlohmann::json& given = llm.required_array("stage_layers");
  for (std::size_t s = 0; s < given.size(); ++s) {
    const nlohmann::json& count = given[s];
    if (!count.is_number_integer() || count.get<std::int64_t>() < 0 || count.get<std::uint64_t>() > kMostLayers)
      llm.fail("stage_layers",
               "entry " + std::to_string(s) + ": expected a whole number of layers, got " + count.dump());
    layers.push_back(count.get<std::uint32_t>());
  }
  return layers;
}

// stage_power_limits_watts, or stage_power_plan "perseus" and its slack;
// neither with the job's own power_limit_watts.
void read_stage_power(const JsonObject& entry, const JsonObject& llm, LlmTrainingJob& job) {
  const bool limits = llm.has("stage_power_limits_watts"), plan = llm.has("stage_power_plan");
  if (llm.has("stage_power_slack") && !plan)
    llm.fail("stage_power_slack", "only with \"stage_power_plan\": \"perseus\"");
  if (!limits && !plan) return;
  const std::string field = limits ? "stage_power_limits_watts" : "stage_power_plan";
  if (limits && plan)
    llm.fail("stage_power_plan", "give either stage_power_limits_watts or a stage_power_plan, not both");
  if (entry.has("power_limit_watts"))
    llm.fail(field, "a per-stage power plan sets each GPU's limit: the job's power_limit_watts cannot be given too");
  if (plan) {
    const std::string rule = llm.required_string("stage_power_plan");
    if (rule != "perseus") llm.fail("stage_power_plan", "expected \"perseus\", got \"" + rule + "\"");
    job.perseus = true;
    job.stage_power_slack = llm.optional_quantity("stage_power_slack", Quantity::kPlain, 0);
    if (!(job.stage_power_slack >= 0 && std::isfinite(job.stage_power_slack)))
      llm.fail("stage_power_slack", "must be a fraction >= 0 of the pipeline's time at full power");
    return;
  }
  const nlohmann::json& given = llm.required_array("stage_power_limits_watts");
  for (std::size_t s = 0; s < given.size(); ++s) {
    const nlohmann::json& watts = given[s];
    if (!watts.is_number() || !(watts.get<double>() > 0) || !std::isfinite(watts.get<double>()))
      llm.fail("stage_power_limits_watts", "entry " + std::to_string(s) + ": expected watts > 0, got " + watts.dump());
    job.stage_power_limits_watts.push_back(watts.get<double>());
  }
  if (given.size() != job.training.parallel.pipeline)
    llm.fail("stage_power_limits_watts", "expected one limit per pipeline stage, " +
                                             std::to_string(job.training.parallel.pipeline) +
                                             " (parallel.pipeline), got " + std::to_string(given.size()));
}

// Fails at the field a problem of find_llm_problem() names: "gpus" is the
// entry's own, "model.layers" the field "layers" of llm_training.model.
[[noreturn]] void fail_at(const JsonObject& entry, const JsonObject& llm, const LlmInputProblem& problem) {
  if (problem.field == "gpus") entry.fail("gpus", problem.problem);
  const auto dot = problem.field.rfind('.');
  if (dot == std::string::npos) llm.fail(problem.field, problem.problem);
  throw InputError(llm.location().file, llm.location().where + "." + problem.field.substr(0, dot),
                   problem.field.substr(dot + 1), problem.problem);
}

// The most messages one exchange sends per iteration, in doubles (the TP
// ring's S x allreduces x 2(t-1) or the all-to-alls' S x their count).
double most_messages(const LlmTraining& training) {
  const LlmIteration it = llm_iteration(training);
  const double slots = static_cast<double>(it.micro_batches) + training.parallel.pipeline - 1;
  const double tensor =
      slots * (it.tensor.per_forward + it.tensor.per_backward) * 2.0 * (training.parallel.tensor - 1.0);
  const double expert = slots * (it.expert.per_forward + it.expert.per_backward);
  return std::max(tensor, expert);
}

// The compiled iteration within the horizon gcsim simulates: each phase's
// FLOPs per GPU, each exchange's bytes per transfer.
void check_within_horizon(const JsonObject& entry, const PhasedWork& work) {
  for (const WorkPhase& phase : work.phases) {
    if (const auto problem = beyond_horizon(phase.flops, HorizonQuantity::kFlops))
      entry.fail("llm_training", "a phase of one iteration computes beyond the horizon on each GPU: " + *problem);
    for (const PhaseExchange& exchange : phase.exchanges)
      if (const auto problem =
              beyond_horizon(exchange.bytes * static_cast<double>(exchange.messages), HorizonQuantity::kBytes))
        entry.fail("llm_training", "an exchange of one iteration sends beyond the horizon per transfer: " + *problem);
  }
}

}  // namespace

const char* rank_order_name(RankOrder order) {
  return order == RankOrder::kTensorDataPipeline ? "tp-dp-pp" : "tp-pp-dp";
}

LlmTrainingJob read_llm_training(const JsonObject& entry, std::uint32_t gpus) {
  const JsonObject llm = entry.required_object("llm_training");
  llm.reject_unknown_fields(kLlmFields);
  LlmTrainingJob job;
  LlmTraining& training = job.training;
  training.model = read_model(llm.required_object("model"));
  training.parallel = read_parallel(llm);
  training.compute = read_compute(llm);
  const std::string gradients = llm.optional_string("gradients", "allreduce");
  if (gradients != "allreduce" && gradients != "zero")
    llm.fail("gradients",
             "expected \"allreduce\" or \"zero\" (reduce-scatter, then all-gather), got \"" + gradients + "\"");
  training.gradients = gradients == "zero" ? GradientExchange::kReduceScatterAllGather : GradientExchange::kAllreduce;
  training.dp_overlap = llm.optional_quantity("dp_overlap", Quantity::kPlain, 0);
  job.iterations = llm.required_uint("iterations", 1);
  const std::string order = llm.optional_string("rank_order", "tp-dp-pp");
  if (order != "tp-dp-pp" && order != "tp-pp-dp")
    llm.fail("rank_order",
             "expected \"tp-dp-pp\" (TP fastest, then DP, then PP) or \"tp-pp-dp\", got \"" + order + "\"");
  job.rank_order = order == "tp-dp-pp" ? RankOrder::kTensorDataPipeline : RankOrder::kTensorPipelineData;

  training.stage_layers = read_stage_layers(llm);
  if (const auto problem = find_llm_problem(training, gpus)) fail_at(entry, llm, *problem);
  read_stage_power(entry, llm, job);
  if (most_messages(training) > kMostMessages)
    entry.fail("llm_training",
               "an exchange sends more than 1e15 messages per iteration: give fewer micro-batches "
               "(a larger micro_batch) or a smaller TP group");
  check_within_horizon(entry, compile_llm_training(job));
  return job;
}

}  // namespace gcsim
