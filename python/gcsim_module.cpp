// gcsim_module.cpp: the compiled part of the Python package `gcsim`
// (python/gcsim/), the extension module `gcsim._gcsim`.
//
// It takes plain values (paths, JSON text, "KEY=VALUE" settings) and gives
// back the output files as text; python/gcsim/ turns dicts into JSON and the
// files into DataFrames. A run is assembled and simulated by the same
// library as `gcsim run` (app/run_request.hpp), in a child process
// (run_in_child.hpp: SimGrid runs one engine per process). Errors are raised
// as the exceptions of gcsim.errors, with the message `gcsim run` prints.
//
//   files = _gcsim.run(cluster="rack.json", workload="jobs.json", policy="fifo")["files"]
#include <Python.h>
#include <cxxabi.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/run_request.hpp"
#include "app/synthetic_request.hpp"
#include "app/trace_request.hpp"
#include "policies/register_builtin.hpp"
#include "python/decision_channel.hpp"
#include "python/error_description.hpp"
#include "python/interpreter_lock.hpp"
#include "python/policy_bindings.hpp"
#include "python/python_policy.hpp"
#include "python/run_in_child.hpp"
#include "sim/core/input_error.hpp"
#include "sim/io/atomic_output.hpp"
#include "sim/report/comparison_table.hpp"
#include "sim/report/run_output_reader.hpp"
#include "sim/topology/cluster_reader.hpp"
#include "workloads/native_workload.hpp"

namespace py = pybind11;

namespace gcsim::python {
namespace {

[[noreturn]] void raise_error(const ErrorDescription& error) {
  if (error.kind == "memory") {
    PyErr_SetString(PyExc_MemoryError, error.message.c_str());
    throw py::error_already_set();
  }
  const char* name = error.kind == "usage"       ? "UsageError"
                     : error.kind == "policy"    ? "PolicyError"
                     : error.kind == "input"     ? "InputError"
                     : error.kind == "invariant" ? "InvariantBroken"
                                                 : "Error";
  const py::object type = py::module_::import("gcsim.errors").attr(name);
  const py::object instance = error.kind == "input"
                                  ? type(error.message, error.file, error.where, error.field, error.problem)
                                  : type(error.message);
  PyErr_SetObject(type.ptr(), instance.ptr());
  throw py::error_already_set();
}

// A JSON document given as text by the Python side (json.dumps of a dict).
nlohmann::json parse_document(const std::string& text, const std::string& label) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(label, "", "", std::string("not valid JSON: ") + e.what());
  }
}

// Python's main thread, the one that runs signal handlers (set on import).
unsigned long python_main_thread = 0;

// Waits on the child with the interpreter free; a first KeyboardInterrupt
// stops the run (its partial result comes back), a second one, or any other
// exception a signal handler raises, abandons it and is raised.
class InterruptWatch {
 public:
  /// Made in the thread that waits; `main_thread` is Python's main thread's
  /// ident. It calls no Python code: code run here could let the
  /// interpreter end this thread, unwinding the frames of Python objects.
  explicit InterruptWatch(unsigned long main_thread) : main_thread_(PyThread_get_thread_ident() == main_thread) {}

  WaitAction operator()() {
    // Python runs signal handlers in its main thread only: another thread
    // has none to check, and never takes the lock while it waits (the
    // interpreter may be ending meanwhile: interpreter_lock.hpp).
    if (!main_thread_ || _Py_IsFinalizing()) return WaitAction::kContinue;
    const py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() == 0) return WaitAction::kContinue;
    if (!stopped_ && PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
      PyErr_Clear();
      stopped_ = true;
      return WaitAction::kStop;
    }
    PyErr_Fetch(&type_, &value_, &traceback_);
    return WaitAction::kAbandon;
  }
  bool stopped() const { return stopped_; }
  /// With the interpreter held: raises what abandoned the run.
  [[noreturn]] void raise() {
    PyErr_Restore(type_, value_, traceback_);
    throw py::error_already_set();
  }

 private:
  bool main_thread_;
  bool stopped_ = false;
  PyObject *type_ = nullptr, *value_ = nullptr, *traceback_ = nullptr;
};

