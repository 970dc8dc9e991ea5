#include "workloads/native_workload.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <exception>

#include "sim/core/dag_work.hpp"
#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"
#include "sim/io/json_value_builder.hpp"
#include "sim/io/plain_json_events.hpp"
#include "workloads/frame_chain.hpp"
#include "workloads/job_dependencies.hpp"
#include "workloads/notebook_activity.hpp"
#include "workloads/serving_deployment.hpp"
#include "workloads/study_expansion.hpp"
#include "workloads/work_horizon.hpp"

namespace gcsim {
namespace {

const std::set<std::string> kTopLevelFields = {"jobs", "studies"};
const std::set<std::string> kJobFields = {"id",
                                          "user",
                                          "queue",
                                          "submit",
                                          "gpus",
                                          "gpu_memory",
                                          "gpu_share",
                                          "cpu_cores",
                                          "memory",
                                          "single_node",
                                          "gpu_types",
                                          "priority",
                                          "runtime_estimate",
                                          "checkpoint",
                                          "training",
                                          "duration",
                                          "study",
                                          "dag",
                                          "frame_chain",
                                          "after",
                                          "after_delay",
                                          "notebook",
                                          "serving",
                                          "cpu",
                                          "gpu_memory_use"};
const std::set<std::string> kMemoryUseFields = {"at", "bytes"};
const std::set<std::string> kCpuFields = {"seconds", "core_seconds"};
const std::set<std::string> kNotebookFields = {"activity", "length", "busy_fraction", "burst", "seed", "idle_timeout"};
const std::set<std::string> kPhaseFields = {"idle", "busy"};
const std::set<std::string> kCheckpointFields = {"interval", "save_cost", "restore_cost", "at_preemption"};
const std::set<std::string> kMembershipFields = {"id", "min_gpus", "max_gpus"};
const std::set<std::string> kStudyFields = {
    "id",       "user",     "queue",      "submit",     "priority", "trials",   "gpus_per_trial",
    "min_gpus", "max_gpus", "gpu_memory", "checkpoint", "training", "duration", "successive_halving",
    "seed"};
const std::set<std::string> kHalvingFields = {"rungs", "eta"};
const std::set<std::string> kTrainingFields = {
    "flops_per_iteration", "gradient_bytes", "iterations",     "parameter_servers",
    "fusion_buffer",       "allreduce",      "input_pipeline", "flops_per_iteration_by_gpu_type"};
const std::set<std::string> kInputPipelineFields = {"samples_per_gpu", "core_samples_per_s"};
const std::set<std::string> kDurationFields = {"seconds", "gpu_type", "rescale"};
const std::set<std::string> kDagFields = {"pools", "tasks", "task_overhead", "wake_up"};
const std::set<std::string> kPoolFields = {"name", "workers", "kind"};
const std::set<std::string> kTaskFields = {"id", "pool", "seconds", "flops", "after"};
const std::set<std::string> kInputFields = {"task", "bytes"};
const std::set<std::string> kFrameChainFields = {
    "frames",      "elements", "element_seconds", "render_seconds", "element_flops", "render_flops",
    "frame_bytes", "schedule", "element_workers", "task_overhead",  "wake_up"};

// "jobs[3] (id 'x')", or "jobs[3]" when the id is empty: where an element of
// a top-level list is. Every job's location is built, in one allocation.
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

std::string job_where(std::size_t index, const std::string& id) { return element_where("jobs", index, id); }

// The "id" of an object when it is a string, else empty (also when `value`
// is no object: JsonObject then rejects it naming the place alone).
std::string string_id(const nlohmann::json& value) {
  if (!value.is_object()) return "";
  const auto id = value.find("id");
  return id != value.end() && id->is_string() ? id->get<std::string>() : "";
}

// A value beyond the horizon gcsim simulates (work_horizon.hpp) fails naming its field.
double within_horizon(const JsonObject& owner, std::string_view field, double value, HorizonQuantity quantity) {
  if (const auto problem = beyond_horizon(value, quantity)) owner.fail(field, *problem);
  return value;
}

// A time that may be written negative by mistake: rejected with its own
// message rather than the generic "must not be negative".
Time read_submit_time(const JsonObject& job) {
  const nlohmann::json& v = job.raw("submit");
  std::optional<double> value;
  if (v.is_number())
    value = v.get<double>();
  else if (v.is_string())
    value = parse_quantity(v.get<std::string>(), Quantity::kTime);
  if (!value) job.fail("submit", "expected " + quantity_hint(Quantity::kTime) + ", got " + v.dump());
  if (*value < 0) job.fail("submit", "submit time must be >= 0 (the simulation starts at time 0), got " + v.dump());
  return within_horizon(job, "submit", *value, HorizonQuantity::kTime);
}

std::uint32_t read_gpu_count(const JsonObject& job) {
  const std::uint64_t gpus = job.required_uint("gpus", 1);
  if (gpus > std::numeric_limits<std::uint32_t>::max())
    job.fail("gpus", "expected at most " + std::to_string(std::numeric_limits<std::uint32_t>::max()) + " GPUs, got " +
                         std::to_string(gpus));
  return static_cast<std::uint32_t>(gpus);
}

std::uint32_t read_count(const JsonObject& owner, std::string_view field, std::uint32_t fallback) {
  const std::uint64_t value = owner.optional_uint(field, fallback, 1);
  if (value > std::numeric_limits<std::uint32_t>::max()) owner.fail(field, "too large");
  return static_cast<std::uint32_t>(value);
}

TrainingWork read_training(const JsonObject& job) {
  const JsonObject training = job.required_object("training");
  training.reject_unknown_fields(kTrainingFields);
  TrainingWork work;
  // Per iteration: with at most 2^64 iterations, every product stays far from overflow.
  work.flops_per_iteration = within_horizon(training, "flops_per_iteration",
                                            training.required_quantity("flops_per_iteration", Quantity::kFlops, true),
                                            HorizonQuantity::kFlops);
  work.gradient_bytes =
      within_horizon(training, "gradient_bytes", training.required_quantity("gradient_bytes", Quantity::kBytes),
                     HorizonQuantity::kBytes);
  work.iterations = training.required_uint("iterations", 1);
  // Absent: a ring allreduce; given: at least one server.
  work.parameter_servers = read_count(training, "parameter_servers", 0);
  const std::string allreduce = training.optional_string("allreduce", "ring");
  if (allreduce != "ring" && allreduce != "hierarchical")
    training.fail("allreduce", "expected \"ring\" or \"hierarchical\", got \"" + allreduce + "\"");
  work.hierarchical_allreduce = allreduce == "hierarchical";
  if (work.hierarchical_allreduce && work.parameter_servers > 0)
    training.fail("allreduce",
                  "a job with parameter_servers exchanges its gradients through them, not by an allreduce");
  if (training.has("fusion_buffer")) {
    work.fusion_bytes = training.required_quantity("fusion_buffer", Quantity::kBytes, true);
    // Each buffer is its own exchange every iteration: a buffer far smaller
    // than the gradients makes more messages than any run could simulate.
    constexpr std::uint64_t kMostBuffers = 1'000'000;
    if (work.fusion_buffers() > kMostBuffers)
      training.fail("fusion_buffer", "makes " + std::to_string(work.fusion_buffers()) +
                                         " buffers of the gradients per iteration, more than " +
                                         std::to_string(kMostBuffers) + ": give a larger buffer");
  }
  if (training.has("input_pipeline")) {
    const JsonObject pipeline = training.required_object("input_pipeline");
    pipeline.reject_unknown_fields(kInputPipelineFields);
    // Both rates strictly positive: a pipeline that decodes nothing would never feed its GPUs.
    work.input_pipeline.samples_per_gpu = pipeline.required_quantity("samples_per_gpu", Quantity::kPlain, true);
    work.input_pipeline.core_samples_per_s = pipeline.required_quantity("core_samples_per_s", Quantity::kPlain, true);
    // One core's time for one GPU's samples of an iteration: a time like any other.
    within_horizon(pipeline, "core_samples_per_s", work.input_pipeline.core_seconds(1), HorizonQuantity::kTime);
  }
  if (training.has("flops_per_iteration_by_gpu_type")) {
    const JsonObject by_type = training.required_object("flops_per_iteration_by_gpu_type");
    for (const auto& [type, value] : by_type.value().items()) {
      if (type.empty()) by_type.fail(type, "a GPU type name is empty");
      work.set_flops_on(type, within_horizon(by_type, type, by_type.required_quantity(type, Quantity::kFlops, true),
                                             HorizonQuantity::kFlops));
    }
  }
  return work;
}

MeasuredWork read_duration(const JsonObject& job) {
  const JsonObject duration = job.required_object("duration");
  duration.reject_unknown_fields(kDurationFields);
  MeasuredWork work;
  work.seconds = within_horizon(duration, "seconds", duration.required_quantity("seconds", Quantity::kTime, true),
                                HorizonQuantity::kTime);
  work.gpu_type = duration.required_string("gpu_type");
  work.rescale = duration.optional_bool("rescale", true);
  return work;
}

DagWork read_dag(const JsonObject& job) {
  const JsonObject dag = job.required_object("dag");
  dag.reject_unknown_fields(kDagFields);
  DagWork work;
  work.task_overhead = within_horizon(dag, "task_overhead", dag.optional_quantity("task_overhead", Quantity::kTime, 0),
                                      HorizonQuantity::kTime);
  work.wake_up =
      within_horizon(dag, "wake_up", dag.optional_quantity("wake_up", Quantity::kTime, 0), HorizonQuantity::kTime);
  std::map<std::string, std::uint32_t> pool_index;
  const nlohmann::json& pools = dag.required_array("pools");
  for (std::size_t i = 0; i < pools.size(); ++i) {
    const JsonObject pool = element_of(dag, "pools", i, pools[i]);
    pool.reject_unknown_fields(kPoolFields);
    DagPool p;
    p.name = pool.required_string("name");
    p.workers = read_count(pool, "workers", 1);
    const std::string kind = pool.optional_string("kind", "gpu");
    if (kind != "gpu" && kind != "cpu") pool.fail("kind", "expected 'gpu' or 'cpu', got '" + kind + "'");
    p.cpu = kind == "cpu";
    if (!pool_index.emplace(p.name, static_cast<std::uint32_t>(work.pools.size())).second)
      pool.fail("name", "pool '" + p.name + "' is defined twice");
    work.pools.push_back(p);
  }
  const nlohmann::json& tasks = dag.required_array("tasks");
  std::map<std::string, std::size_t> task_index;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const JsonObject task = element_of(dag, "tasks", i, tasks[i]);
    const std::string id = task.required_string("id");
    if (!task_index.emplace(id, i).second) task.fail("id", "task '" + id + "' is defined twice");
  }
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const JsonObject task = element_of(dag, "tasks", i, tasks[i]);
    task.reject_unknown_fields(kTaskFields);
    DagTask t;
    t.id = task.required_string("id");
    const std::string pool = task.required_string("pool");
    const auto p = pool_index.find(pool);
    if (p == pool_index.end()) task.fail("pool", "unknown pool '" + pool + "'");
    t.pool = p->second;
    t.seconds =
        within_horizon(task, "seconds", task.optional_quantity("seconds", Quantity::kTime, 0), HorizonQuantity::kTime);
    t.flops =
        within_horizon(task, "flops", task.optional_quantity("flops", Quantity::kFlops, 0), HorizonQuantity::kFlops);
    if (!task.has("seconds") && !task.has("flops"))
      task.fail("seconds", "missing: a task gives 'seconds', 'flops' or both");
    if (task.has("after")) {
      const nlohmann::json& after = task.required_array("after");
      for (std::size_t k = 0; k < after.size(); ++k) {
        DagInput input;
        std::string name;
        if (after[k].is_string()) {
          name = after[k].get<std::string>();
        } else {
          const JsonObject edge = element_of(task, "after", k, after[k]);
          edge.reject_unknown_fields(kInputFields);
          name = edge.required_string("task");
          input.bytes = within_horizon(edge, "bytes", edge.optional_quantity("bytes", Quantity::kBytes, 0),
                                       HorizonQuantity::kBytes);
        }
        const auto from = task_index.find(name);
        if (from == task_index.end())
          task.fail("after", "unknown task '" + name + "' (entry " + std::to_string(k) + ")");
        input.task = from->second;
        t.after.push_back(input);
      }
    }
    work.tasks.push_back(std::move(t));
  }
  if (auto problem = dag_error(work)) job.fail("dag", *problem);
  return work;
}

