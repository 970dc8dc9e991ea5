// Specification of the "phased" field (workloads/kinds/llm_training/phased_fields.hpp):
// what the writer writes for a small work counted by hand, the round trip
// of compiled llm_training jobs (read, compile, write, read gives the same
// work, every number exactly), and each bad value an InputError naming
// the field.
#include "workloads/kinds/llm_training/phased_fields.hpp"

#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "sim/core/input_error.hpp"
#include "workloads/kinds/llm_training/llm_phases.hpp"

namespace gcsim {
namespace {

const std::string kJob = "jobs[0] (id 'a')";

PhasedWork read(const nlohmann::json& entry, std::uint32_t gpus) {
  return read_phased(JsonObject(entry, {"w.json", kJob}), gpus);
}

void expect_same(const PhasedWork& a, const PhasedWork& b) {
  EXPECT_EQ(a.iterations, b.iterations);
  ASSERT_EQ(a.phases.size(), b.phases.size());
  for (std::size_t i = 0; i < a.phases.size(); ++i) {
    EXPECT_EQ(a.phases[i].flops, b.phases[i].flops) << "phase " << i;
    ASSERT_EQ(a.phases[i].exchanges.size(), b.phases[i].exchanges.size()) << "phase " << i;
    for (std::size_t j = 0; j < a.phases[i].exchanges.size(); ++j) {
      const PhaseExchange &x = a.phases[i].exchanges[j], &y = b.phases[i].exchanges[j];
      EXPECT_EQ(x.exchange, y.exchange) << "phase " << i << " exchange " << j;
      EXPECT_EQ(x.groups.size, y.groups.size) << "phase " << i << " exchange " << j;
      EXPECT_EQ(x.groups.stride, y.groups.stride) << "phase " << i << " exchange " << j;
      EXPECT_EQ(x.bytes, y.bytes) << "phase " << i << " exchange " << j;
      EXPECT_EQ(x.messages, y.messages) << "phase " << i << " exchange " << j;
    }
  }
  ASSERT_EQ(a.power_plan != nullptr, b.power_plan != nullptr);
  if (!a.power_plan) return;
  EXPECT_EQ(a.power_plan->stages.size, b.power_plan->stages.size);
  EXPECT_EQ(a.power_plan->stages.stride, b.power_plan->stages.stride);
  EXPECT_EQ(a.power_plan->micro_batches, b.power_plan->micro_batches);
  EXPECT_EQ(a.power_plan->forward_flops, b.power_plan->forward_flops);
  EXPECT_EQ(a.power_plan->backward_flops, b.power_plan->backward_flops);
  EXPECT_EQ(a.power_plan->limits_watts, b.power_plan->limits_watts);
  EXPECT_EQ(a.power_plan->slack, b.power_plan->slack);
}

TEST(PhasedFields, WritesEachPhasesFlopsAndExchanges) {
  PhasedWork work;
  work.iterations = 3;
  work.phases = {{2.5e12, {}},
                 {0, {{Exchange::kRingStep, {8, 1}, 524288, 192}}},
                 {4e11, {{Exchange::kAllToAll, {4, 8}, 1e6, 2}, {Exchange::kChainPrev, {2, 32}, 64, 1}}},
                 {0, {{Exchange::kBroadcast, {4, 16}, 1e3, 1}}}};
  EXPECT_EQ(phased_json(work), nlohmann::json::parse(R"({"iterations": 3, "phases": [
      {"flops": 2.5e12},
      {"exchanges": [{"exchange": "ring_step", "group_size": 8, "stride": 1, "bytes": 524288, "messages": 192}]},
      {"flops": 4e11, "exchanges": [
          {"exchange": "all_to_all", "group_size": 4, "stride": 8, "bytes": 1e6, "messages": 2},
          {"exchange": "chain_prev", "group_size": 2, "stride": 32, "bytes": 64, "messages": 1}]},
      {"exchanges": [{"exchange": "broadcast", "group_size": 4, "stride": 16, "bytes": 1e3, "messages": 1}]}]})"));
  expect_same(read({{"phased", phased_json(work)}}, 64), work);
}

TEST(PhasedFields, ReadsDefaultsAndUnits) {
  const PhasedWork work = read(nlohmann::json::parse(R"({"phased": {"iterations": 2, "phases": [
      {"flops": "1TFLOPS", "exchanges": [{"exchange": "chain_next", "group_size": 4, "bytes": "1MB"}]}]}})"),
                               8);
  ASSERT_EQ(work.phases.size(), 1u);
  EXPECT_EQ(work.phases[0].flops, 1e12);
  const PhaseExchange& exchange = work.phases[0].exchanges[0];
  EXPECT_EQ(exchange.exchange, Exchange::kChainNext);
  EXPECT_EQ(exchange.groups.stride, 1u);
  EXPECT_EQ(exchange.bytes, 1e6);
  EXPECT_EQ(exchange.messages, 1u);
}