// The registry entry of a policy written in Python: "python:" and its
// class's name. The object is borrowed: the caller holds it for the run.
void add_python_policy(RunRequest& request, const py::object& policy) {
  const std::string name = py::str(py::type::handle_of(policy).attr("__name__"));
  const bool shares_gpus = py::bool_(py::getattr(policy, "shares_gpus", py::bool_(false)));
  request.policy = "python:" + name;
  request.register_policies = [object = policy.ptr(), name, shares_gpus](PolicyRegistry& registry) {
    registry.add_policy("python:" + name, "a policy written in Python", "pack",
                        [=](const PolicyOptions&, std::unique_ptr<PlacementPolicy> placement) {
                          return std::make_unique<PythonPolicy>(object, name, shares_gpus, std::move(placement));
                        });
  };
}

// The policy of gcsim.env's simulation (decision_channel.hpp): `channel` is
// (page, decision_fd, action_fd, rows, fds to close in the child).
void add_decision_policy(RunRequest& request, const py::tuple& channel) {
  DecisionEnds ends;
  const py::buffer_info page = channel[0].cast<py::buffer>().request(true);
  ends.page = static_cast<unsigned char*>(page.ptr);
  ends.page_size = static_cast<std::size_t>(page.size * page.itemsize);
  ends.decision_fd = channel[1].cast<int>();
  ends.action_fd = channel[2].cast<int>();
  ends.rows = channel[3].cast<std::size_t>();
  ends.close_in_child = channel[4].cast<std::vector<int>>();
  request.policy = "SchedulingEnv";
  request.register_policies = [ends](PolicyRegistry& registry) {
    registry.add_policy("SchedulingEnv", "gcsim.env's decisions", "pack",
                        [=](const PolicyOptions&, std::unique_ptr<PlacementPolicy> placement) {
                          return std::make_unique<DecisionPolicy>(ends, std::move(placement));
                        });
  };
}

// Around the fork of a run whose policy is written in Python: the parent
// forks holding the interpreter's lock it was called with (no other thread is
// inside the interpreter then) and gives it up for the wait; the child makes
// the copy of the interpreter its own and releases the lock for the policy's
// calls to take, and flushes Python's output before it ends.
ForkHooks interpreter_fork_hooks(InterpreterLock& lock) {
  ForkHooks hooks;
  hooks.before = [] { PyOS_BeforeFork(); };
  hooks.in_parent = [&lock] {
    PyOS_AfterFork_Parent();
    lock.release();
  };
  hooks.in_child = [] {
    PyOS_AfterFork_Child();
    PyEval_SaveThread();
  };
  hooks.child_ends = [] {
    PyGILState_Ensure();
    for (const char* name : {"stdout", "stderr"})
      if (PyObject* stream = PySys_GetObject(name); stream && stream != Py_None) {
        PyObject* flushed = PyObject_CallMethod(stream, "flush", nullptr);
        Py_XDECREF(flushed);
        PyErr_Clear();
      }
  };
  return hooks;
}

// Runs `work` (C++ only) with the interpreter's lock given up; what it throws
// is raised as gcsim.errors' exception once the lock is back.
template <typename Work>
auto without_interpreter(Work&& work) -> decltype(work()) {
  InterpreterLock lock;
  lock.release();
  std::optional<decltype(work())> result;
  std::optional<ErrorDescription> error;
  try {
    result.emplace(work());
  } catch (...) {
    error = describe_current_exception();
  }
  lock.take_back();
  if (error) raise_error(*error);
  return std::move(*result);
}