DagWork read_frame_chain(const JsonObject& job) {
  const JsonObject frames = job.required_object("frame_chain");
  frames.reject_unknown_fields(kFrameChainFields);
  FrameChain chain;
  chain.frames = read_count(frames, "frames", chain.frames);
  chain.elements = read_count(frames, "elements", chain.elements);
  chain.element_seconds = frames.optional_quantity("element_seconds", Quantity::kTime, chain.element_seconds);
  chain.render_seconds = frames.optional_quantity("render_seconds", Quantity::kTime, chain.element_seconds);
  chain.element_flops = frames.optional_quantity("element_flops", Quantity::kFlops, 0);
  chain.render_flops = frames.optional_quantity("render_flops", Quantity::kFlops, chain.element_flops);
  chain.frame_bytes = frames.optional_quantity("frame_bytes", Quantity::kBytes, 0);
  const std::string schedule = frames.optional_string("schedule", "pipelined");
  const auto parsed = parse_frame_chain_schedule(schedule);
  if (!parsed) frames.fail("schedule", "expected 'serial', 'parallel' or 'pipelined', got '" + schedule + "'");
  chain.schedule = *parsed;
  chain.element_workers = read_count(frames, "element_workers", chain.elements);
  chain.task_overhead = frames.optional_quantity("task_overhead", Quantity::kTime, 0);
  chain.wake_up = frames.optional_quantity("wake_up", Quantity::kTime, 0);
  for (const auto& [field, value] : {std::pair{"element_seconds", chain.element_seconds},
                                     {"render_seconds", chain.render_seconds},
                                     {"task_overhead", chain.task_overhead},
                                     {"wake_up", chain.wake_up}})
    within_horizon(frames, field, value, HorizonQuantity::kTime);
  within_horizon(frames, "element_flops", chain.element_flops, HorizonQuantity::kFlops);
  within_horizon(frames, "render_flops", chain.render_flops, HorizonQuantity::kFlops);
  within_horizon(frames, "frame_bytes", chain.frame_bytes, HorizonQuantity::kBytes);
  return frame_chain_work(chain);
}

