#include "workloads/native_workload.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <limits>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"
#include "sim/io/json_value_builder.hpp"
#include "sim/io/plain_json_events.hpp"
#include "workloads/job_dependencies.hpp"
#include "workloads/kinds/job_fields.hpp"
#include "workloads/kinds/study/study_entry.hpp"

namespace gcsim {
namespace {

const std::set<std::string> kTopLevelFields = {"jobs", "studies"};
const std::set<std::string> kMemoryUseFields = {"at", "bytes"};
const std::set<std::string> kMembershipFields = {"id", "min_gpus", "max_gpus"};

// The job's QoS class: "guaranteed" (the default) or "spot".
QosClass read_qos(const JsonObject& job) {
  if (!job.has("qos")) return QosClass::kGuaranteed;
  const nlohmann::json& v = job.raw("qos");
  if (v == "spot") return QosClass::kSpot;
  if (v == "guaranteed") return QosClass::kGuaranteed;
  job.fail("qos", "expected \"guaranteed\" or \"spot\", got " + v.dump());
}

// "gpu_types": ["V100", "A100"]: names, at least one, each once (checked against the cluster later).
std::vector<std::string> read_gpu_types(const JsonObject& job) {
  std::vector<std::string> types;
  if (!job.has("gpu_types")) return types;
  const nlohmann::json& list = job.required_array("gpu_types");
  if (list.empty()) job.fail("gpu_types", "expected at least one GPU type name (leave the field out for any type)");
  for (const nlohmann::json& item : list) {
    if (!item.is_string() || item.get<std::string>().empty())
      job.fail("gpu_types", "expected GPU type names, got " + item.dump());
    if (std::find(types.begin(), types.end(), item.get<std::string>()) != types.end())
      job.fail("gpu_types", "names GPU type '" + item.get<std::string>() + "' twice");
    types.push_back(item.get<std::string>());
  }
  return types;
}

// "gpu_memory_use": [{"at": T, "bytes": B}, ...], in strictly increasing "at".
std::vector<MemoryUse> read_memory_use(const JsonObject& job) {
  std::vector<MemoryUse> uses;
  if (!job.has("gpu_memory_use")) return uses;
  const nlohmann::json& list = job.required_array("gpu_memory_use");
  if (list.empty()) job.fail("gpu_memory_use", "expected at least one {\"at\", \"bytes\"} point");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonObject point = element_of(job, "gpu_memory_use", i, list[i]);
    point.reject_unknown_fields(kMemoryUseFields);
    MemoryUse use{point.required_quantity("at", Quantity::kTime), point.required_quantity("bytes", Quantity::kBytes)};
    within_horizon(point, "at", use.at, HorizonQuantity::kTime);
    if (!uses.empty() && use.at <= uses.back().at)
      point.fail("at", "expected the points in increasing time, each after the one before");
    uses.push_back(use);
  }
  return uses;
}

// "after": ["prepare", ...]: ids of jobs, each once (resolved once all are read).
std::vector<std::string> read_after(const JsonObject& job) {
  std::vector<std::string> ids;
  if (!job.has("after")) return ids;
  for (const nlohmann::json& item : job.required_array("after")) {
    if (!item.is_string() || item.get<std::string>().empty()) job.fail("after", "expected job ids, got " + item.dump());
    if (std::find(ids.begin(), ids.end(), item.get<std::string>()) != ids.end())
      job.fail("after", "names job '" + item.get<std::string>() + "' twice");
    ids.push_back(item.get<std::string>());
  }
  return ids;
}

// The Kubernetes placement constraints a pod list gives (Alibaba's 2025
// GPU-disaggregated trace): an RDMA share in percent of one RNIC, disk, a
// node role (CN or HN), and an application with at most max_instance_per_node
// of its jobs on a node (sim/core/anti_affinity.hpp).
void read_placement_constraints(const JsonObject& job, JobSpec& spec) {
  const std::uint64_t rdma = job.optional_uint("rdma_percent", 0);
  if (rdma > std::numeric_limits<std::uint32_t>::max())
    job.fail("rdma_percent", "expected at most " + std::to_string(std::numeric_limits<std::uint32_t>::max()) +
                                 " percent, got " + std::to_string(rdma));
  spec.rdma_percent = static_cast<std::uint32_t>(rdma);
  spec.disk_bytes = job.optional_quantity("disk", Quantity::kBytes, 0);
  if (job.has("role")) {
    const nlohmann::json& role = job.raw("role");
    const std::optional<NodeRole> known =
        role.is_string() ? parse_node_role(role.get<std::string>()) : std::optional<NodeRole>();
    if (!known) job.fail("role", "expected \"CN\" (CPU nodes) or \"HN\" (GPU nodes), got " + role.dump());
    spec.role = *known;
  }
  if (!job.has("application")) {
    if (job.has("max_instance_per_node"))
      job.fail("max_instance_per_node", "limits the jobs of an application on a node, and \"application\" names none");
    return;
  }
  Application application;
  application.name = job.required_string("application");
  if (application.name.empty()) job.fail("application", "expected a non-empty application name");
  if (job.has("max_instance_per_node")) {
    if (job.raw("max_instance_per_node").is_number_integer() &&
        job.raw("max_instance_per_node").get<std::int64_t>() < 1)
      job.fail("max_instance_per_node", "expected at least 1 job of the application on a node, got " +
                                            job.raw("max_instance_per_node").dump() +
                                            " (leave the field out for no limit)");
    const std::uint64_t most = job.optional_uint("max_instance_per_node", 0, 1);
    if (most > std::numeric_limits<std::uint32_t>::max())
      job.fail("max_instance_per_node", "expected at most " +
                                            std::to_string(std::numeric_limits<std::uint32_t>::max()) + ", got " +
                                            std::to_string(most));
    application.max_per_node = static_cast<std::uint32_t>(most);
  }
  spec.application = std::make_shared<const Application>(std::move(application));
}

double read_gpu_share(const JsonObject& job) {
  const double share = job.optional_quantity("gpu_share", Quantity::kPlain, 1, true);
  if (!(share > 1) && !(share < kSmallestGpuShare)) return share;
  char given[32];  // as given, however small: "1e-09", not "0.000000"
  std::snprintf(given, sizeof given, "%g", share);
  if (share > 1)
    job.fail("gpu_share", "expected the fraction of each GPU the job uses, in (0, 1], got " + std::string(given) +
                              " (a job needing more than one GPU asks for more 'gpus')");
  job.fail("gpu_share", "expected at least a millionth of a GPU, got " + std::string(given));
}

// The folder of a workload file, for paths written relative to it ("" for the current one).
std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

// A job entry read: its job, the kind its work is of, and the ids it waits
// for (JobSpec::after is set once all jobs are read).
struct JobRead {
  JobSpec job;
  const JobKind* kind;
  std::vector<std::string> after;
};

// The fields every job has, then its kind's, which checks the rest and completes the job.
JobRead read_job(const JsonObject& job, const KindRegistry& kinds, const std::string& file_label) {
  job.reject_unknown_fields(kinds.entry_fields());

  JobSpec spec;
  spec.id = job.required_string("id");
  spec.user = job.optional_string("user", "default");
  spec.queue = job.optional_string("queue", "default");
  spec.submit = read_submit_time(job);
  // How "gpus" reads is the kind's: some may hold none. An entry of no kind
  // reads it as most kinds do; its missing kind is reported below.
  const std::pair<const JobKind*, std::string_view> given = kinds.given_kind(job);
  spec.gpus = given.first ? given.first->read_gpus(job) : read_gpu_count(job);
  spec.gpu_memory_bytes = job.optional_quantity("gpu_memory", Quantity::kBytes, 0);
  if (std::vector<MemoryUse> uses = read_memory_use(job); !uses.empty())
    spec.change_relations().gpu_memory_use = std::move(uses);
  spec.gpu_share = read_gpu_share(job);
  spec.power_limit_watts = job.optional_quantity("power_limit_watts", Quantity::kPlain, 0, /*strictly_positive=*/true);
  const std::uint64_t cpu_cores = job.optional_uint("cpu_cores", 0);
  if (cpu_cores > std::numeric_limits<std::uint32_t>::max())
    job.fail("cpu_cores", "expected at most " + std::to_string(std::numeric_limits<std::uint32_t>::max()) +
                              " cores, got " + std::to_string(cpu_cores));
  spec.cpu_cores = static_cast<std::uint32_t>(cpu_cores);
  spec.memory_bytes = job.optional_quantity("memory", Quantity::kBytes, 0);
  spec.single_node = job.optional_bool("single_node", false);
  read_placement_constraints(job, spec);
  spec.gpu_types = read_gpu_types(job);
  spec.mixed_gpu_types = job.optional_bool("mixed_gpu_types", false);
  spec.priority = job.optional_int("priority", 0);
  spec.qos = read_qos(job);
  spec.runtime_estimate = within_horizon(
      job, "runtime_estimate", job.optional_quantity("runtime_estimate", Quantity::kTime, 0), HorizonQuantity::kTime);
  spec.checkpoint = read_checkpoint(job);
  if (job.has("study")) {
    const JsonObject study = job.required_object("study");
    study.reject_unknown_fields(kMembershipFields);
    StudyMembership membership;
    membership.id = study.required_string("id");
    membership.min_gpus = read_count(study, "min_gpus", 1);
    membership.max_gpus = read_count(study, "max_gpus", membership.min_gpus);
    check_study_bounds(study, membership.min_gpus, membership.max_gpus, spec.gpus);
    spec.study = std::make_shared<const StudyMembership>(std::move(membership));
  }

  std::vector<std::string> after = read_after(job);
  const Time after_delay = within_horizon(job, "after_delay", job.optional_quantity("after_delay", Quantity::kTime, 0),
                                          HorizonQuantity::kTime);
  if (after_delay > 0) spec.change_relations().after_delay = after_delay;
  if (after_delay > 0 && after.empty())
    job.fail("after_delay", "counts from the end of the jobs the job waits for, and \"after\" names none");

  KindRead read = kinds.read_work(given, job, spec, folder_of(file_label));
  spec.work = std::move(read.work);
  read.kind->check(job, spec);
  return {std::move(spec), read.kind, std::move(after)};
}

// Gathers the jobs read, in the order of the file, and rejects an id used
// twice naming where it was first used. A kind adds the jobs its entry makes.
class JobCollector final : public JobSink {
 public:
  JobCollector(std::string file_label, const KindRegistry& kinds) : file_label_(std::move(file_label)), kinds_(kinds) {}