py::dict run(const std::string& cluster, const std::optional<std::string>& cluster_json, const std::string& workload,
             const std::optional<std::string>& workload_json, const std::vector<std::string>& trace_settings,
             const std::string& policy, const py::object& policy_object, const std::optional<py::tuple>& decisions,
             const std::string& placement, const std::vector<std::string>& policy_settings,
             const std::vector<std::string>& plugins, std::uint64_t seed, const std::string& fidelity,
             std::uint32_t job_rounds, std::optional<double> until, bool gpu_memory_isolation, bool whole_gpus,
             const std::string& node_failures, bool check, bool contention, bool energy, bool wall_time) {
  RunRequest request;
  ForkHooks hooks;
  InterpreterLock lock;
  try {
    request.cluster = cluster;
    if (cluster_json) request.cluster_document = parse_document(*cluster_json, cluster);
    request.workload = workload;
    if (workload_json) request.workload_document = parse_document(*workload_json, workload);
    request.trace_settings = trace_settings;
    request.policy = policy;
    if (!policy_object.is_none()) {
      add_python_policy(request, policy_object);
      hooks = interpreter_fork_hooks(lock);
    }
    if (decisions) add_decision_policy(request, *decisions);
    request.placement = placement;
    request.policy_settings = policy_settings;
    request.plugins = plugins;
    request.seed = seed;
    request.fidelity = parse_fidelity(fidelity, "fidelity");
    request.job_rounds = job_rounds;
    if (until) request.until = *until;
    request.gpu_memory_isolation = gpu_memory_isolation;
    request.whole_gpus = whole_gpus;
    request.node_failures = node_failures;
    request.check = check;
    request.contention = contention;
    request.energy = energy;
    request.wall_time = wall_time;
  } catch (...) {
    raise_error(describe_current_exception());
  }
  InterruptWatch watch(python_main_thread);
  ChildRun child;
  // A policy written in Python is forked holding the lock (hooks.in_parent
  // gives it up); any other run waits without it from the start.
  if (!hooks.in_parent) lock.release();
  try {
    child = run_in_child(
        request, [&] { return watch(); }, hooks);
  } catch (abi::__forced_unwind&) {
    // The interpreter, ending, ended this thread inside Python's own hooks
    // around the fork: nothing here may be touched any more.
    InterpreterLock::wait_for_the_process_end();
  } catch (...) {
    child.error = describe_current_exception();
  }
  lock.take_back();
  if (child.abandoned) watch.raise();
  if (child.error) raise_error(*child.error);
  py::dict files;
  for (const std::string& name : child.file_order) files[py::str(name)] = py::str(child.files[name]);
  py::dict result;
  result["files"] = files;
  result["notes"] = child.notes;
  result["early_stop"] = child.early_stop;
  result["diagnosis"] = child.diagnosis;
  result["human_summary"] = child.human_summary;
  result["interrupted"] = watch.stopped();
  return result;
}

py::tuple read_trace(const std::string& spec, const std::vector<std::string>& settings, const std::string& cluster,
                     const std::optional<std::string>& cluster_json) {
  auto [workload, notes] = without_interpreter([&] {
    std::optional<ClusterLayout> layout;
    if (cluster_json)
      layout.emplace(parse_cluster_json(parse_document(*cluster_json, cluster), cluster));
    else if (!cluster.empty())
      layout.emplace(read_cluster_file(cluster));
    std::ostringstream said;
    const std::vector<JobSpec> jobs = read_workload_argument(spec, settings, said, layout ? &*layout : nullptr);
    return std::pair(native_workload_json(jobs).dump(), said.str());
  });
  return py::make_tuple(workload, notes);
}

// `gcsim synth`'s workload file, as text.
std::string synth(const std::string& config, const std::optional<std::string>& config_json,
                  std::optional<std::size_t> jobs, std::optional<double> mean_interarrival,
                  const std::optional<std::string>& checkpoint, const std::string& cluster,
                  const std::optional<std::string>& cluster_json, std::uint64_t seed) {
  return without_interpreter([&] {
    SyntheticRequest request;
    request.config = config;
    if (config_json) request.config_document = parse_document(*config_json, config);
    request.jobs = jobs;
    request.mean_interarrival_s = mean_interarrival;
    request.checkpoint = checkpoint;
    request.cluster = cluster;
    if (cluster_json) request.cluster_document = parse_document(*cluster_json, cluster);
    request.seed = seed;
    std::vector<JobSpec> generated;
    try {
      generated = synthesize(request);
    } catch (const std::invalid_argument& e) {  // as `gcsim synth` says it (status 1)
      throw InputError(config.empty() ? "<synth settings>" : config, "", "",
                       std::string("invalid generator settings: ") + e.what());
    }
    std::ostringstream text;
    write_native_workload(text, generated);
    return text.str();
  });
}

// comparison.csv and comparison.md of runs given as (policy, summary.json, jobs.csv, timeline.csv) texts,
// as `gcsim compare` writes them.
py::tuple comparison(const std::vector<std::tuple<std::string, std::string, std::string, std::string>>& runs) {
  auto [csv, markdown] = without_interpreter([&] {
    std::vector<ComparisonRow> rows;
    for (const auto& [policy, summary, jobs, timeline] : runs) {
      const std::string dir = "runs/" + policy + "/";
      RunOutputs outputs;
      outputs.summary = parse_summary_json(summary, dir + "summary.json");
      outputs.jobs = parse_jobs_csv(jobs, dir + "jobs.csv");
      outputs.timeline = parse_timeline_csv(timeline, dir + "timeline.csv");
      rows.push_back(comparison_row(policy, outputs));
    }
    return std::pair(comparison_csv(rows), comparison_markdown(rows));
  });
  return py::make_tuple(csv, markdown);
}

