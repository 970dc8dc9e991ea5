#include "python/policy_bindings.hpp"

#include <pybind11/stl.h>

#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "policies/kit/preemption_room.hpp"
#include "policies/kit/waiting_changes.hpp"
#include "policies/register_builtin.hpp"
#include "python/decision_channel.hpp"
#include "sim/core/job_state.hpp"
#include "sim/core/policy_registry.hpp"

namespace py = pybind11;

namespace gcsim::python {
namespace {

// A job given to a binding: a Job of the call, or its index.
JobIndex job_of(py::handle job) {
  if (PyLong_Check(job.ptr())) {
    const unsigned long long index = PyLong_AsUnsignedLongLong(job.ptr());
    if (PyErr_Occurred()) throw py::error_already_set();
    if (index > kNoJob) throw py::value_error("no such job index: " + std::to_string(index));
    return static_cast<JobIndex>(index);
  }
  if (py::isinstance<JobRef>(job)) return job.cast<const JobRef&>().index;
  throw py::type_error("a job is a gcsim Job or a job index (int), got " +
                       std::string(py::str(py::type::handle_of(job).attr("__name__"))));
}

// A job index the views know (else IndexError).
JobIndex known_job(const PolicyCall& call, py::handle job) {
  const JobIndex index = job_of(job);
  if (index >= call.jobs->job_count())
    throw py::index_error("no such job index: " + std::to_string(index) + " (the workload has " +
                          std::to_string(call.jobs->job_count()) + " jobs)");
  return index;
}

GpuId known_gpu(const PolicyCall& call, std::int64_t gpu) {
  if (gpu < 0 || static_cast<std::size_t>(gpu) >= call.real->layout().gpu_count())
    throw py::index_error("no such GPU: " + std::to_string(gpu) + " (the cluster has " +
                          std::to_string(call.real->layout().gpu_count()) + " GPUs)");
  return static_cast<GpuId>(gpu);
}

NodeId known_node(const PolicyCall& call, std::int64_t node) {
  if (node < 0 || static_cast<std::size_t>(node) >= call.real->layout().node_count())
    throw py::index_error("no such node: " + std::to_string(node) + " (the cluster has " +
                          std::to_string(call.real->layout().node_count()) + " nodes)");
  return static_cast<NodeId>(node);
}

const JobSpec& spec_of(const JobRef& job) { return job.at.get().jobs->spec(job.index); }
const JobRuntime& runtime_of(const JobRef& job) { return job.at.get().jobs->runtime(job.index); }

py::object gpu_list(const std::optional<std::vector<GpuId>>& gpus) {
  if (!gpus) return py::none();
  py::list list(gpus->size());
  for (std::size_t i = 0; i < gpus->size(); ++i) list[i] = py::int_((*gpus)[i]);
  return std::move(list);
}

const std::vector<JobIndex>& jobs_of(const JobList& list) {
  const PolicyCall& call = list.at.get();
  return list.running ? call.jobs->running() : call.jobs->waiting();
}

// Whether an allocation can be shown on the cluster: a job the views know
// and GPUs free enough for it. Anything else is recorded as it is, for the
// engine to reject with the plan.
bool shows_on_cluster(const PolicyCall& call, JobIndex job, const std::vector<GpuId>& gpus) {
  if (job >= call.jobs->job_count()) return false;
  const JobSpec& spec = call.jobs->spec(job);
  for (GpuId g : gpus) {
    if (g >= call.real->layout().gpu_count()) return false;
    const bool fits = spec.gpu_share >= 1 ? call.cluster->is_free(g)
                                          : call.cluster->free_share(g) + kGpuShareTolerance >= spec.gpu_share;
    if (!fits) return false;
  }
  return true;
}

// A job's GPUs given back in the plan (a preemption, a release): shown free.
void give_back(PolicyCall& call, JobIndex job, JobState must_be) {
  if (job >= call.jobs->job_count() || call.gave_back[job]) return;
  const JobRuntime& runtime = call.jobs->runtime(job);
  if (runtime.state != must_be || runtime.gpus.empty()) return;
  const JobSpec& spec = call.jobs->spec(job);
  if (spec.gpu_share >= 1)
    call.cluster->free(runtime.gpus, spec);
  else
    call.cluster->release(runtime.gpus, spec);
  call.gave_back[job] = 1;
}

// Placements by name and options, made once.
class Placements {
 public:
  const PlacementPolicy& get(const std::string& name, const std::map<std::string, std::string>& options) {
    std::string key = name;
    for (const auto& [k, v] : options) key += "\n" + k + "=" + v;
    auto& made = made_[key];
    if (!made) {
      PolicyOptions given;
      for (const auto& [k, v] : options) given[k] = v;
      try {
        made = registry().make_placement(name, given);
      } catch (const UnknownPolicy& e) {
        throw py::value_error(e.what());
      } catch (const std::invalid_argument& e) {
        throw py::value_error(std::string("placement '") + name + "': " + e.what());
      }
      if (const std::vector<std::string> unused = given.never_looked_up(); !unused.empty())
        throw py::value_error("placement '" + name + "' takes no option '" + unused.front() + "'");
    }
    return *made;
  }
  static const PolicyRegistry& registry() {
    static const PolicyRegistry registry = [] {
      PolicyRegistry r;
      register_builtin(r);
      return r;
    }();
    return registry;
  }