// A notebook's activity, listed or drawn from a pattern (notebook_activity.hpp).
NotebookWork read_notebook(const JsonObject& job) {
  const JsonObject notebook = job.required_object("notebook");
  notebook.reject_unknown_fields(kNotebookFields);
  NotebookWork work;
  const bool listed = notebook.has("activity");
  if (listed == notebook.has("length"))
    notebook.fail(listed ? "length" : "activity",
                  "exactly one of 'activity' (the idle gaps and bursts, listed) or 'length' (a session drawn from "
                  "busy_fraction, burst and seed) is given");
  if (listed) {
    const nlohmann::json& phases = notebook.required_array("activity");
    for (std::size_t i = 0; i < phases.size(); ++i) {
      const JsonObject phase = element_of(notebook, "activity", i, phases[i]);
      phase.reject_unknown_fields(kPhaseFields);
      work.activity.push_back(
          {phase.optional_quantity("idle", Quantity::kTime, 0), phase.optional_quantity("busy", Quantity::kTime, 0)});
    }
  } else {
    for (const char* field : {"busy_fraction", "burst"})
      if (!notebook.has(field)) notebook.fail(field, "missing: a drawn session needs length, busy_fraction and burst");
    NotebookPattern pattern;
    pattern.length = notebook.required_quantity("length", Quantity::kTime, true);
    pattern.busy_fraction = notebook.required_quantity("busy_fraction", Quantity::kPlain, true);
    if (pattern.busy_fraction > 1) notebook.fail("busy_fraction", "expected a share of the session in (0, 1]");
    pattern.burst = notebook.required_quantity("burst", Quantity::kTime, true);
    pattern.seed = notebook.optional_uint("seed", 0);
    within_horizon(notebook, "length", pattern.length, HorizonQuantity::kTime);
    // Each phase is a step of the run: a mean burst far below the session makes more than any run could take.
    constexpr double kMostBursts = 1e6;
    if (pattern.length * pattern.busy_fraction / pattern.burst > kMostBursts)
      notebook.fail("burst", "makes about " + std::to_string(pattern.length * pattern.busy_fraction / pattern.burst) +
                                 " bursts, more than 1000000: give a longer burst or a shorter length");
    work.activity = draw_activity(pattern);
  }
  if (!(work.seconds() > 0)) notebook.fail("activity", "the session lasts no time: give some idle or busy seconds");
  within_horizon(notebook, "activity", work.seconds(), HorizonQuantity::kTime);
  return work;
}

