#include "workloads/kinds/dag/dag_kind.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "sim/core/dag_work.hpp"
#include "workloads/kinds/dag/frame_chain.hpp"
#include "workloads/kinds/job_fields.hpp"

namespace gcsim {
namespace {

const std::set<std::string> kDagFields = {"pools", "tasks", "task_overhead", "wake_up"};
const std::set<std::string> kPoolFields = {"name", "workers", "kind"};
const std::set<std::string> kTaskFields = {"id", "pool", "seconds", "flops", "after"};
const std::set<std::string> kInputFields = {"task", "bytes"};
const std::set<std::string> kFrameChainFields = {
    "frames",      "elements", "element_seconds", "render_seconds", "element_flops", "render_flops",
    "frame_bytes", "schedule", "element_workers", "task_overhead",  "wake_up"};

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

}  // namespace

std::uint32_t DagKind::read_gpus(const JsonObject& entry) const {
  if (!entry.has("gpus")) return 1;  // check() sets it from the pools
  return entry.raw("gpus") == 0 ? 0 : read_gpu_count(entry);
}

JobWork DagKind::read(const JsonObject& entry, std::string_view field, const JobSpec&, const std::string&) const {
  return field == "dag" ? read_dag(entry) : read_frame_chain(entry);
}

void DagKind::check(const JsonObject& job, JobSpec& spec) const {
  const bool gpus_given = job.has("gpus");
  const auto* dag = &std::get<DagWork>(spec.work);
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

void DagKind::write(const JobSpec& job, nlohmann::json& entry) const {
  entry["dag"] = dag_json(std::get<DagWork>(job.work));
}

std::shared_ptr<const JobKind> make_dag_kind() { return std::make_shared<DagKind>(); }

}  // namespace gcsim
