// Specification of the "llm_training" field of a job entry
// (workloads/kinds/llm_training/llm_training_job.hpp): each field read into
// the job, the defaults, and each bad value an InputError naming the file,
// the job, the object and the field.
#include "workloads/kinds/llm_training/llm_training_job.hpp"

#include <functional>
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sim/core/input_error.hpp"
#include "workloads/kinds/llm_training/llm_phases.hpp"

namespace gcsim {
namespace {

const std::string kJob = "jobs[0] (id 'a')";

LlmTrainingJob read(const nlohmann::json& entry, std::uint32_t gpus) {
  return read_llm_training(JsonObject(entry, {"w.json", kJob}), gpus);
}

// The dense case of tests/unit/test_llm_iteration.cpp on 8 GPUs, every optional field left out.
nlohmann::json dense_entry() {
  return nlohmann::json::parse(R"({"id": "a", "gpus": 8,
      "llm_training": {"model": {"parameters": 50331648, "layers": 4, "hidden_size": 1024,
                                 "sequence_length": 2048, "global_batch": 16},
                       "parallel": {"tensor": 2, "pipeline": 2, "data": 2},
                       "iterations": 5}})");
}

TEST(LlmTrainingReader, ReadsTheModelAndTheDegrees) {
  const LlmTrainingJob job = read(dense_entry(), 8);
  const TransformerShape& model = job.training.model;
  EXPECT_EQ(model.parameters, 50331648);
  EXPECT_EQ(model.layers, 4u);
  EXPECT_EQ(model.hidden_size, 1024u);
  EXPECT_EQ(model.sequence_length, 2048u);
  EXPECT_EQ(model.global_batch, 16u);
  EXPECT_EQ(job.training.parallel.tensor, 2u);
  EXPECT_EQ(job.training.parallel.pipeline, 2u);
  EXPECT_EQ(job.training.parallel.data, 2u);
  EXPECT_EQ(job.iterations, 5u);
}

TEST(LlmTrainingReader, LeftOutFieldsTakeTheirDefaults) {
  const LlmTrainingJob job = read(dense_entry(), 8);
  const TransformerShape& model = job.training.model;
  EXPECT_EQ(model.vocabulary_size, 0u);
  EXPECT_EQ(model.micro_batch, 1u);
  EXPECT_EQ(model.bytes_per_element, 2);
  EXPECT_EQ(model.experts, 0u);
  EXPECT_EQ(job.training.parallel.expert, 1u);
  EXPECT_EQ(job.training.compute.rule, ComputeRule::kMegatronFlops);
  EXPECT_FALSE(job.training.compute.recomputation);
  EXPECT_EQ(job.training.compute.gpu_flops, 0);
  EXPECT_EQ(job.training.gradients, GradientExchange::kAllreduce);
  EXPECT_EQ(job.training.dp_overlap, 0);
  EXPECT_EQ(job.rank_order, RankOrder::kTensorDataPipeline);

  nlohmann::json one_gpu = dense_entry();
  one_gpu["llm_training"].erase("parallel");
  const ParallelDegrees alone = read(one_gpu, 1).training.parallel;
  EXPECT_EQ(alone.tensor * alone.pipeline * alone.data * alone.expert, 1u);
}

TEST(LlmTrainingReader, ReadsEveryOptionalField) {
  const LlmTrainingJob job = read(nlohmann::json::parse(R"({"id": "a", "gpus": 8,
      "llm_training": {"model": {"parameters": 100663296, "layers": 4, "hidden_size": 1024,
                                 "sequence_length": 2048, "vocabulary_size": 51200, "global_batch": 32,
                                 "micro_batch": 2, "bytes_per_element": 4,
                                 "experts": 4, "top_k": 2, "moe_layer_interval": 2},
                       "parallel": {"tensor": 1, "pipeline": 2, "data": 4, "expert": 2},
                       "compute": {"rule": "parameters"}, "recomputation": true,
                       "gradients": "zero", "dp_overlap": 0.25, "iterations": 7, "rank_order": "tp-pp-dp"}})"),
                                  8);
  const TransformerShape& model = job.training.model;
  EXPECT_EQ(model.vocabulary_size, 51200u);
  EXPECT_EQ(model.micro_batch, 2u);
  EXPECT_EQ(model.bytes_per_element, 4);
  EXPECT_EQ(model.experts, 4u);
  EXPECT_EQ(model.top_k, 2u);
  EXPECT_EQ(model.moe_layer_interval, 2u);
  EXPECT_EQ(job.training.parallel.expert, 2u);
  EXPECT_EQ(job.training.compute.rule, ComputeRule::kParameterFlops);
  EXPECT_TRUE(job.training.compute.recomputation);
  EXPECT_EQ(job.training.gradients, GradientExchange::kReduceScatterAllGather);
  EXPECT_EQ(job.training.dp_overlap, 0.25);
  EXPECT_EQ(job.iterations, 7u);
  EXPECT_EQ(job.rank_order, RankOrder::kTensorPipelineData);
}