 private:
  std::map<std::string, std::unique_ptr<PlacementPolicy>> made_;
};

Placements& placements() {
  static Placements* made = new Placements();  // never destroyed: the child ends without teardown
  return *made;
}

std::map<std::string, std::string> option_texts(const py::dict& options) {
  std::map<std::string, std::string> texts;
  for (const auto& [key, value] : options) {
    std::string text;
    if (PyBool_Check(value.ptr()))
      text = value.cast<bool>() ? "true" : "false";
    else
      text = py::str(value);
    texts[py::str(key)] = text;
  }
  return texts;
}

const std::vector<bool> kNoneTaken;

void bind_cluster(py::module_& m) {
  py::class_<ClusterRef>(m, "Cluster",
                         "The cluster as the decisions recorded so far in this call leave it (read-only; valid "
                         "during the schedule() call only). GPUs and nodes are indices.")
      .def_property_readonly(
          "now", [](const ClusterRef& c) { return c.at.get().now; }, "The simulated time, seconds.")
      .def_property_readonly("gpu_count", [](const ClusterRef& c) { return c.at.get().real->layout().gpu_count(); })
      .def_property_readonly("node_count", [](const ClusterRef& c) { return c.at.get().real->layout().node_count(); })
      .def_property_readonly(
          "free_gpu_count", [](const ClusterRef& c) { return c.at.get().cluster->free_gpu_count(); },
          "GPUs no job holds any part of (after this call's decisions so far).")
      .def_property_readonly(
          "partly_free_gpu_count", [](const ClusterRef& c) { return c.at.get().cluster->partly_free_gpu_count(); },
          "GPUs held by jobs sharing them with a share still free.")
      .def(
          "free_gpus_on_node",
          [](const ClusterRef& c, std::int64_t node) {
            const PolicyCall& call = c.at.get();
            return call.cluster->free_gpus_on_node(known_node(call, node));
          },
          py::arg("node"))
      .def(
          "free_gpus_per_node",
          [](const ClusterRef& c) {
            const std::vector<std::size_t>& free = c.at.get().cluster->free_gpus_per_node();
            return std::vector<std::size_t>(free.begin(), free.end());
          },
          "Free GPUs of every node, a list indexed by node.")
      .def(
          "is_free",
          [](const ClusterRef& c, std::int64_t gpu) {
            const PolicyCall& call = c.at.get();
            return call.cluster->is_free(known_gpu(call, gpu));
          },
          py::arg("gpu"))
      .def(
          "owner",
          [](const ClusterRef& c, std::int64_t gpu) -> py::object {
            const PolicyCall& call = c.at.get();
            const JobIndex owner = call.cluster->owner(known_gpu(call, gpu));
            if (owner == kNoJob) return py::none();
            return py::int_(owner);
          },
          py::arg("gpu"), "The index of the job holding the GPU (the first on a shared one), or None.")
      .def(
          "free_share",
          [](const ClusterRef& c, std::int64_t gpu) {
            const PolicyCall& call = c.at.get();
            return call.cluster->free_share(known_gpu(call, gpu));
          },
          py::arg("gpu"))
      .def(
          "free_memory",
          [](const ClusterRef& c, std::int64_t gpu) {
            const PolicyCall& call = c.at.get();
            return call.cluster->free_memory(known_gpu(call, gpu));
          },
          py::arg("gpu"), "The GPU's memory no job claims, bytes.")
      .def(
          "node_of",
          [](const ClusterRef& c, std::int64_t gpu) {
            const PolicyCall& call = c.at.get();
            return call.real->layout().node_of(known_gpu(call, gpu));
          },
          py::arg("gpu"))
      .def(
          "gpus_of_node",
          [](const ClusterRef& c, std::int64_t node) {
            const PolicyCall& call = c.at.get();
            return call.real->layout().node(known_node(call, node)).gpus;
          },
          py::arg("node"))
      .def(
          "free_gpus_of_node",
          [](const ClusterRef& c, std::int64_t node) {
            const PolicyCall& call = c.at.get();
            std::vector<GpuId> free;
            call.cluster->visit_free_gpus_of_node(known_node(call, node), 0, [&](GpuId g) {
              free.push_back(g);
              return true;
            });
            return free;
          },
          py::arg("node"), "The node's free GPUs, ascending.")
      .def(
          "node_name",
          [](const ClusterRef& c, std::int64_t node) {
            const PolicyCall& call = c.at.get();
            return call.real->layout().node(known_node(call, node)).name;
          },
          py::arg("node"))
      .def(
          "gpu_type",
          [](const ClusterRef& c, std::int64_t gpu) {
            const PolicyCall& call = c.at.get();
            return call.real->layout().gpu_type_of(known_gpu(call, gpu)).name;
          },
          py::arg("gpu"), "The GPU's type name (\"V100\").")
      .def(
          "place",
          [](const ClusterRef& c, py::handle job) {
            const PolicyCall& call = c.at.get();
            return gpu_list(call.placement->place(call.jobs->spec(known_job(call, job)), *call.cluster, kNoneTaken));
          },
          py::arg("job"),
          "GPUs for the job under the run's placement (gcsim.run's placement=, pack by default), in ring "
          "order, or None when it does not fit now.");
}

void bind_jobs(py::module_& m) {
  py::class_<JobRef>(m, "Job", "A job as the queue shows it during one schedule() call (read-only).")
      .def_property_readonly(
          "index", [](const JobRef& j) { return j.index; },
          "Its index in the workload: what plans and placements take.")
      .def("__index__", [](const JobRef& j) { return j.index; })
      .def_property_readonly("id", [](const JobRef& j) { return spec_of(j).id; })
      .def_property_readonly("user", [](const JobRef& j) { return spec_of(j).user; })
      .def_property_readonly("queue", [](const JobRef& j) { return spec_of(j).queue; })
      .def_property_readonly(
          "gpus", [](const JobRef& j) { return spec_of(j).gpus; }, "GPUs it asks for.")
      .def_property_readonly("gpu_share", [](const JobRef& j) { return spec_of(j).gpu_share; })
      .def_property_readonly(
          "gpu_memory", [](const JobRef& j) { return spec_of(j).gpu_memory_bytes; },
          "GPU memory it needs per GPU, bytes (0: any GPU).")
      .def_property_readonly("cpu_cores", [](const JobRef& j) { return spec_of(j).cpu_cores; })
      .def_property_readonly(
          "memory", [](const JobRef& j) { return spec_of(j).memory_bytes; }, "Host memory, bytes.")
      .def_property_readonly("priority", [](const JobRef& j) { return spec_of(j).priority; })
      .def_property_readonly(
          "qos", [](const JobRef& j) { return std::string(qos_name(spec_of(j).qos)); }, "\"guaranteed\" or \"spot\".")
      .def_property_readonly(
          "submit", [](const JobRef& j) { return spec_of(j).submit; }, "Its submit time in the workload.")
      .def_property_readonly(
          "runtime_estimate", [](const JobRef& j) { return spec_of(j).runtime_estimate; },
          "The user's estimate of its run time, seconds; 0 when none was given.")
      .def_property_readonly("restore_cost", [](const JobRef& j) { return spec_of(j).checkpoint.restore_cost; })
      .def_property_readonly(
          "submitted", [](const JobRef& j) { return runtime_of(j).submitted; },
          "When it joined the queue (its submit time, or when its dependencies ended).")
      .def_property_readonly("state", [](const JobRef& j) { return std::string(to_string(runtime_of(j).state)); })
      .def_property_readonly(
          "start", [](const JobRef& j) { return runtime_of(j).start; }, "Its last start (inf: never started).")
      .def_property_readonly(
          "end", [](const JobRef& j) { return runtime_of(j).end; }, "When it ended (inf: not yet).")
      .def_property_readonly(
          "held_gpus", [](const JobRef& j) { return runtime_of(j).gpus; }, "The GPUs it holds, in ring order.")
      .def_property_readonly("preemptions", [](const JobRef& j) { return runtime_of(j).preemptions; })
      .def_property_readonly(
          "attained_gpu_seconds", [](const JobRef& j) { return runtime_of(j).attained_gpu_seconds; },
          "GPU-seconds of service in runs that ended.")
      .def_property_readonly(
          "saved_fraction", [](const JobRef& j) { return runtime_of(j).saved_fraction; },
          "Share of its work its last checkpoint kept.")
      .def_property_readonly(
          "oracle_duration", [](const JobRef& j) { return j.at.get().jobs->oracle_duration(j.index); },
          "How long it would run alone on an empty cluster (inf: unknown).")
      .def("__repr__",
           [](const JobRef& j) { return "<gcsim.Job " + std::to_string(j.index) + " '" + spec_of(j).id + "'>"; });

  py::class_<JobListIterator>(m, "JobListIterator")
      .def("__iter__", [](JobListIterator& it) -> JobListIterator& { return it; })
      .def("__next__", [](JobListIterator& it) {
        const std::vector<JobIndex>& jobs = jobs_of(it.list);
        if (it.next >= jobs.size()) throw py::stop_iteration();
        return JobRef{it.list.at, jobs[it.next++]};
      });

  py::class_<JobList>(m, "JobList", "Waiting or running jobs, read on demand (a sequence of Job).")
      .def("__len__", [](const JobList& list) { return jobs_of(list).size(); })
      .def("__bool__", [](const JobList& list) { return !jobs_of(list).empty(); })
      .def("__getitem__",
           [](const JobList& list, std::int64_t i) {
             const std::vector<JobIndex>& jobs = jobs_of(list);
             const std::int64_t size = static_cast<std::int64_t>(jobs.size());
             if (i < 0) i += size;
             if (i < 0 || i >= size) throw py::index_error("job list index out of range");
             return JobRef{list.at, jobs[static_cast<std::size_t>(i)]};
           })
      .def("__iter__",
           [](const JobList& list) {
             return JobListIterator{list, 0};
           })
      .def(
          "indices", [](const JobList& list) { return jobs_of(list); },
          "Every job's index, as a list (a copy: costs one int per job).");

  py::class_<QueueRef>(m, "Queue",
                       "The jobs: waiting (in submission order) and running (in the order they started), valid "
                       "during the schedule() call only.")
      .def_property_readonly("now", [](const QueueRef& q) { return q.at.get().now; })
      .def_property_readonly("waiting",
                             [](const QueueRef& q) {
                               return JobList{q.at, false};
                             })
      .def_property_readonly("running",
                             [](const QueueRef& q) {
                               return JobList{q.at, true};
                             })
      .def_property_readonly("job_count", [](const QueueRef& q) { return q.at.get().jobs->job_count(); })
      .def(
          "job",
          [](const QueueRef& q, py::handle job) {
            return JobRef{q.at, known_job(q.at.get(), job)};
          },
          py::arg("index"), "Any job of the workload by its index.")
      .def_property_readonly(
          "run_log_length", [](const QueueRef& q) { return q.at.get().jobs->run_log().size(); },
          "How many runs began or ended so far (see run_log).")
      .def(
          "run_log",
          [](const QueueRef& q, std::size_t since) {
            const std::vector<RunEvent>& log = q.at.get().jobs->run_log();
            py::list events;
            for (std::size_t i = since; i < log.size(); ++i) events.append(py::make_tuple(log[i].job, log[i].started));
            return events;
          },
          py::arg("since") = 0,
          "The runs that began or ended from entry `since` on, as (job index, started) tuples, in the order "
          "they happened; entries are only ever appended.");
}

void bind_plan(py::module_& m) {
  py::class_<PlanRef>(m, "Plan",
                      "The decisions of this call, applied by the engine at once after it returns (or rejected "
                      "whole). Each decision is shown on the cluster view at once.")
      .def(
          "allocate",
          [](const PlanRef& p, py::handle job, std::vector<GpuId> gpus, double power_limit_watts) {
            PolicyCall& call = p.at.get();
            const JobIndex index = job_of(job);
            if (shows_on_cluster(call, index, gpus)) call.cluster->take(gpus, call.jobs->spec(index));
            call.plan->allocate(index, std::move(gpus), power_limit_watts);
          },
          py::arg("job"), py::arg("gpus"), py::arg("power_limit_watts") = 0.0,
          "Gives the waiting job these GPUs (in ring order); it starts once it holds all it asked for. A "
          "power_limit_watts > 0 runs that start under a power limit per GPU, as the job's own "
          "power_limit_watts would (the lower holds); it lasts for that run.")
      .def(
          "preempt",
          [](const PlanRef& p, py::handle job) {
            PolicyCall& call = p.at.get();
            const JobIndex index = job_of(job);
            give_back(call, index, JobState::kRunning);
            call.plan->preempt(index);
          },
          py::arg("job"), "Stops the running job; it waits again.")
      .def(
          "release",
          [](const PlanRef& p, py::handle job) {
            PolicyCall& call = p.at.get();
            const JobIndex index = job_of(job);
            give_back(call, index, JobState::kWaiting);
            call.plan->release(index);
          },
          py::arg("job"), "The waiting job gives back the GPUs it holds.")
      .def(
          "wake_at", [](const PlanRef& p, double t) { p.at.get().plan->wake_at(t); }, py::arg("time"),
          "Be called again at this time even if nothing happens (the earliest asked wins).")
      .def(
          "discard",
          [](const PlanRef& p) {
            PolicyCall& call = p.at.get();
            for (const Decision& d : call.plan->decisions())
              if (d.job < call.gave_back.size()) call.gave_back[d.job] = 0;
            call.plan->discard();
            call.cluster.emplace(*call.real);
          },
          "Drops every decision recorded so far.")
      .def("__len__", [](const PlanRef& p) { return p.at.get().plan->decisions().size(); });
}

void bind_placements(py::module_& m) {
  m.def(
      "place",
      [](const std::string& name, py::handle job, const ClusterRef& cluster, const py::dict& options) {
        const PolicyCall& call = cluster.at.get();
        const PlacementPolicy& placement = placements().get(name, option_texts(options));
        return gpu_list(placement.place(call.jobs->spec(known_job(call, job)), *call.cluster, kNoneTaken));
      },
      py::arg("name"), py::arg("job"), py::arg("cluster"), py::arg("options") = py::dict(),
      "GPUs for the job on the cluster view under the named built-in placement, or None.");
  m.def(
      "make_room",
      [](py::handle job, py::handle victims, const ClusterRef& cluster, const std::string& placement_name,
         std::optional<std::size_t> free_gpus) {
        const PolicyCall& call = cluster.at.get();
        const JobIndex index = known_job(call, job);
        const PlacementPolicy& placement =
            placement_name.empty() ? *call.placement : placements().get(placement_name, {});
        py::object walk = py::reinterpret_steal<py::object>(PyObject_GetIter(victims.ptr()));
        if (!walk) throw py::error_already_set();
        const NextCandidate next = [&]() -> std::optional<JobIndex> {
          PyObject* item = PyIter_Next(walk.ptr());
          if (!item) {
            if (PyErr_Occurred()) throw py::error_already_set();
            return std::nullopt;
          }
          const py::object held = py::reinterpret_steal<py::object>(item);
          const JobIndex victim = known_job(call, held);
          if (call.jobs->runtime(victim).state != JobState::kRunning)
            throw py::value_error("make_room: victim " + std::to_string(victim) + " is not running");
          return victim;
        };
        // On a scratch view: the plan's view changes with the plan's decisions only.
        TentativeCluster scratch(*call.cluster);
        RoomForJob room = make_room(call.jobs->spec(index), next, *call.jobs, scratch, placement, kNoneTaken,
                                    free_gpus.value_or(call.cluster->free_gpu_count()));
        return py::make_tuple(gpu_list(room.gpus), room.victims);
      },
      py::arg("job"), py::arg("victims"), py::arg("cluster"), py::arg("placement") = "",
      py::arg("free_gpus") = py::none(),
      "Frees the candidates' GPUs one by one, in the order given, until the placement finds GPUs for the job; "
      "returns (its GPUs or None, the victims it needs). The cluster view is left as it was.");
  m.def(
      "placement_names",
      [] {
        std::vector<std::string> names;
        for (const auto& entry : Placements::registry().placements()) names.push_back(entry.name);
        return names;
      },
      "The built-in placements' names.");
}

void bind_kit(py::module_& m) {
  py::class_<WaitingChanges>(m, "WaitingChanges",
                             "Which jobs joined and left the waiting queue since the previous call, so that a "
                             "policy keeps its own order of the waiting jobs across calls.")
      .def(py::init<>())
      .def(
          "since_last_call",
          [](WaitingChanges& changes, const QueueRef& queue) {
            const WaitingChanges::Delta delta = changes.since_last_call(*queue.at.get().jobs);
            return py::make_tuple(delta.joined, delta.left);
          },
          py::arg("queue"), "(joined, left): job indices; every waiting job at the first call.")
      .def(
          "noted", [](WaitingChanges& changes, py::handle job) { changes.noted(job_of(job)); }, py::arg("job"),
          "A job this call's plan allocates GPUs to or preempts.")
      .def(
          "waiting", [](const WaitingChanges& changes, py::handle job) { return changes.waiting(job_of(job)); },
          py::arg("job"), "Whether the job was waiting as of the last since_last_call().");
}

void bind_env(py::module_& m) {
  m.def("decision_page_size", &decision_page_size, py::arg("rows"), py::arg("nodes"),
        "Bytes of the shared page for this many rows and nodes.");
}

}  // namespace

void bind_policy_api(py::module_& m) {
  bind_cluster(m);
  bind_jobs(m);
  bind_plan(m);
  bind_placements(m);
  bind_kit(m);
  bind_env(m);
}

}  // namespace gcsim::python