  // Forgets every job read: "jobs" given twice, the last counts.
  void restart() {
    jobs_.clear();
    first_use_.clear();
    named_after_.clear();
  }

  void reserve(std::size_t jobs) { jobs_.reserve(jobs); }
  // Room for the ids of about `jobs` jobs, so that the index of ids is not
  // rebuilt over and over as a large workload streams in.
  void expect_ids(std::size_t jobs) { first_use_.reserve(jobs); }

  void add_job(const nlohmann::json& value, std::size_t index) {
    // The id is read first so that every later error names the job.
    const JsonObject entry(value, {file_label_, job_where(index, string_id(value))});
    JobRead read = read_job(entry, kinds_, file_label_);
    if (!read.after.empty()) named_after_.push_back({jobs_.size(), std::move(read.after)});
    use_ = {index, kNotInStudy};
    read.kind->expand(std::move(read.job), entry, *this);
  }

  JobIndex add(JobSpec job) override {
    add(std::move(job), use_);
    return static_cast<JobIndex>(jobs_.size() - 1);
  }

  // A study's trials follow the jobs, in study order.
  void add_study(const nlohmann::json& value, std::size_t index) {
    const std::size_t first_trial = jobs_.size();
    for (JobSpec& trial : read_study(value, index, file_label_, kinds_)) add(std::move(trial), {index, first_trial});
  }

