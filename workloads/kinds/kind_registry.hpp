// kind_registry.hpp: the kinds of job a workload may hold, by the fields
// that give their work.
//
// builtin_kinds() lists gcsim's kinds (builtin_kinds.cpp); a program or a
// test adds its own kind to a copy, and reads workloads with that copy.
//
//   KindRegistry kinds = builtin_kinds();
//   kinds.add(std::make_shared<SleepKind>());
//   const KindRead read = kinds.read_work(entry, job, base_dir);   // exactly one kind's field given
#pragma once

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/kinds/job_kind.hpp"

namespace gcsim {

/// A job entry's work, read by its kind.
struct KindRead {
  const JobKind* kind;
  JobWork work;
};

class KindRegistry {
 public:
  /// Adds a kind. Throws std::invalid_argument when it gives no field, or a
  /// field another kind (or every job: "id", "gpus", ...) already gives.
  void add(std::shared_ptr<const JobKind> kind);

  /// The kind whose field the entry gives, with that field; {nullptr, ""}
  /// when it gives none. Fails naming the entry when it gives two.
  std::pair<const JobKind*, std::string_view> given_kind(const JsonObject& entry) const;
  /// Reads the entry's work. Fails naming the entry when it gives none of
  /// the kinds' fields, or two.
  KindRead read_work(const JsonObject& entry, const JobSpec& job, const std::string& base_dir) const;
  /// The same for the kind given_kind() found (null: none given, which fails).
  KindRead read_work(const std::pair<const JobKind*, std::string_view>& given, const JsonObject& entry,
                     const JobSpec& job, const std::string& base_dir) const;
  /// The kind that writes `work`. Throws std::logic_error for a form no kind writes.
  const JobKind& writer_of(const JobWork& work) const;

  /// Every kind's fields, in the order the kinds were added.
  const std::vector<KindField>& fields() const { return fields_; }
  /// The names of fields() and of the fields every job entry has: what an entry may give.
  const std::set<std::string>& entry_fields() const { return entry_fields_; }
  const std::vector<std::shared_ptr<const JobKind>>& kinds() const { return kinds_; }

 private:
  std::vector<std::shared_ptr<const JobKind>> kinds_;
  std::vector<KindField> fields_;
  std::vector<const JobKind*> kind_of_field_;  // parallel to fields_
  std::set<std::string> entry_fields_ = common_entry_fields();

  static std::set<std::string> common_entry_fields();
  /// "'training', 'duration' or 'cpu'", each with its meaning when `meanings`.
  std::string listed_fields(bool meanings) const;
};

/// gcsim's kinds, in the order the format's messages list their fields.
const KindRegistry& builtin_kinds();

}  // namespace gcsim