// A CPU job's run: "seconds", or "core_seconds" its `cores` do at one
// core-second a second each; exactly one.
CpuWork read_cpu(const JsonObject& job, std::uint32_t cores) {
  const JsonObject cpu = job.required_object("cpu");
  cpu.reject_unknown_fields(kCpuFields);
  if (cpu.has("seconds") == cpu.has("core_seconds"))
    cpu.fail("seconds",
             "exactly one of 'seconds' (its run time) or 'core_seconds' (its work, done by its cpu_cores) "
             "is given");
  if (cores == 0) job.fail("cpu_cores", "a CPU job ('cpu') runs on cores it holds: give cpu_cores of at least 1");
  CpuWork work;
  if (cpu.has("seconds")) {
    work.seconds = cpu.required_quantity("seconds", Quantity::kTime, true);
  } else {
    work.seconds = cpu.required_quantity("core_seconds", Quantity::kPlain, true) / cores;
  }
  within_horizon(cpu, cpu.has("seconds") ? "seconds" : "core_seconds", work.seconds, HorizonQuantity::kTime);
  return work;
}

// A deployment serving from CPUs ("gpus": 0): each replica holds its
// cpu_cores and memory on one node, nothing of a GPU.
void check_cpu_replicas(const JsonObject& job, const JobSpec& spec) {
  if (spec.cpu_cores == 0)
    job.fail("cpu_cores",
             "a deployment serving from CPUs (\"gpus\": 0) runs each replica on cores it holds: give "
             "cpu_cores of at least 1");
  for (const char* field : {"gpu_share", "gpu_memory", "gpu_types"})
    if (job.has(field))
      job.fail(field,
               "a deployment serving from CPUs (\"gpus\": 0) holds no GPU: leave '" + std::string(field) + "' out");
}

