#include "workloads/kinds/measured/measured_kind.hpp"

#include <set>

#include "workloads/kinds/job_fields.hpp"

namespace gcsim {
namespace {
const std::set<std::string> kDurationFields = {"seconds", "gpu_type", "rescale"};
}  // namespace

JobWork MeasuredKind::read(const JsonObject& entry, std::string_view field, const JobSpec&, const std::string&) const {
  const JsonObject duration = entry.required_object(field);
  duration.reject_unknown_fields(kDurationFields);
  MeasuredWork work;
  work.seconds = within_horizon(duration, "seconds", duration.required_quantity("seconds", Quantity::kTime, true),
                                HorizonQuantity::kTime);
  work.gpu_type = duration.required_string("gpu_type");
  work.rescale = duration.optional_bool("rescale", true);
  return work;
}

void MeasuredKind::write(const JobSpec& job, nlohmann::json& entry) const {
  const auto& measured = std::get<MeasuredWork>(job.work);
  entry["duration"] = {{"seconds", measured.seconds}, {"gpu_type", measured.gpu_type}};
  if (!measured.rescale) entry["duration"]["rescale"] = false;
}

JobWork MeasuredKind::trial_work(const JobWork& full, double share) const {
  MeasuredWork work = std::get<MeasuredWork>(full);
  work.seconds *= share;
  return work;
}

void MeasuredKind::check_on(const JobSpec& job, const ClusterCheck& cluster) const {
  const auto& measured = std::get<MeasuredWork>(job.work);
  if (cluster.layout().find_gpu_type(measured.gpu_type) < 0)
    cluster.fail("duration.gpu_type", "unknown GPU type '" + measured.gpu_type + "'; " + cluster.cluster_name() +
                                          " defines: " + cluster.gpu_type_names());
}

std::shared_ptr<const JobKind> make_measured_kind() { return std::make_shared<MeasuredKind>(); }

}  // namespace gcsim