  // Exactly as many as read: the doubling while streaming leaves up to as
  // many slots again unused, a third of a job's memory for the whole run.
  std::vector<JobSpec> take() {
    jobs_.shrink_to_fit();
    resolve_dependencies(jobs_, named_after_, file_label_,
                         [this](JobIndex job) { return where(first_use_.at(jobs_[job].id), jobs_[job].id); });
    return std::move(jobs_);
  }

 private:
  static constexpr std::size_t kNotInStudy = static_cast<std::size_t>(-1);
  // Where an id was first used: jobs[index], or studies[index] whose first
  // trial is jobs_[first_trial]; the message is only written for a duplicate.
  struct FirstUse {
    std::size_t index;
    std::size_t first_trial;
  };

  std::string where(const FirstUse& use, const std::string& id) const {
    return use.first_trial == kNotInStudy ? job_where(use.index, id)
                                          : study_where(use.index, jobs_[use.first_trial].study->id);
  }

  void add(JobSpec job, FirstUse use) {
    const auto [it, inserted] = first_use_.emplace(job.id, use);
    if (!inserted) {
      // The job being added is not in jobs_ yet: its own study names its place.
      const std::string here = job.study ? study_where(use.index, job.study->id) : job_where(use.index, job.id);
      throw InputError(file_label_, here, "id",
                       "duplicate job id '" + job.id + "' (first used by " + where(it->second, job.id) + ")");
    }
    jobs_.push_back(std::move(job));
  }