// Exactly one of "training", "duration", "dag", "frame_chain", "notebook",
// "serving" (a "rates_csv" path is relative to `base_dir`) or "cpu" (run by
// `cpu_cores`).
JobWork read_work(const JsonObject& job, const std::string& base_dir, std::uint32_t cpu_cores) {
  static constexpr std::string_view kKinds[] = {"training", "duration", "dag", "frame_chain",
                                                "notebook", "serving",  "cpu"};
  std::string_view given[2];  // the first two given, in the order of kKinds
  std::size_t count = 0;
  for (const std::string_view kind : kKinds)
    if (count < 2 && job.has(kind)) given[count++] = kind;
  if (count > 1)
    job.fail(given[1],
             "exactly one of 'training', 'duration', 'dag', 'frame_chain', 'notebook', 'serving' or 'cpu' is given, "
             "this one gives both '" +
                 std::string(given[0]) + "' and '" + std::string(given[1]) + "'");
  if (count == 0)
    job.fail("training",
             "missing: exactly one of 'training' (data-parallel training), 'duration' (run time measured on a GPU "
             "type), 'dag' (tasks run by pools of workers), 'frame_chain' (a render farm's frame chain), "
             "'notebook' (an interactive session), 'serving' (a model deployment) or 'cpu' (a CPU-only job) is "
             "given");
  if (given[0] == "training") return read_training(job);
  if (given[0] == "duration") return read_duration(job);
  if (given[0] == "dag") return read_dag(job);
  if (given[0] == "notebook") return read_notebook(job);
  if (given[0] == "serving") return ServingWork{std::make_shared<const ServingSpec>(read_serving(job, base_dir)), 0};
  if (given[0] == "cpu") return read_cpu(job, cpu_cores);
  return read_frame_chain(job);
}

// A CPU job holds cores and memory on one node, nothing of a GPU: the
// fields about GPUs, checkpoints and studies are refused, "gpus" may only be 0.
void check_cpu_job(const JsonObject& job, const JobSpec& spec) {
  if (job.has("gpus") && spec.gpus != 0)
    job.fail("gpus", "a CPU job ('cpu') holds no GPU: leave 'gpus' out or give 0, got " + std::to_string(spec.gpus));
  for (const char* field : {"gpu_share", "gpu_memory", "gpu_memory_use", "gpu_types", "checkpoint", "study"})
    if (job.has(field))
      job.fail(field, "a CPU job ('cpu') holds no GPU and starts over when its node fails: leave '" +
                          std::string(field) + "' out");
}

// A DAG job holds one GPU per GPU worker and one core per CPU worker: "gpus"
// may be left out, and must agree when given. A DAG whose pools are all CPU
// pools holds no GPU: the fields about GPUs are refused.
void size_dag_job(const JsonObject& job, JobSpec& spec, bool gpus_given) {
  const auto* dag = std::get_if<DagWork>(&spec.work);
  if (!dag) return;
  const std::uint32_t gpu_workers = dag_gpu_workers(*dag);
  if (gpu_workers == 0)
    for (const char* field : {"gpu_share", "gpu_memory", "gpu_memory_use", "gpu_types"})
      if (job.has(field))
        job.fail(field, "a DAG whose pools are all 'cpu' holds no GPU: leave '" + std::string(field) + "' out");
  if (gpus_given && spec.gpus != gpu_workers)
    job.fail("gpus", "a DAG job holds one GPU per GPU worker: its pools have " + std::to_string(gpu_workers) +
                         ", 'gpus' says " + std::to_string(spec.gpus));
  spec.gpus = gpu_workers;
  const std::uint32_t cpu_workers = dag_cpu_workers(*dag);
  if (spec.cpu_cores != 0 && spec.cpu_cores < cpu_workers)
    job.fail("cpu_cores", "a DAG job needs a core per CPU worker: " + std::to_string(cpu_workers) + " workers, " +
                              std::to_string(spec.cpu_cores) + " cores");
  spec.cpu_cores = std::max(spec.cpu_cores, cpu_workers);
  if (spec.checkpoint.keeps_work())
    job.fail("checkpoint", "a DAG job starts over when preempted: checkpoints are not modelled for it");
  if (spec.study) job.fail("study", "a DAG job cannot be a study's trial");
  if (spec.gpu_share < 1) job.fail("gpu_share", "a DAG job's workers use whole GPUs");
}

// The fraction of each GPU a job uses: (0, 1], 1 when not given.
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

// The GPU bounds shared by a study's trials, checked against the trial size.
void check_study_bounds(const JsonObject& owner, std::uint32_t min_gpus, std::uint32_t max_gpus,
                        std::uint32_t trial_gpus) {
  if (max_gpus < min_gpus)
    owner.fail("max_gpus",
               "must be at least min_gpus (" + std::to_string(min_gpus) + "), got " + std::to_string(max_gpus));
  if (max_gpus < trial_gpus)
    owner.fail("max_gpus",
               "must allow one trial of " + std::to_string(trial_gpus) + " GPUs, got " + std::to_string(max_gpus));
}

// The folder of a workload file, for paths written relative to it ("" for the current one).
std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

// What a job entry gives beyond its JobSpec: the ids it waits for
// (JobSpec::after is set once all jobs are read), and a notebook's idle
// timeout (its holds are jobs of their own).
struct JobExtras {
  std::vector<std::string> after;
  Time idle_timeout = 0;
};