std::vector<std::size_t> gpus_per_node(const std::string& cluster, const std::optional<std::string>& cluster_json) {
  try {
    const ClusterLayout layout(cluster_json ? parse_cluster_json(parse_document(*cluster_json, cluster), cluster)
                                            : read_cluster_file(cluster));
    std::vector<std::size_t> gpus;
    for (NodeId node = 0; node < layout.node_count(); ++node) gpus.push_back(layout.node(node).gpus.size());
    return gpus;
  } catch (...) {
    raise_error(describe_current_exception());
  }
}

void write_outputs(const std::string& directory, const std::vector<std::pair<std::string, std::string>>& files) {
  // A file that cannot be written is an OSError, as Python's own writes raise.
  const std::optional<std::string> failure = without_interpreter([&]() -> std::optional<std::string> {
    try {
      OutputSet out(directory);
      for (const auto& [name, content] : files) out.stage(name, content);
      out.commit();
      return std::nullopt;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  });
  if (failure) {
    PyErr_SetString(PyExc_OSError, failure->c_str());
    throw py::error_already_set();
  }
}

std::vector<std::pair<std::string, std::string>> listed(const std::vector<PolicyRegistry::Entry>& entries) {
  std::vector<std::pair<std::string, std::string>> list;
  for (const auto& entry : entries) list.emplace_back(entry.name, entry.summary);
  return list;
}

}  // namespace
}  // namespace gcsim::python

PYBIND11_MODULE(_gcsim, m) {
  using namespace gcsim::python;
  m.doc() = "gcsim's simulator, compiled; use the package gcsim, which wraps it.";
  python_main_thread = py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  m.def("run", &run, py::arg("cluster"), py::arg("cluster_json") = py::none(), py::arg("workload"),
        py::arg("workload_json") = py::none(), py::arg("trace_settings") = std::vector<std::string>{},
        py::arg("policy") = "fifo", py::arg("policy_object") = py::none(), py::arg("decisions") = py::none(),
        py::arg("placement") = "", py::arg("policy_settings") = std::vector<std::string>{},
        py::arg("plugins") = std::vector<std::string>{}, py::arg("seed") = 0, py::arg("fidelity") = "job",
        py::arg("job_rounds") = 4, py::arg("until") = py::none(), py::arg("gpu_memory_isolation") = true,
        py::arg("whole_gpus") = false, py::arg("node_failures") = "", py::arg("check") = false,
        py::arg("contention") = false, py::arg("energy") = false, py::arg("wall_time") = true,
        "Runs one simulation in a child process; returns its output files as text (dict 'files'), the notes, "
        "why it stopped early and the terminal summary.");
  bind_policy_api(m);
  m.def("read_trace", &read_trace, py::arg("spec"), py::arg("settings") = std::vector<std::string>{},
        py::arg("cluster") = "", py::arg("cluster_json") = py::none(),
        "Reads a workload or trace; returns its jobs as a native workload (JSON text) and the reader's notes.");
  m.def("synth", &synth, py::arg("config") = "", py::arg("config_json") = py::none(), py::arg("jobs") = py::none(),
        py::arg("mean_interarrival") = py::none(), py::arg("checkpoint") = py::none(), py::arg("cluster") = "",
        py::arg("cluster_json") = py::none(), py::arg("seed") = 0,
        "Generates a synthetic workload as `gcsim synth` does; returns the file it writes (native JSON text).");
  m.def("comparison", &comparison, py::arg("runs"),
        "comparison.csv and comparison.md of runs given as (policy, summary.json, jobs.csv, timeline.csv) texts.");
  m.def("gpus_per_node", &gpus_per_node, py::arg("cluster"), py::arg("cluster_json") = py::none(),
        "The cluster's GPUs on each node, in node order.");
  m.def("write_outputs", &write_outputs, py::arg("directory"), py::arg("files"),
        "Writes (name, text) files into the directory, all at once or none.");
  m.def(
      "policies",
      [] {
        gcsim::PolicyRegistry registry;
        gcsim::register_builtin(registry);
        return py::make_tuple(listed(registry.policies()), listed(registry.placements()));
      },
      "The built-in policies and placements, each (name, summary).");
}