  std::string file_label_;
  const KindRegistry& kinds_;
  FirstUse use_{0, kNotInStudy};  // where the jobs a kind adds come from
  std::vector<JobSpec> jobs_;
  std::unordered_map<std::string, FirstUse> first_use_;
  std::vector<NamedDependencies> named_after_;  // the jobs that wait for others, as read
};

// The top level's fields checked: only "jobs" and "studies", each an array
// when given, "jobs" required unless "studies" is given. `jobs_count` is the
// number of jobs listed (the reader that streams them holds none).
struct TopLevelLists {
  const nlohmann::json& jobs;
  const nlohmann::json& studies;
};
TopLevelLists read_top_level(const JsonObject& top, std::size_t jobs_count) {
  top.reject_unknown_fields(kTopLevelFields);
  static const nlohmann::json kNone = nlohmann::json::array();
  const nlohmann::json& jobs = top.has("jobs") || !top.has("studies") ? top.required_array("jobs") : kNone;
  const nlohmann::json& studies = top.has("studies") ? top.required_array("studies") : kNone;
  if (jobs_count == 0 && studies.empty()) top.fail("jobs", "the workload lists no jobs");
  return {jobs, studies};
}

// The native format read from nlohmann's SAX events (json::sax_parse), one
// job at a time: each element of "jobs" is built as a small json value, read
// into a JobSpec and dropped once complete, so the document is never held
// whole. The other top-level fields ("studies", and any unknown one) are
// kept as values. Errors come in the order reading the whole document gives
// them: malformed JSON anywhere first (the parse goes on after a bad job to
// find it), then the top level, then the first bad job, then the studies.
class StreamingWorkloadReader {
 public:
  // `bytes`: the size of the document, where known (0: not known).
  StreamingWorkloadReader(const std::string& file_label, const KindRegistry& kinds, std::size_t bytes)
      : file_label_(file_label), kinds_(kinds), jobs_(file_label, kinds) {
    jobs_.expect_ids(bytes / kEntryBytes);
  }