JobSpec read_job(const nlohmann::json& value, std::size_t index, const std::string& file_label, JobExtras& extras) {
  // The id is read first so that every later error names the job.
  const JsonObject job(value, {file_label, job_where(index, string_id(value))});
  job.reject_unknown_fields(kJobFields);

  JobSpec spec;
  spec.id = job.required_string("id");
  spec.user = job.optional_string("user", "default");
  spec.queue = job.optional_string("queue", "default");
  spec.submit = read_submit_time(job);
  const bool dag_job = job.has("dag") || job.has("frame_chain");
  const bool cpu_job = job.has("cpu");
  // A deployment may serve from CPUs: "gpus": 0.
  const bool cpu_replicas = job.has("serving") && job.has("gpus") && job.raw("gpus") == 0;
  if (cpu_job)
    spec.gpus = static_cast<std::uint32_t>(std::min<std::uint64_t>(job.optional_uint("gpus", 0), 1u << 31));
  else if (cpu_replicas || (dag_job && job.has("gpus") && job.raw("gpus") == 0))
    spec.gpus = 0;  // a DAG whose pools are all CPU pools may say so
  else
    spec.gpus = dag_job && !job.has("gpus") ? 1 : read_gpu_count(job);
  spec.gpu_memory_bytes = job.optional_quantity("gpu_memory", Quantity::kBytes, 0);
  if (std::vector<MemoryUse> uses = read_memory_use(job); !uses.empty())
    spec.change_relations().gpu_memory_use = std::move(uses);
  spec.gpu_share = read_gpu_share(job);
  const std::uint64_t cpu_cores = job.optional_uint("cpu_cores", 0);
  if (cpu_cores > std::numeric_limits<std::uint32_t>::max())
    job.fail("cpu_cores", "expected at most " + std::to_string(std::numeric_limits<std::uint32_t>::max()) +
                              " cores, got " + std::to_string(cpu_cores));
  spec.cpu_cores = static_cast<std::uint32_t>(cpu_cores);
  spec.memory_bytes = job.optional_quantity("memory", Quantity::kBytes, 0);
  spec.single_node = job.optional_bool("single_node", false);
  spec.gpu_types = read_gpu_types(job);
  spec.priority = job.optional_int("priority", 0);
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

  extras.after = read_after(job);
  const Time after_delay = within_horizon(job, "after_delay", job.optional_quantity("after_delay", Quantity::kTime, 0),
                                          HorizonQuantity::kTime);
  if (after_delay > 0) spec.change_relations().after_delay = after_delay;
  if (after_delay > 0 && extras.after.empty())
    job.fail("after_delay", "counts from the end of the jobs the job waits for, and \"after\" names none");

  spec.work = read_work(job, folder_of(file_label), spec.cpu_cores);
  if (cpu_job) check_cpu_job(job, spec);
  if (cpu_replicas) check_cpu_replicas(job, spec);
  size_dag_job(job, spec, job.has("gpus"));
  if (std::holds_alternative<ServingWork>(spec.work)) {
    if (spec.checkpoint.keeps_work())
      job.fail("checkpoint", "a serving replica keeps no checkpoints: it holds no progress to lose");
    if (!spec.gpu_memory_use().empty())
      job.fail("gpu_memory_use", "a serving replica uses its gpu_memory throughout; give no profile");
  }
  if (std::holds_alternative<NotebookWork>(spec.work)) {
    const JsonObject notebook = job.required_object("notebook");
    extras.idle_timeout =
        within_horizon(notebook, "idle_timeout", notebook.optional_quantity("idle_timeout", Quantity::kTime, 0),
                       HorizonQuantity::kTime);
    if (notebook.has("idle_timeout") && extras.idle_timeout <= 0)
      notebook.fail("idle_timeout", "expected a time > 0 (leave it out to hold the GPUs for the whole session)");
    if (spec.checkpoint.keeps_work())
      job.fail("checkpoint", "a notebook keeps no checkpoints: preempted, its session starts over");
  }
  return spec;
}

std::string study_where(std::size_t index, const std::string& id) { return element_where("studies", index, id); }

std::vector<JobSpec> read_study(const nlohmann::json& value, std::size_t index, const std::string& file_label) {
  const JsonObject study(value, {file_label, study_where(index, string_id(value))});
  study.reject_unknown_fields(kStudyFields);

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
  spec.trial_work = read_work(study, "", 1);  // a CPU job is refused just below
  if (std::holds_alternative<ServingWork>(spec.trial_work))
    study.fail("serving", "a study's trials train or run for a duration; a deployment is a job of its own");
  if (is_cpu_job(spec.trial_work))
    study.fail("cpu", "a study's trials train or run for a duration on GPUs; a CPU job is a job of its own");
  spec.seed = study.optional_uint("seed", 0);
  if (study.has("successive_halving")) {
    const JsonObject halving = study.required_object("successive_halving");
    halving.reject_unknown_fields(kHalvingFields);
    spec.halving.rungs = read_count(halving, "rungs", 1);
    spec.halving.eta = halving.optional_quantity("eta", Quantity::kPlain, 3);
    if (spec.halving.eta < 2) halving.fail("eta", "the reduction factor must be at least 2");
  }
  return expand_study(spec);
}

// Gathers the jobs read, in the order of the file, and rejects an id used
// twice naming where it was first used.
class JobCollector {
 public:
  explicit JobCollector(std::string file_label) : file_label_(std::move(file_label)) {}

