#include "workloads/kinds/llm_training/phased_fields.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "workloads/kinds/job_fields.hpp"

namespace gcsim {
namespace {

const std::set<std::string> kPhasedFields = {"iterations", "phases", "power_plan"};
const std::set<std::string> kPowerPlanFields = {"group_size",     "stride",       "micro_batches", "forward_flops",
                                                "backward_flops", "limits_watts", "slack"};
const std::set<std::string> kPhaseFields = {"flops", "exchanges"};
const std::set<std::string> kExchangeFields = {"exchange", "group_size", "stride", "bytes", "messages"};

constexpr std::array<std::pair<Exchange, const char*>, 5> kExchangeNames = {{{Exchange::kRingStep, "ring_step"},
                                                                             {Exchange::kAllToAll, "all_to_all"},
                                                                             {Exchange::kChainNext, "chain_next"},
                                                                             {Exchange::kChainPrev, "chain_prev"},
                                                                             {Exchange::kBroadcast, "broadcast"}}};

std::uint32_t read_group_count(const JsonObject& owner, std::string_view field, std::uint64_t value) {
  if (value > std::numeric_limits<std::uint32_t>::max()) owner.fail(field, "too large");
  return static_cast<std::uint32_t>(value);
}

PhaseExchange read_exchange(const JsonObject& exchange, std::uint32_t gpus) {
  exchange.reject_unknown_fields(kExchangeFields);
  PhaseExchange read;
  const std::string name = exchange.required_string("exchange");
  bool known = false;
  for (const auto& [kind, kind_name] : kExchangeNames)
    if (name == kind_name) read.exchange = kind, known = true;
  if (!known)
    exchange.fail("exchange",
                  "expected \"ring_step\", \"all_to_all\", \"chain_next\", \"chain_prev\" or \"broadcast\", got \"" +
                      name + "\"");
  read.groups.size = read_group_count(exchange, "group_size", exchange.required_uint("group_size", 1));
  read.groups.stride = read_group_count(exchange, "stride", exchange.optional_uint("stride", 1, 1));
  const std::uint64_t block = std::uint64_t{read.groups.size} * read.groups.stride;
  if (gpus % block != 0)
    exchange.fail("group_size", "groups of " + std::to_string(read.groups.size) + " ranks " +
                                    std::to_string(read.groups.stride) + " apart fill blocks of " +
                                    std::to_string(block) + " ranks, which do not tile the job's " +
                                    std::to_string(gpus) + " GPUs");
  read.bytes = exchange.required_quantity("bytes", Quantity::kBytes);
  read.messages = exchange.optional_uint("messages", 1, 1);
  within_horizon(exchange, "messages", read.bytes * static_cast<double>(read.messages), HorizonQuantity::kBytes);
  return read;
}

WorkPhase read_phase(const JsonObject& phase, std::uint32_t gpus) {
  phase.reject_unknown_fields(kPhaseFields);
  WorkPhase read;
  read.flops =
      within_horizon(phase, "flops", phase.optional_quantity("flops", Quantity::kFlops, 0), HorizonQuantity::kFlops);
  if (phase.has("exchanges")) {
    const nlohmann::json& exchanges = phase.required_array("exchanges");
    for (std::size_t i = 0; i < exchanges.size(); ++i)
      read.exchanges.push_back(read_exchange(element_of(phase, "exchanges", i, exchanges[i]), gpus));
  }
  if (read.flops == 0 && read.exchanges.empty())
    phase.fail("flops", "a phase computes (flops > 0) or exchanges (exchanges), this one does neither");
  return read;
}

// A list of numbers > 0 (watts or FLOPs), `count` of them.
std::vector<double> read_positive_numbers(const JsonObject& owner, std::string_view field, std::size_t count) {
  const nlohmann::json& given = owner.required_array(field);
  std::vector<double> numbers;
  for (std::size_t i = 0; i < given.size(); ++i) {
    if (!given[i].is_number() || !(given[i].get<double>() > 0) || !std::isfinite(given[i].get<double>()))
      owner.fail(field, "entry " + std::to_string(i) + ": expected a number > 0, got " + given[i].dump());
    numbers.push_back(given[i].get<double>());
  }
  if (numbers.size() != count)
    owner.fail(field,
               "expected one entry per stage, " + std::to_string(count) + ", got " + std::to_string(numbers.size()));
  return numbers;
}

StagePowerPlan read_power_plan(const JsonObject& plan, std::uint32_t gpus) {
  plan.reject_unknown_fields(kPowerPlanFields);
  StagePowerPlan read;
  read.stages.size = read_group_count(plan, "group_size", plan.required_uint("group_size", 1));
  read.stages.stride = read_group_count(plan, "stride", plan.optional_uint("stride", 1, 1));
  if (gpus % (std::uint64_t{read.stages.size} * read.stages.stride) != 0)
    plan.fail("group_size", "stages of " + std::to_string(read.stages.size) + " ranks " +
                                std::to_string(read.stages.stride) + " apart do not tile the job's " +
                                std::to_string(gpus) + " GPUs");
  read.micro_batches = read_group_count(plan, "micro_batches", plan.required_uint("micro_batches", 1));
  read.forward_flops = read_positive_numbers(plan, "forward_flops", read.stages.size);
  read.backward_flops = read_positive_numbers(plan, "backward_flops", read.stages.size);
  if (plan.has("limits_watts")) {
    if (plan.has("slack")) plan.fail("slack", "only without limits_watts (Perseus's rule picks the states)");
    read.limits_watts = read_positive_numbers(plan, "limits_watts", read.stages.size);
  }
  read.slack = plan.optional_quantity("slack", Quantity::kPlain, 0);
  if (!(read.slack >= 0 && std::isfinite(read.slack))) plan.fail("slack", "must be a fraction >= 0");
  return read;
}

}  // namespace

const char* exchange_name(Exchange exchange) {
  for (const auto& [kind, name] : kExchangeNames)
    if (kind == exchange) return name;
  throw std::logic_error("an Exchange that kExchangeNames does not name");
}

PhasedWork read_phased(const JsonObject& entry, std::uint32_t gpus) {
  const JsonObject phased = entry.required_object("phased");
  phased.reject_unknown_fields(kPhasedFields);
  PhasedWork work;
  work.iterations = phased.required_uint("iterations", 1);
  const nlohmann::json& phases = phased.required_array("phases");
  if (phases.empty()) phased.fail("phases", "an iteration has at least one phase");
  for (std::size_t i = 0; i < phases.size(); ++i)
    work.phases.push_back(read_phase(element_of(phased, "phases", i, phases[i]), gpus));
  if (phased.has("power_plan"))
    work.power_plan =
        std::make_shared<const StagePowerPlan>(read_power_plan(phased.required_object("power_plan"), gpus));
  return work;
}

nlohmann::json phased_json(const PhasedWork& work) {
  nlohmann::json phases = nlohmann::json::array();
  for (const WorkPhase& phase : work.phases) {
    nlohmann::json& out = phases.emplace_back(nlohmann::json::object());
    if (phase.flops != 0) out["flops"] = phase.flops;
    for (const PhaseExchange& exchange : phase.exchanges)
      out["exchanges"].push_back({{"exchange", exchange_name(exchange.exchange)},
                                  {"group_size", exchange.groups.size},
                                  {"stride", exchange.groups.stride},
                                  {"bytes", exchange.bytes},
                                  {"messages", exchange.messages}});
  }
  nlohmann::json out = {{"iterations", work.iterations}, {"phases", std::move(phases)}};
  if (work.power_plan) {
    const StagePowerPlan& plan = *work.power_plan;
    nlohmann::json& p = out["power_plan"];
    p = {{"group_size", plan.stages.size},
         {"stride", plan.stages.stride},
         {"micro_batches", plan.micro_batches},
         {"forward_flops", plan.forward_flops},
         {"backward_flops", plan.backward_flops}};
    if (!plan.limits_watts.empty())
      p["limits_watts"] = plan.limits_watts;
    else
      p["slack"] = plan.slack;
  }
  return out;
}

}  // namespace gcsim