TEST(LlmTrainingReader, ReadsMeasuredLayerTimesWithTheRateTheyWereMeasuredAt) {
  nlohmann::json entry = dense_entry();
  entry["llm_training"]["compute"] = {{"rule", "layer_times"},
                                      {"layer_forward_seconds", "1.5ms"},
                                      {"layer_backward_seconds", 0.003},
                                      {"gpu_flops", "300TFLOPS"}};
  const LlmCompute compute = read(entry, 8).training.compute;
  EXPECT_EQ(compute.rule, ComputeRule::kLayerTimes);
  EXPECT_DOUBLE_EQ(compute.layer_forward_seconds, 1.5e-3);
  EXPECT_DOUBLE_EQ(compute.layer_backward_seconds, 3e-3);
  EXPECT_DOUBLE_EQ(compute.gpu_flops, 3e14);
}

TEST(LlmTrainingReader, NamesTheRankOrders) {
  EXPECT_STREQ(rank_order_name(RankOrder::kTensorDataPipeline), "tp-dp-pp");
  EXPECT_STREQ(rank_order_name(RankOrder::kTensorPipelineData), "tp-pp-dp");
}

// ---- errors ------------------------------------------------------------------------

struct BadEntry {
  std::string name;
  std::function<void(nlohmann::json& llm)> change;  // of the llm_training object
  std::string object;                               // where, after the job: ".llm_training.model", or ""
  std::string field;
  std::uint32_t gpus = 8;
};

std::ostream& operator<<(std::ostream& out, const BadEntry& c) { return out << c.name; }

nlohmann::json moe(nlohmann::json llm) {
  llm["model"]["parameters"] = 100663296;
  llm["model"]["experts"] = 4;
  llm["model"]["top_k"] = 2;
  llm["model"]["moe_layer_interval"] = 2;
  llm["parallel"] = {{"tensor", 1}, {"pipeline", 2}, {"data", 4}, {"expert", 2}};
  return llm;
}