  std::vector<JobSpec> finish() {
    if (!top_is_object_) return parse_native_workload(document_, file_label_, kinds_);  // its error: not an object
    const JsonObject top(top_fields_, {file_label_, ""});
    const TopLevelLists lists = read_top_level(top, jobs_seen_);
    if (job_error_) std::rethrow_exception(job_error_);
    for (std::size_t i = 0; i < lists.studies.size(); ++i) jobs_.add_study(lists.studies[i], i);
    return jobs_.take();
  }

  // nlohmann's SAX interface.
  bool null() {
    return value([](JsonValueBuilder& b) { b.null(); });
  }
  bool boolean(bool v) {
    return value([v](JsonValueBuilder& b) { b.boolean(v); });
  }
  bool number_integer(std::int64_t v) {
    return value([v](JsonValueBuilder& b) { b.number_integer(v); });
  }
  bool number_unsigned(std::uint64_t v) {
    return value([v](JsonValueBuilder& b) { b.number_unsigned(v); });
  }
  bool number_float(double v, const std::string&) {
    return value([v](JsonValueBuilder& b) { b.number_float(v); });
  }
  bool string(std::string& v) {
    return value([&v](JsonValueBuilder& b) { b.string(v); });
  }
  bool binary(nlohmann::json::binary_t& v) {
    return value([&v](JsonValueBuilder& b) { b.binary(v); });
  }
  bool start_object(std::size_t) {
    if (!builder_.building() && place_ == Place::kDocument) {
      top_is_object_ = true;
      place_ = Place::kTopLevel;
      return true;
    }
    return value([](JsonValueBuilder& b) { b.start_object(); });
  }
  bool start_array(std::size_t) {
    if (!builder_.building() && place_ == Place::kTopLevel && key_ == "jobs") {
      begin_jobs();
      top_fields_["jobs"] = nlohmann::json::array();  // the jobs themselves are read as they come
      place_ = Place::kJobs;
      return true;
    }
    return value([](JsonValueBuilder& b) { b.start_array(); });
  }
  bool key(std::string& name) {
    if (builder_.building())
      builder_.key(name);
    else
      key_ = std::move(name);
    return true;
  }
  bool end_object() {
    if (!builder_.building()) return true;  // the end of the top level
    builder_.end_object();
    return ended();
  }
  bool end_array() {
    if (!builder_.building()) {  // the end of "jobs"
      place_ = Place::kTopLevel;
      return true;
    }
    builder_.end_array();
    return ended();
  }
  template <class Exception>
  bool parse_error(std::size_t byte, const std::string&, const Exception& error) {
    return throw_json_error_at(byte, error);
  }

 private:
  enum class Place { kDocument, kTopLevel, kJobs };
  // About the bytes of a job entry: a document's size over it estimates its
  // number of jobs (gcsim writes 200 to 300 bytes a job; a low estimate only
  // leaves the index of ids to grow as before).
  static constexpr std::size_t kEntryBytes = 128;

  // A value event: it begins a new value where none is being built.
  template <class Event>
  bool value(Event event) {
    const bool begins = !builder_.building();
    if (begins && place_ == Place::kTopLevel && key_ == "jobs") begin_jobs();  // "jobs" given again: the last counts
    event(builder_);
    return ended();
  }

  bool ended() {
    if (!builder_.complete()) return true;
    nlohmann::json value = builder_.take();
    switch (place_) {
      case Place::kDocument:
        document_ = std::move(value);
        break;
      case Place::kTopLevel:
        top_fields_[key_] = std::move(value);
        break;
      case Place::kJobs:
        read_next_job(value);
        break;
    }
    return true;
  }

  void begin_jobs() {
    jobs_.restart();
    jobs_seen_ = 0;
    job_error_ = nullptr;
  }

