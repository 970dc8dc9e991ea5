#include "workloads/kinds/study/study_entry.hpp"

#include <set>

#include "workloads/kinds/job_fields.hpp"
#include "workloads/kinds/study/study_expansion.hpp"

namespace gcsim {
namespace {

const std::set<std::string> kHalvingFields = {"rungs", "eta"};

// A study's own fields, and the fields of the kinds whose trials may be a share of their work.
std::set<std::string> study_fields(const KindRegistry& kinds) {
  std::set<std::string> fields = {
      "id",       "user",     "queue",      "submit",     "priority",           "trials", "gpus_per_trial",
      "min_gpus", "max_gpus", "gpu_memory", "checkpoint", "successive_halving", "seed"};
  for (const auto& kind : kinds.kinds())
    if (kind->trial_refusal().empty())
      for (const KindField& field : kind->fields()) fields.insert(std::string(field.name));
  return fields;
}

}  // namespace

std::vector<JobSpec> read_study(const nlohmann::json& value, std::size_t index, const std::string& file_label,
                                const KindRegistry& kinds) {
  const JsonObject study(value, {file_label, study_where(index, string_id(value))});
  study.reject_unknown_fields(study_fields(kinds));

  StudySpec spec;
  spec.id = study.required_string("id");
  spec.user = study.optional_string("user", "default");
  spec.queue = study.optional_string("queue", "default");
  spec.submit = read_submit_time(study);
  spec.priority = study.optional_int("priority", 0);
  spec.trials = read_count(study, "trials", 1);
  spec.gpus_per_trial = read_count(study, "gpus_per_trial", 1);
  spec.min_gpus = read_count(study, "min_gpus", spec.gpus_per_trial);
  spec.max_gpus = read_count(study, "max_gpus", spec.min_gpus);
  check_study_bounds(study, spec.min_gpus, spec.max_gpus, spec.gpus_per_trial);
  spec.gpu_memory_bytes = study.optional_quantity("gpu_memory", Quantity::kBytes, 0);
  spec.checkpoint = read_checkpoint(study);
  JobSpec trial;
  trial.cpu_cores = 1;  // a CPU job's reader needs cores; its kind refuses trials just below
  const KindRead read = kinds.read_work(study, trial, "");
  if (const std::string refusal = read.kind->trial_refusal(); !refusal.empty())
    study.fail(kinds.given_kind(study).second, refusal);
  spec.trial_work = read.work;
  spec.seed = study.optional_uint("seed", 0);
  if (study.has("successive_halving")) {
    const JsonObject halving = study.required_object("successive_halving");
    halving.reject_unknown_fields(kHalvingFields);
    spec.halving.rungs = read_count(halving, "rungs", 1);
    spec.halving.eta = halving.optional_quantity("eta", Quantity::kPlain, 3);
    if (spec.halving.eta < 2) halving.fail("eta", "the reduction factor must be at least 2");
  }
  return expand_study(spec, kinds);
}

}  // namespace gcsim