const BadEntry kBadEntries[] = {
    {"UnknownField", [](nlohmann::json& l) { l["modle"] = 1; }, ".llm_training", "modle"},
    {"NoModel", [](nlohmann::json& l) { l.erase("model"); }, ".llm_training", "model"},
    {"ModelNotAnObject", [](nlohmann::json& l) { l["model"] = 7; }, ".llm_training", "model"},
    {"UnknownModelField", [](nlohmann::json& l) { l["model"]["heads"] = 16; }, ".llm_training.model", "heads"},
    {"NoParameters", [](nlohmann::json& l) { l["model"]["parameters"] = 0; }, ".llm_training.model", "parameters"},
    {"NoLayers", [](nlohmann::json& l) { l["model"]["layers"] = 0; }, ".llm_training.model", "layers"},
    {"TooManyLayers", [](nlohmann::json& l) { l["model"]["layers"] = 2000000; }, ".llm_training.model", "layers"},
    {"NoHiddenSize", [](nlohmann::json& l) { l["model"].erase("hidden_size"); }, ".llm_training.model", "hidden_size"},
    {"SequenceNotANumber", [](nlohmann::json& l) { l["model"]["sequence_length"] = "long"; }, ".llm_training.model",
     "sequence_length"},
    {"HugeVocabulary", [](nlohmann::json& l) { l["model"]["vocabulary_size"] = 5000000000; }, ".llm_training.model",
     "vocabulary_size"},
    {"BatchNotWholeMicroBatches", [](nlohmann::json& l) { l["model"]["global_batch"] = 15; }, ".llm_training.model",
     "global_batch"},
    {"NoMicroBatch", [](nlohmann::json& l) { l["model"]["micro_batch"] = 0; }, ".llm_training.model", "micro_batch"},
    {"NoBytesPerElement", [](nlohmann::json& l) { l["model"]["bytes_per_element"] = 0; }, ".llm_training.model",
     "bytes_per_element"},
    {"TopKWithoutExperts", [](nlohmann::json& l) { l["model"]["top_k"] = 2; }, ".llm_training.model", "top_k"},
    {"IntervalWithoutExperts", [](nlohmann::json& l) { l["model"]["moe_layer_interval"] = 2; }, ".llm_training.model",
     "moe_layer_interval"},
    {"TopKAboveExperts", [](nlohmann::json& l) { l = moe(l), l["model"]["top_k"] = 5; }, ".llm_training.model",
     "top_k"},
    {"ExpertsUnevenOverTheGroup", [](nlohmann::json& l) { l = moe(l), l["model"]["experts"] = 3; },
     ".llm_training.model", "experts"},
    {"MoeLayersUnevenOverStages", [](nlohmann::json& l) { l = moe(l), l["model"]["moe_layer_interval"] = 3; },
     ".llm_training.model", "moe_layer_interval"},
    {"FewerParametersThanExperts", [](nlohmann::json& l) { l = moe(l), l["model"]["parameters"] = 1e6; },
     ".llm_training.model", "parameters"},
    {"UnknownDegree", [](nlohmann::json& l) { l["parallel"]["sequence"] = 2; }, ".llm_training.parallel", "sequence"},
    {"NoTensorDegree", [](nlohmann::json& l) { l["parallel"]["tensor"] = 0; }, ".llm_training.parallel", "tensor"},
    {"PipelineNotANumber", [](nlohmann::json& l) { l["parallel"]["pipeline"] = "2"; }, ".llm_training.parallel",
     "pipeline"},
    {"ExpertDegreeWithoutExperts", [](nlohmann::json& l) { l["parallel"]["expert"] = 2; }, ".llm_training.parallel",
     "expert"},
    {"ExpertDegreeNotDividingData",
     [](nlohmann::json& l) {
       l = moe(l), l["model"]["experts"] = 8;
       l["parallel"] = {{"tensor", 2}, {"pipeline", 2}, {"data", 2}, {"expert", 4}};
     },
     ".llm_training.parallel", "expert"},
    {"DegreesMissTheGpus", [](nlohmann::json& l) { l["parallel"]["tensor"] = 4; }, "", "gpus"},
    {"LayersUnevenOverStages", [](nlohmann::json& l) { l["model"]["layers"] = 3; }, ".llm_training.model", "layers"},
    {"UnknownRule",
     [](nlohmann::json& l) {
       l["compute"] = {{"rule", "6p"}};
     },
     ".llm_training.compute", "rule"},
    {"UnknownComputeField",
     [](nlohmann::json& l) {
       l["compute"] = {{"mfu", 0.4}};
     },
     ".llm_training.compute", "mfu"},
    {"LayerTimesWithoutTheirRate",
     [](nlohmann::json& l) {
       l["compute"] = {{"rule", "layer_times"}, {"layer_forward_seconds", 1e-3}, {"layer_backward_seconds", 2e-3}};
     },
     ".llm_training.compute", "gpu_flops"},
    {"LayerTimesWithoutBackward",
     [](nlohmann::json& l) {
       l["compute"] = {{"rule", "layer_times"}, {"layer_forward_seconds", 1e-3}, {"gpu_flops", 1e14}};
     },
     ".llm_training.compute", "layer_backward_seconds"},
    {"ZeroLayerForward",
     [](nlohmann::json& l) {
       l["compute"] = {{"rule", "layer_times"},
                       {"layer_forward_seconds", 0},
                       {"layer_backward_seconds", 2e-3},
                       {"gpu_flops", 1e14}};
     },
     ".llm_training.compute", "layer_forward_seconds"},
    {"LayerTimeBeyondTheHorizon",
     [](nlohmann::json& l) {
       l["compute"] = {{"rule", "layer_times"},
                       {"layer_forward_seconds", 1e12},
                       {"layer_backward_seconds", 2e-3},
                       {"gpu_flops", 1e14}};
     },
     ".llm_training.compute", "layer_forward_seconds"},
    {"LayerTimeForAFlopRule",
     [](nlohmann::json& l) {
       l["compute"] = {{"layer_forward_seconds", 1e-3}};
     },
     ".llm_training.compute", "layer_forward_seconds"},
    {"RateForAFlopRule",
     [](nlohmann::json& l) {
       l["compute"] = {{"rule", "parameters"}, {"gpu_flops", 1e14}};
     },
     ".llm_training.compute", "gpu_flops"},
    {"RecomputationNotABoolean", [](nlohmann::json& l) { l["recomputation"] = "yes"; }, ".llm_training",
     "recomputation"},
    {"UnknownGradients", [](nlohmann::json& l) { l["gradients"] = "fsdp"; }, ".llm_training", "gradients"},
    {"OverlapAboveOne", [](nlohmann::json& l) { l["dp_overlap"] = 1.5; }, ".llm_training", "dp_overlap"},
    {"NegativeOverlap", [](nlohmann::json& l) { l["dp_overlap"] = -0.1; }, ".llm_training", "dp_overlap"},
    {"NoIterations", [](nlohmann::json& l) { l.erase("iterations"); }, ".llm_training", "iterations"},
    {"ZeroIterations", [](nlohmann::json& l) { l["iterations"] = 0; }, ".llm_training", "iterations"},
    {"UnknownRankOrder", [](nlohmann::json& l) { l["rank_order"] = "pp-dp-tp"; }, ".llm_training", "rank_order"},
    {"FlopsBeyondTheHorizon", [](nlohmann::json& l) { l["model"]["hidden_size"] = 4000000000u; }, "", "llm_training"},
    {"StageLayersOfTheWrongLength",
     [](nlohmann::json& l) {
       l["stage_layers"] = {1, 1, 2};
     },
     ".llm_training", "stage_layers"},
    {"StageLayersMissingTheModelsLayers",
     [](nlohmann::json& l) {
       l["stage_layers"] = {1, 2};
     },
     ".llm_training", "stage_layers"},
    {"AStageWithoutLayers",
     [](nlohmann::json& l) {
       l["stage_layers"] = {0, 4};
     },
     ".llm_training", "stage_layers"},
    {"StageLayersNotWhole",
     [](nlohmann::json& l) {
       l["stage_layers"] = {1.5, 2.5};
     },
     ".llm_training", "stage_layers"},
    {"NegativeStageLayers",
     [](nlohmann::json& l) {
       l["stage_layers"] = {-1, 5};
     },
     ".llm_training", "stage_layers"},
    {"StageLayersNotAList", [](nlohmann::json& l) { l["stage_layers"] = 2; }, ".llm_training", "stage_layers"},
    {"StageLimitsOfTheWrongLength", [](nlohmann::json& l) { l["stage_power_limits_watts"] = {300}; }, ".llm_training",
     "stage_power_limits_watts"},
    {"AZeroStageLimit",
     [](nlohmann::json& l) {
       l["stage_power_limits_watts"] = {300, 0};
     },
     ".llm_training", "stage_power_limits_watts"},
    {"UnknownStagePowerPlan", [](nlohmann::json& l) { l["stage_power_plan"] = "zeus"; }, ".llm_training",
     "stage_power_plan"},
    {"NegativeStagePowerSlack",
     [](nlohmann::json& l) {
       l["stage_power_plan"] = "perseus";
       l["stage_power_slack"] = -0.1;
     },
     ".llm_training", "stage_power_slack"},
    {"StagePowerSlackWithoutAPlan", [](nlohmann::json& l) { l["stage_power_slack"] = 0.1; }, ".llm_training",
     "stage_power_slack"},
    {"StageLimitsAndAPlan",
     [](nlohmann::json& l) {
       l["stage_power_plan"] = "perseus";
       l["stage_power_limits_watts"] = {300, 300};
     },
     ".llm_training", "stage_power_plan"},
    {"MessagesBeyondCounting",
     [](nlohmann::json& l) {
       l["model"]["global_batch"] = 4294967295u;
       l["parallel"] = {{"tensor", 1048576}};
     },
     "", "llm_training", 1048576},
};

