// job_fields.hpp: the readers of the workload format's fields that the
// format's frame and several kinds share, each failing with the InputError
// that names the file, the entry and the field.
//
//   const JsonObject job(value, {file_label, job_where(3, "a")});  // "jobs[3] (id 'a')"
//   work.seconds = within_horizon(job, "seconds", job.required_quantity("seconds", Quantity::kTime),
//                                 HorizonQuantity::kTime);
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "sim/core/job_spec.hpp"
#include "sim/io/json_input.hpp"
#include "sim/io/work_horizon.hpp"

namespace gcsim {

/// "jobs[3] (id 'x')", or "jobs[3]" when the id is empty: where an element
/// of a top-level list is, built in one allocation.
std::string element_where(std::string_view list, std::size_t index, const std::string& id);
inline std::string job_where(std::size_t index, const std::string& id) { return element_where("jobs", index, id); }
inline std::string study_where(std::size_t index, const std::string& id) { return element_where("studies", index, id); }

/// The "id" of an object when it is a string, else empty (also when `value`
/// is no object: JsonObject then rejects it naming the place alone).
std::string string_id(const nlohmann::json& value);

/// `value`, which fails naming `field` when it is beyond the horizon gcsim
/// simulates (sim/io/work_horizon.hpp).
double within_horizon(const JsonObject& owner, std::string_view field, double value, HorizonQuantity quantity);

/// "submit": a time >= 0, rejected with its own message when negative.
Time read_submit_time(const JsonObject& owner);
/// "gpus": required, at least 1, at most 2^32 - 1.
std::uint32_t read_gpu_count(const JsonObject& owner);
/// A count of at least 1 that fits 32 bits, `fallback` when absent.
std::uint32_t read_count(const JsonObject& owner, std::string_view field, std::uint32_t fallback);
/// "checkpoint": {"interval", "save_cost", "restore_cost", "at_preemption"}; none when absent.
CheckpointSpec read_checkpoint(const JsonObject& owner);
/// The GPU bounds shared by a study's trials, checked against the trial size.
void check_study_bounds(const JsonObject& owner, std::uint32_t min_gpus, std::uint32_t max_gpus,
                        std::uint32_t trial_gpus);

}  // namespace gcsim
