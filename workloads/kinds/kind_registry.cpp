#include "workloads/kinds/kind_registry.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

namespace gcsim {

std::set<std::string> KindRegistry::common_entry_fields() {
  // The fields every job entry may give, whatever its kind; one a line.
  // clang-format off
  return {"id",
          "user",
          "queue",
          "submit",
          "gpus",
          "gpu_memory",
          "gpu_share",
          "power_limit_watts",
          "cpu_cores",
          "memory",
          "single_node",
          "rdma_percent",
          "disk",
          "role",
          "application",
          "max_instance_per_node",
          "gpu_types",
          "mixed_gpu_types",
          "priority",
          "runtime_estimate",
          "checkpoint",
          "study",
          "after",
          "after_delay",
          "gpu_memory_use",
          "qos"};
  // clang-format on
}

void KindRegistry::add(std::shared_ptr<const JobKind> kind) {
  const std::vector<KindField> given = kind->fields();
  if (given.empty()) throw std::invalid_argument("a job kind gives its work in at least one field");
  for (const KindField& field : given)
    if (entry_fields_.count(std::string(field.name)))
      throw std::invalid_argument("the job entry's field '" + std::string(field.name) + "' is taken");
  for (const KindField& field : given) {
    entry_fields_.insert(std::string(field.name));
    fields_.push_back(field);
    kind_of_field_.push_back(kind.get());
  }
  kinds_.push_back(std::move(kind));
}

std::string KindRegistry::listed_fields(bool meanings) const {
  std::string text;
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    text += i == 0 ? "'" : i + 1 == fields_.size() ? " or '" : ", '";
    text.append(fields_[i].name).append("'");
    if (meanings) text.append(" (").append(fields_[i].meaning).append(")");
  }
  return text;
}

std::pair<const JobKind*, std::string_view> KindRegistry::given_kind(const JsonObject& entry) const {
  // The first two given, in the order of fields_. One pass over the entry's
  // members, each set against the kinds' fields, costs less than a lookup
  // per kind field: this runs for every job read.
  std::size_t given[2] = {fields_.size(), fields_.size()};
  std::size_t count = 0;
  for (const auto& [name, value] : entry.value().get_ref<const nlohmann::json::object_t&>()) {
    if (value.is_null()) continue;  // a null field is not given
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      if (fields_[i].name != name) continue;
      ++count;
      if (i < given[0]) {
        given[1] = given[0];
        given[0] = i;
      } else if (i < given[1]) {
        given[1] = i;
      }
      break;
    }
  }
  if (count > 1)
    entry.fail(fields_[given[1]].name, "exactly one of " + listed_fields(false) + " is given, this one gives both '" +
                                           std::string(fields_[given[0]].name) + "' and '" +
                                           std::string(fields_[given[1]].name) + "'");
  if (count == 0) return {nullptr, {}};
  return {kind_of_field_[given[0]], fields_[given[0]].name};
}

KindRead KindRegistry::read_work(const JsonObject& entry, const JobSpec& job, const std::string& base_dir) const {
  return read_work(given_kind(entry), entry, job, base_dir);
}

KindRead KindRegistry::read_work(const std::pair<const JobKind*, std::string_view>& given, const JsonObject& entry,
                                 const JobSpec& job, const std::string& base_dir) const {
  const auto [kind, field] = given;
  if (!kind) entry.fail(fields_.front().name, "missing: exactly one of " + listed_fields(true) + " is given");
  return {kind, kind->read(entry, field, job, base_dir)};
}

const JobKind& KindRegistry::writer_of(const JobWork& work) const {
  for (const auto& kind : kinds_)
    if (kind->writes(work)) return *kind;
  throw std::logic_error("no job kind writes work of form " + std::to_string(work.index()));
}

}  // namespace gcsim