  void reserve(std::size_t jobs) { jobs_.reserve(jobs); }

  void add_job(const nlohmann::json& value, std::size_t index) {
    JobExtras extras;
    JobSpec job = read_job(value, index, file_label_, extras);
    if (!extras.after.empty()) named_after_.push_back({jobs_.size(), std::move(extras.after)});
    if (extras.idle_timeout > 0) return add_notebook_holds(std::move(job), index, extras.idle_timeout);
    if (std::holds_alternative<ServingWork>(job.work)) return add_serving_replicas(std::move(job), index);
    add(std::move(job), {index, kNotInStudy});
  }

  // A serving deployment: one job per replica it may run at once, "id",
  // "id#2"... The first carries its submit time and dependencies; the serving
  // controller submits the others as it scales.
  void add_serving_replicas(JobSpec job, std::size_t index) {
    const ServingWork work = std::get<ServingWork>(job.work);
    JobSpec replica = job;
    replica.relations.reset();
    add(std::move(job), {index, kNotInStudy});
    for (std::uint32_t k = 1; k < work.deployment->slots(); ++k) {
      replica.id = work.deployment->id + "#" + std::to_string(k + 1);
      replica.work = ServingWork{work.deployment, k};
      add(replica, {index, kNotInStudy});
    }
  }

  // A notebook cut by its idle timeout: each hold a job, "id#2", "id#3"...
  // after the first, each submitted after the one before ends.
  void add_notebook_holds(JobSpec job, std::size_t index, Time idle_timeout) {
    const std::vector<NotebookHold> holds =
        split_at_idle_timeout(std::get<NotebookWork>(job.work).activity, idle_timeout);
    for (std::size_t k = 0; k < holds.size(); ++k) {
      JobSpec hold = job;
      hold.work = NotebookWork{holds[k].activity, static_cast<std::uint32_t>(k + 1)};
      if (k > 0) {
        hold.id = job.id + "#" + std::to_string(k + 1);
        JobRelations& relations = hold.change_relations();
        relations.after = {static_cast<JobIndex>(jobs_.size() - 1)};
        relations.after_delay = holds[k].after_previous;
      }
      add(std::move(hold), {index, kNotInStudy});
    }
  }