nlohmann::json llm_entry(const std::string& llm_training) {
  return {{"id", "a"}, {"llm_training", nlohmann::json::parse(llm_training)}};
}

// Read an llm_training entry, compile it, write it as "phased", read that: the same work.
void expect_round_trip(const nlohmann::json& entry, std::uint32_t gpus) {
  const PhasedWork compiled = compile_llm_training(read_llm_training(JsonObject(entry, {"w.json", kJob}), gpus));
  const nlohmann::json written = {{"phased", phased_json(compiled)}};
  // Through the text a workload file holds.
  expect_same(read(nlohmann::json::parse(written.dump()), gpus), compiled);
}

TEST(PhasedFields, ADenseJobReadWrittenAndReadAgainIsTheSameWork) {
  expect_round_trip(llm_entry(R"({"model": {"parameters": 6.7e9, "layers": 32, "hidden_size": 4096,
                                            "sequence_length": 2048, "vocabulary_size": 50257, "global_batch": 96,
                                            "micro_batch": 3, "bytes_per_element": 2},
                                  "parallel": {"tensor": 4, "pipeline": 4, "data": 2},
                                  "gradients": "zero", "dp_overlap": 0.3, "recomputation": true,
                                  "iterations": 11})"),
                    32);
}

TEST(PhasedFields, UnequalStagesUnderAPowerPlanReadWrittenAndReadAgainAreTheSameWork) {
  expect_round_trip(llm_entry(R"({"model": {"parameters": 6.7e9, "layers": 30, "hidden_size": 4096,
                                            "sequence_length": 2048, "vocabulary_size": 50257, "global_batch": 96},
                                  "parallel": {"tensor": 4, "pipeline": 4, "data": 2},
                                  "stage_layers": [9, 6, 6, 9], "stage_power_plan": "perseus",
                                  "stage_power_slack": 0.05, "iterations": 11})"),
                    32);
  expect_round_trip(llm_entry(R"({"model": {"parameters": 6.7e9, "layers": 32, "hidden_size": 4096,
                                            "sequence_length": 2048, "global_batch": 96},
                                  "parallel": {"tensor": 4, "pipeline": 4, "data": 2},
                                  "stage_power_limits_watts": [700, 400, 400, 700], "iterations": 11})"),
                    32);
}

TEST(PhasedFields, AMixtureOfExpertsReadWrittenAndReadAgainIsTheSameWork) {
  expect_round_trip(llm_entry(R"({"model": {"parameters": 4.7e10, "layers": 32, "hidden_size": 4096,
                                            "sequence_length": 4096, "vocabulary_size": 32000, "global_batch": 64,
                                            "experts": 8, "top_k": 2},
                                  "parallel": {"tensor": 2, "pipeline": 2, "data": 8, "expert": 4},
                                  "compute": {"rule": "layer_times", "layer_forward_seconds": "1.7ms",
                                              "layer_backward_seconds": "3.3ms", "gpu_flops": "989TFLOPS"},
                                  "dp_overlap": 0.7, "rank_order": "tp-pp-dp", "iterations": 3})"),
                    32);
}

struct BadPhased {
  std::string name;
  std::function<void(nlohmann::json& phased)> change;
  std::string object;  // where, after the job
  std::string field;
};

std::ostream& operator<<(std::ostream& out, const BadPhased& c) { return out << c.name; }

nlohmann::json good_phased() {
  return nlohmann::json::parse(R"({"iterations": 2, "phases": [
      {"flops": 1e12},
      {"exchanges": [{"exchange": "ring_step", "group_size": 4, "stride": 2, "bytes": 1000, "messages": 6}]}]})");
}

