#include "workloads/kinds/llm_training/phased_fields.hpp"

#include <array>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "workloads/kinds/job_fields.hpp"

namespace gcsim {
namespace {

const std::set<std::string> kPhasedFields = {"iterations", "phases"};
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
  return {{"iterations", work.iterations}, {"phases", std::move(phases)}};
}

}  // namespace gcsim