  // After the first bad job the rest are only counted: its error is thrown
  // once the document is known to be well formed.
  void read_next_job(const nlohmann::json& value) {
    const std::size_t index = jobs_seen_++;
    if (job_error_) return;
    try {
      jobs_.add_job(value, index);
    } catch (...) {
      job_error_ = std::current_exception();
    }
  }

  const std::string& file_label_;
  const KindRegistry& kinds_;
  JsonValueBuilder builder_;
  Place place_ = Place::kDocument;
  std::string key_;  // the top-level field being read
  bool top_is_object_ = false;
  nlohmann::json document_;                               // a document that is not an object
  nlohmann::json top_fields_ = nlohmann::json::object();  // the top level, "jobs" as an empty placeholder
  JobCollector jobs_;
  std::size_t jobs_seen_ = 0;
  std::exception_ptr job_error_;
};

}  // namespace

std::vector<JobSpec> read_native_workload(const std::string& path, const KindRegistry& kinds) {
  std::ifstream in = open_input_file(path);
  return read_native_workload(in, path, kinds);
}

namespace {

// The bytes from `start` to the stream's end (0 where it cannot tell); the
// stream is left at `start`.
std::size_t bytes_ahead(std::istream& text, std::istream::pos_type start) {
  text.seekg(0, std::ios::end);
  const std::istream::pos_type end = text.tellg();
  text.clear();
  text.seekg(start);
  return end != std::istream::pos_type(-1) && end > start ? static_cast<std::size_t>(end - start) : 0;
}

}  // namespace

std::vector<JobSpec> read_native_workload(std::istream& text, const std::string& file_label,
                                          const KindRegistry& kinds) {
  // A plain file is read fast; any other, or a malformed one, is read again
  // from its start by nlohmann, which locates a syntax error by line and
  // column. A stream that cannot tell where it starts goes to nlohmann alone.
  const std::istream::pos_type start = text.tellg();
  std::size_t bytes = 0;
  if (start != std::istream::pos_type(-1)) {
    bytes = bytes_ahead(text, start);
    {
      StreamingWorkloadReader reader(file_label, kinds, bytes);
      if (read_plain_json_events(text, reader)) return reader.finish();
    }
    text.clear();
    text.seekg(start);
  }
  StreamingWorkloadReader reader(file_label, kinds, bytes);
  try {
    nlohmann::json::sax_parse(text, &reader);
  } catch (const JsonErrorAt& e) {
    throw json_syntax_error(e, text, file_label);
  }
  return reader.finish();
}

std::vector<JobSpec> parse_native_workload(const nlohmann::json& doc, const std::string& file_label,
                                           const KindRegistry& kinds) {
  const JsonObject top(doc, {file_label, ""});
  const std::size_t listed = top.has("jobs") && top.raw("jobs").is_array() ? top.raw("jobs").size() : 0;
  const TopLevelLists lists = read_top_level(top, listed);
  JobCollector jobs(file_label, kinds);
  jobs.reserve(lists.jobs.size());
  for (std::size_t i = 0; i < lists.jobs.size(); ++i) jobs.add_job(lists.jobs[i], i);
  for (std::size_t i = 0; i < lists.studies.size(); ++i) jobs.add_study(lists.studies[i], i);
  return jobs.take();
}