  // A study's trials follow the jobs, in study order.
  void add_study(const nlohmann::json& value, std::size_t index) {
    const std::size_t first_trial = jobs_.size();
    for (JobSpec& trial : read_study(value, index, file_label_)) add(std::move(trial), {index, first_trial});
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
  explicit StreamingWorkloadReader(const std::string& file_label) : file_label_(file_label), jobs_(file_label) {}

  std::vector<JobSpec> finish() {
    if (!top_is_object_) return parse_native_workload(document_, file_label_);  // its error: not an object
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
    jobs_ = JobCollector(file_label_);
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

std::vector<JobSpec> read_native_workload(const std::string& path) {
  std::ifstream in = open_input_file(path);
  return read_native_workload(in, path);
}

std::vector<JobSpec> read_native_workload(std::istream& text, const std::string& file_label) {
  // A plain file is read fast; any other, or a malformed one, is read again
  // from its start by nlohmann, which locates a syntax error by line and
  // column. A stream that cannot tell where it starts goes to nlohmann alone.
  const std::istream::pos_type start = text.tellg();
  if (start != std::istream::pos_type(-1)) {
    {
      StreamingWorkloadReader reader(file_label);
      if (read_plain_json_events(text, reader)) return reader.finish();
    }
    text.clear();
    text.seekg(start);
  }
  StreamingWorkloadReader reader(file_label);
  try {
    nlohmann::json::sax_parse(text, &reader);
  } catch (const JsonErrorAt& e) {
    throw json_syntax_error(e, text, file_label);
  }
  return reader.finish();
}

std::vector<JobSpec> parse_native_workload(const nlohmann::json& doc, const std::string& file_label) {
  const JsonObject top(doc, {file_label, ""});
  const std::size_t listed = top.has("jobs") && top.raw("jobs").is_array() ? top.raw("jobs").size() : 0;
  const TopLevelLists lists = read_top_level(top, listed);
  JobCollector jobs(file_label);
  jobs.reserve(lists.jobs.size());
  for (std::size_t i = 0; i < lists.jobs.size(); ++i) jobs.add_job(lists.jobs[i], i);
  for (std::size_t i = 0; i < lists.studies.size(); ++i) jobs.add_study(lists.studies[i], i);
  return jobs.take();
}

namespace {
nlohmann::json dag_json(const DagWork& work) {
  nlohmann::json pools = nlohmann::json::array(), tasks = nlohmann::json::array();
  for (const DagPool& pool : work.pools)
    pools.push_back({{"name", pool.name}, {"workers", pool.workers}, {"kind", pool.cpu ? "cpu" : "gpu"}});
  for (const DagTask& task : work.tasks) {
    nlohmann::json entry = {{"id", task.id}, {"pool", work.pools[task.pool].name}, {"seconds", task.seconds}};
    if (task.flops != 0) entry["flops"] = task.flops;
    if (!task.after.empty()) {
      entry["after"] = nlohmann::json::array();
      for (const DagInput& input : task.after) {
        if (input.bytes == 0)
          entry["after"].push_back(work.tasks[input.task].id);
        else
          entry["after"].push_back({{"task", work.tasks[input.task].id}, {"bytes", input.bytes}});
      }
    }
    tasks.push_back(std::move(entry));
  }
  nlohmann::json dag = {{"pools", pools}, {"tasks", tasks}};
  if (work.task_overhead != 0) dag["task_overhead"] = work.task_overhead;
  if (work.wake_up != 0) dag["wake_up"] = work.wake_up;
  return dag;
}

nlohmann::json job_json(const JobSpec& job, const std::vector<JobSpec>& jobs) {
  nlohmann::json entry = {
      {"id", job.id}, {"user", job.user}, {"queue", job.queue}, {"submit", job.submit}, {"gpus", job.gpus}};
  if (job.gpu_memory_bytes != 0) entry["gpu_memory"] = job.gpu_memory_bytes;
  if (!job.gpu_memory_use().empty()) {
    entry["gpu_memory_use"] = nlohmann::json::array();
    for (const MemoryUse& use : job.gpu_memory_use())
      entry["gpu_memory_use"].push_back({{"at", use.at}, {"bytes", use.bytes}});
  }
  if (job.gpu_share != 1) entry["gpu_share"] = job.gpu_share;
  if (job.cpu_cores != 0) entry["cpu_cores"] = job.cpu_cores;
  if (job.memory_bytes != 0) entry["memory"] = job.memory_bytes;
  if (job.single_node) entry["single_node"] = true;
  if (!job.gpu_types.empty()) entry["gpu_types"] = job.gpu_types;
  if (job.priority != 0) entry["priority"] = job.priority;
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
  if (const auto* training = std::get_if<TrainingWork>(&job.work)) {
    entry["training"] = {{"flops_per_iteration", training->flops_per_iteration},
                         {"gradient_bytes", training->gradient_bytes},
                         {"iterations", training->iterations}};
    if (training->parameter_servers > 0) entry["training"]["parameter_servers"] = training->parameter_servers;
    if (training->fusion_bytes > 0) entry["training"]["fusion_buffer"] = training->fusion_bytes;
    if (training->hierarchical_allreduce) entry["training"]["allreduce"] = "hierarchical";
    if (training->input_pipeline.enabled())
      entry["training"]["input_pipeline"] = {{"samples_per_gpu", training->input_pipeline.samples_per_gpu},
                                             {"core_samples_per_s", training->input_pipeline.core_samples_per_s}};
    for (const auto& [type, flops] : training->flops_per_iteration_by_gpu_type)
      entry["training"]["flops_per_iteration_by_gpu_type"][type] = flops;
  } else if (const auto* measured = std::get_if<MeasuredWork>(&job.work)) {
    entry["duration"] = {{"seconds", measured->seconds}, {"gpu_type", measured->gpu_type}};
    if (!measured->rescale) entry["duration"]["rescale"] = false;
  } else if (const auto* serving = std::get_if<ServingWork>(&job.work)) {
    entry["serving"] = serving_json(*serving->deployment);
  } else if (const auto* cpu = std::get_if<CpuWork>(&job.work)) {
    entry["cpu"] = {{"seconds", cpu->seconds}};
  } else if (const auto* notebook = std::get_if<NotebookWork>(&job.work)) {
    entry["notebook"]["activity"] = nlohmann::json::array();
    for (const NotebookPhase& phase : notebook->activity)
      entry["notebook"]["activity"].push_back({{"idle", phase.idle}, {"busy", phase.busy}});
  } else {
    entry["dag"] = dag_json(std::get<DagWork>(job.work));
  }
  return entry;
}
// A deployment's replicas after its first are read from its entry, not written.
bool written(const JobSpec& job) {
  const auto* serving = std::get_if<ServingWork>(&job.work);
  return !serving || serving->slot == 0;
}
}  // namespace

nlohmann::json native_workload_json(const std::vector<JobSpec>& jobs) {
  nlohmann::json list = nlohmann::json::array();
  for (const JobSpec& job : jobs)
    if (written(job)) list.push_back(job_json(job, jobs));
  return {{"jobs", std::move(list)}};
}

void write_native_workload(std::ostream& out, const std::vector<JobSpec>& jobs) {
  if (jobs.empty()) {
    out << native_workload_json(jobs).dump(1) << "\n";
    return;
  }
  // dump(1) of the whole document puts each job two levels deep: its lines
  // are those of the job dumped alone, indented by two spaces (a dumped
  // string holds no raw newline).
  out << "{\n \"jobs\": [\n";
  bool first = true;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (!written(jobs[i])) continue;
    if (!first) out << ",\n";
    first = false;
    const std::string entry = job_json(jobs[i], jobs).dump(1);
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