class LlmTrainingReaderRejects : public ::testing::TestWithParam<BadEntry> {};

TEST_P(LlmTrainingReaderRejects, NamingTheFileJobObjectAndField) {
  nlohmann::json entry = dense_entry();
  GetParam().change(entry["llm_training"]);
  try {
    read(entry, GetParam().gpus);
    FAIL() << "read " << entry.dump();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "w.json");
    EXPECT_EQ(e.where(), kJob + GetParam().object) << e.what();
    EXPECT_EQ(e.field(), GetParam().field) << e.what();
    EXPECT_FALSE(e.problem().empty());
  }
}

INSTANTIATE_TEST_SUITE_P(EachField, LlmTrainingReaderRejects, ::testing::ValuesIn(kBadEntries),
                         [](const ::testing::TestParamInfo<BadEntry>& info) { return info.param.name; });

TEST(LlmTrainingReader, ReadsUnequalStagesAndAStagePowerPlan) {
  nlohmann::json entry = dense_entry();
  entry["llm_training"]["stage_layers"] = {1, 3};
  entry["llm_training"]["stage_power_plan"] = "perseus";
  entry["llm_training"]["stage_power_slack"] = 0.05;
  const LlmTrainingJob job = read(entry, 8);
  EXPECT_EQ(job.training.stage_layers, (std::vector<std::uint32_t>{1, 3}));
  EXPECT_TRUE(job.perseus);
  EXPECT_EQ(job.stage_power_slack, 0.05);
  entry["llm_training"].erase("stage_power_plan");
  entry["llm_training"].erase("stage_power_slack");
  entry["llm_training"]["stage_power_limits_watts"] = {300, 700};
  const LlmTrainingJob limited = read(entry, 8);
  EXPECT_FALSE(limited.perseus);
  EXPECT_EQ(limited.stage_power_limits_watts, (std::vector<double>{300, 700}));
}