namespace {
nlohmann::json job_json(const JobSpec& job, const std::vector<JobSpec>& jobs, const JobKind& kind) {
  nlohmann::json entry = {
      {"id", job.id}, {"user", job.user}, {"queue", job.queue}, {"submit", job.submit}, {"gpus", job.gpus}};
  if (job.gpu_memory_bytes != 0) entry["gpu_memory"] = job.gpu_memory_bytes;
  if (!job.gpu_memory_use().empty()) {
    entry["gpu_memory_use"] = nlohmann::json::array();
    for (const MemoryUse& use : job.gpu_memory_use())
      entry["gpu_memory_use"].push_back({{"at", use.at}, {"bytes", use.bytes}});
  }
  if (job.gpu_share != 1) entry["gpu_share"] = job.gpu_share;
  if (job.power_limit_watts != 0) entry["power_limit_watts"] = job.power_limit_watts;
  if (job.cpu_cores != 0) entry["cpu_cores"] = job.cpu_cores;
  if (job.memory_bytes != 0) entry["memory"] = job.memory_bytes;
  if (job.single_node) entry["single_node"] = true;
  if (job.rdma_percent != 0) entry["rdma_percent"] = job.rdma_percent;
  if (job.disk_bytes != 0) entry["disk"] = job.disk_bytes;
  if (job.role != NodeRole::kNone) entry["role"] = node_role_name(job.role);
  if (job.application) {
    entry["application"] = job.application->name;
    if (job.application->max_per_node != 0) entry["max_instance_per_node"] = job.application->max_per_node;
  }
  if (!job.gpu_types.empty()) entry["gpu_types"] = job.gpu_types;
  if (job.mixed_gpu_types) entry["mixed_gpu_types"] = true;
  if (job.priority != 0) entry["priority"] = job.priority;
  if (is_spot(job)) entry["qos"] = qos_name(job.qos);
  if (job.runtime_estimate != 0) entry["runtime_estimate"] = job.runtime_estimate;
  if (job.study)
    entry["study"] = {{"id", job.study->id}, {"min_gpus", job.study->min_gpus}, {"max_gpus", job.study->max_gpus}};
  if (!job.after().empty()) {
    entry["after"] = nlohmann::json::array();
    for (JobIndex first : job.after()) entry["after"].push_back(jobs[first].id);
    if (job.after_delay() != 0) entry["after_delay"] = job.after_delay();
  }
  if (job.checkpoint.interval != 0 || job.checkpoint.at_preemption) {
    nlohmann::json& checkpoint = entry["checkpoint"] = nlohmann::json::object();
    if (job.checkpoint.interval != 0) checkpoint["interval"] = job.checkpoint.interval;
    if (job.checkpoint.save_cost != 0) checkpoint["save_cost"] = job.checkpoint.save_cost;
    if (job.checkpoint.restore_cost != 0) checkpoint["restore_cost"] = job.checkpoint.restore_cost;
    if (job.checkpoint.at_preemption) checkpoint["at_preemption"] = true;
  }
  kind.write(job, entry);
  return entry;
}
}  // namespace

nlohmann::json native_workload_json(const std::vector<JobSpec>& jobs, const KindRegistry& kinds) {
  nlohmann::json list = nlohmann::json::array();
  for (const JobSpec& job : jobs) {
    const JobKind& kind = kinds.writer_of(job.work);
    if (kind.written(job)) list.push_back(job_json(job, jobs, kind));
  }
  return {{"jobs", std::move(list)}};
}

void write_native_workload(std::ostream& out, const std::vector<JobSpec>& jobs, const KindRegistry& kinds) {
  if (jobs.empty()) {
    out << native_workload_json(jobs, kinds).dump(1) << "\n";
    return;
  }
  // dump(1) of the whole document puts each job two levels deep: its lines
  // are those of the job dumped alone, indented by two spaces (a dumped
  // string holds no raw newline).
  out << "{\n \"jobs\": [\n";
  bool first = true;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const JobKind& kind = kinds.writer_of(jobs[i].work);
    if (!kind.written(jobs[i])) continue;
    if (!first) out << ",\n";
    first = false;
    const std::string entry = job_json(jobs[i], jobs, kind).dump(1);
    std::size_t line = 0;
    for (std::size_t end = entry.find('\n'); end != std::string::npos; end = entry.find('\n', line)) {
      out << "  ";
      out.write(entry.data() + line, static_cast<std::streamsize>(end + 1 - line));
      line = end + 1;
    }
    out << "  ";
    out.write(entry.data() + line, static_cast<std::streamsize>(entry.size() - line));
  }
  out << "\n ]\n}\n";
}

}  // namespace gcsim
