#include "workloads/kinds/job_fields.hpp"

#include <charconv>
#include <limits>
#include <optional>
#include <set>

namespace gcsim {
namespace {
const std::set<std::string> kCheckpointFields = {"interval", "save_cost", "restore_cost", "at_preemption"};
}  // namespace

std::string element_where(std::string_view list, std::size_t index, const std::string& id) {
  char digits[24];
  const std::string_view number(
      digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, index).ptr - digits));
  std::string where;
  where.reserve(list.size() + number.size() + 2 + (id.empty() ? 0 : id.size() + 8));
  where.append(list).append("[").append(number).append("]");
  if (!id.empty()) where.append(" (id '").append(id).append("')");
  return where;
}

std::string string_id(const nlohmann::json& value) {
  if (!value.is_object()) return "";
  const auto id = value.find("id");
  return id != value.end() && id->is_string() ? id->get<std::string>() : "";
}

double within_horizon(const JsonObject& owner, std::string_view field, double value, HorizonQuantity quantity) {
  if (const auto problem = beyond_horizon(value, quantity)) owner.fail(field, *problem);
  return value;
}

Time read_submit_time(const JsonObject& owner) {
  const nlohmann::json& v = owner.raw("submit");
  std::optional<double> value;
  if (v.is_number())
    value = v.get<double>();
  else if (v.is_string())
    value = parse_quantity(v.get<std::string>(), Quantity::kTime);
  if (!value) owner.fail("submit", "expected " + quantity_hint(Quantity::kTime) + ", got " + v.dump());
  if (*value < 0) owner.fail("submit", "submit time must be >= 0 (the simulation starts at time 0), got " + v.dump());
  return within_horizon(owner, "submit", *value, HorizonQuantity::kTime);
}

std::uint32_t read_gpu_count(const JsonObject& owner) {
  const std::uint64_t gpus = owner.required_uint("gpus", 1);
  if (gpus > std::numeric_limits<std::uint32_t>::max())
    owner.fail("gpus", "expected at most " + std::to_string(std::numeric_limits<std::uint32_t>::max()) + " GPUs, got " +
                           std::to_string(gpus));
  return static_cast<std::uint32_t>(gpus);
}

std::uint32_t read_count(const JsonObject& owner, std::string_view field, std::uint32_t fallback) {
  const std::uint64_t value = owner.optional_uint(field, fallback, 1);
  if (value > std::numeric_limits<std::uint32_t>::max()) owner.fail(field, "too large");
  return static_cast<std::uint32_t>(value);
}

CheckpointSpec read_checkpoint(const JsonObject& owner) {
  CheckpointSpec spec;
  if (!owner.has("checkpoint")) return spec;
  const JsonObject checkpoint = owner.required_object("checkpoint");
  checkpoint.reject_unknown_fields(kCheckpointFields);
  spec.at_preemption = checkpoint.optional_bool("at_preemption", false);
  // A job that saves at preemption may also save periodically; one that does not must.
  if (!spec.at_preemption || checkpoint.has("interval"))
    spec.interval = checkpoint.required_quantity("interval", Quantity::kTime, true);
  spec.save_cost = checkpoint.optional_quantity("save_cost", Quantity::kTime, 0);
  spec.restore_cost = checkpoint.optional_quantity("restore_cost", Quantity::kTime, 0);
  within_horizon(checkpoint, "interval", spec.interval, HorizonQuantity::kTime);
  within_horizon(checkpoint, "save_cost", spec.save_cost, HorizonQuantity::kTime);
  within_horizon(checkpoint, "restore_cost", spec.restore_cost, HorizonQuantity::kTime);
  return spec;
}

void check_study_bounds(const JsonObject& owner, std::uint32_t min_gpus, std::uint32_t max_gpus,
                        std::uint32_t trial_gpus) {
  if (max_gpus < min_gpus)
    owner.fail("max_gpus",
               "must be at least min_gpus (" + std::to_string(min_gpus) + "), got " + std::to_string(max_gpus));
  if (max_gpus < trial_gpus)
    owner.fail("max_gpus",
               "must allow one trial of " + std::to_string(trial_gpus) + " GPUs, got " + std::to_string(max_gpus));
}

}  // namespace gcsim