TEST(LlmTrainingReader, RefusesAStagePlanBesideTheJobsOwnPowerLimit) {
  nlohmann::json entry = dense_entry();
  entry["power_limit_watts"] = 400;
  entry["llm_training"]["stage_power_plan"] = "perseus";
  try {
    read(entry, 8);
    FAIL() << "read a stage plan beside power_limit_watts";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), kJob + ".llm_training");
    EXPECT_EQ(e.field(), "stage_power_plan");
  }
}

TEST(LlmTrainingReader, UnequalLayersNeedStageLayers) {
  nlohmann::json entry = dense_entry();
  entry["llm_training"]["model"]["layers"] = 5;
  EXPECT_THROW(read(entry, 8), InputError);
  entry["llm_training"]["stage_layers"] = {2, 3};
  EXPECT_EQ(read(entry, 8).training.stage_layers, (std::vector<std::uint32_t>{2, 3}));
}

TEST(LlmTrainingReader, SaysHowTheDegreesMissTheGpus) {
  try {
    read(dense_entry(), 16);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "w.json: jobs[0] (id 'a'): field 'gpus': parallel.tensor x parallel.pipeline x parallel.data = "
                 "2 x 2 x 2 = 8 GPUs, but the job has 16");
  }
}

// ---- the bundled workloads ---------------------------------------------------------

// Each llm_training entry of a bundled workload: its id and what it reads into.
std::map<std::string, LlmTrainingJob> bundled_llm_jobs(const std::string& name) {
  const std::string path = std::string(GCSIM_SOURCE_DIR) + "/scenarios/workloads/" + name;
  const nlohmann::json doc = read_json_file(path);
  std::map<std::string, LlmTrainingJob> jobs;
  for (std::size_t i = 0; i < doc.at("jobs").size(); ++i) {
    const nlohmann::json& entry = doc["jobs"][i];
    if (!entry.contains("llm_training")) continue;
    const JsonObject job(entry, {path, "jobs[" + std::to_string(i) + "]"});
    jobs[entry.at("id")] = read_llm_training(job, static_cast<std::uint32_t>(job.required_uint("gpus")));
  }
  return jobs;
}

TEST(BundledLlmWorkloads, TwoJobsAreA70bAndA13bIn3dParallelism) {
  const auto jobs = bundled_llm_jobs("llm-two-jobs.json");
  ASSERT_EQ(jobs.size(), 2u);
  const ParallelDegrees big = jobs.at("llama-70b-pretrain").training.parallel;
  EXPECT_EQ(big.tensor * big.pipeline * big.data, 256u);
  const ParallelDegrees small = jobs.at("gpt-13b-pretrain").training.parallel;
  EXPECT_EQ(small.tensor * small.pipeline * small.data, 128u);
  for (const auto& [id, job] : jobs) EXPECT_GT(compile_llm_training(job).phases.size(), 2u) << id;
}

TEST(BundledLlmWorkloads, TheMixedWeekHasEveryShapeOfJob) {
  const auto jobs = bundled_llm_jobs("llm-mixed-week.json");
  ASSERT_EQ(jobs.size(), 9u);
  const ParallelDegrees gpt3 = jobs.at("gpt3-175b-pretrain").training.parallel;
  EXPECT_EQ(gpt3.tensor * gpt3.pipeline * gpt3.data, 1024u);
  EXPECT_GT(jobs.at("mixtral-8x7b-pretrain").training.parallel.expert, 1u);
  EXPECT_EQ(jobs.at("ft-mistral-7b-measured").training.compute.rule, ComputeRule::kLayerTimes);
  std::size_t fine_tunes = 0;
  for (const auto& [id, job] : jobs) {
    const ParallelDegrees& p = job.training.parallel;
    fine_tunes += p.tensor * p.pipeline * p.data == 8;
    EXPECT_LE(p.tensor, 8u) << id << ": a TP group inside an 8-GPU node";
  }
  EXPECT_EQ(fine_tunes, 5u);
}

}  // namespace
}  // namespace gcsim