const BadPhased kBadPhased[] = {
    {"UnknownField", [](nlohmann::json& p) { p["phase"] = 1; }, ".phased", "phase"},
    {"NoIterations", [](nlohmann::json& p) { p.erase("iterations"); }, ".phased", "iterations"},
    {"NoPhases", [](nlohmann::json& p) { p["phases"] = nlohmann::json::array(); }, ".phased", "phases"},
    {"PhasesNotAnArray", [](nlohmann::json& p) { p["phases"] = 3; }, ".phased", "phases"},
    {"UnknownPhaseField", [](nlohmann::json& p) { p["phases"][0]["seconds"] = 1; }, ".phased.phases[0]", "seconds"},
    {"NegativeFlops", [](nlohmann::json& p) { p["phases"][0]["flops"] = -1; }, ".phased.phases[0]", "flops"},
    {"FlopsBeyondTheHorizon", [](nlohmann::json& p) { p["phases"][0]["flops"] = 1e30; }, ".phased.phases[0]", "flops"},
    {"PhaseDoingNothing", [](nlohmann::json& p) { p["phases"][0] = nlohmann::json::object(); }, ".phased.phases[0]",
     "flops"},
    {"UnknownExchange", [](nlohmann::json& p) { p["phases"][1]["exchanges"][0]["exchange"] = "scatter"; },
     ".phased.phases[1].exchanges[0]", "exchange"},
    {"UnknownExchangeField", [](nlohmann::json& p) { p["phases"][1]["exchanges"][0]["ranks"] = 4; },
     ".phased.phases[1].exchanges[0]", "ranks"},
    {"NoGroupSize", [](nlohmann::json& p) { p["phases"][1]["exchanges"][0].erase("group_size"); },
     ".phased.phases[1].exchanges[0]", "group_size"},
    {"ZeroStride", [](nlohmann::json& p) { p["phases"][1]["exchanges"][0]["stride"] = 0; },
     ".phased.phases[1].exchanges[0]", "stride"},
    {"GroupsNotTilingTheRanks", [](nlohmann::json& p) { p["phases"][1]["exchanges"][0]["stride"] = 3; },
     ".phased.phases[1].exchanges[0]", "group_size"},
    {"NegativeBytes", [](nlohmann::json& p) { p["phases"][1]["exchanges"][0]["bytes"] = -5; },
     ".phased.phases[1].exchanges[0]", "bytes"},
    {"NoMessages", [](nlohmann::json& p) { p["phases"][1]["exchanges"][0]["messages"] = 0; },
     ".phased.phases[1].exchanges[0]", "messages"},
    {"BytesBeyondTheHorizon", [](nlohmann::json& p) { p["phases"][1]["exchanges"][0]["messages"] = 1e16; },
     ".phased.phases[1].exchanges[0]", "messages"},
};

class PhasedFieldsReject : public ::testing::TestWithParam<BadPhased> {};

TEST_P(PhasedFieldsReject, NamingTheFileJobObjectAndField) {
  nlohmann::json entry = {{"id", "a"}, {"phased", good_phased()}};
  EXPECT_NO_THROW(read(entry, 16));
  GetParam().change(entry["phased"]);
  try {
    read(entry, 16);
    FAIL() << "read " << entry.dump();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "w.json");
    EXPECT_EQ(e.where(), kJob + GetParam().object) << e.what();
    EXPECT_EQ(e.field(), GetParam().field) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(EachField, PhasedFieldsReject, ::testing::ValuesIn(kBadPhased),
                         [](const ::testing::TestParamInfo<BadPhased>& info) { return info.param.name; });

TEST(PhasedFields, NamesEveryExchange) {
  EXPECT_STREQ(exchange_name(Exchange::kRingStep), "ring_step");
  EXPECT_STREQ(exchange_name(Exchange::kAllToAll), "all_to_all");
  EXPECT_STREQ(exchange_name(Exchange::kChainNext), "chain_next");
  EXPECT_STREQ(exchange_name(Exchange::kChainPrev), "chain_prev");
  EXPECT_STREQ(exchange_name(Exchange::kBroadcast), "broadcast");
}

}  // namespace
}  // namespace gcsim
