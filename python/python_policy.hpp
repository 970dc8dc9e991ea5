// python_policy.hpp: a scheduling policy written in Python (a subclass of
// gcsim.Policy), which the engine calls as it calls a C++ one.
//
// The engine calls schedule() at the same points, applies the plan with the
// same checks and rejects a bad plan the same way. The adapter hands the
// Python object's schedule(cluster, queue, plan) thin wrappers over one
// PolicyCall (policy_bindings.hpp): the call's views and plan, nothing
// copied, valid for that call only. The cluster Python sees is the cluster
// as the decisions recorded so far in the call leave it (a TentativeCluster
// the plan keeps up to date), so a placement asked after an allocation
// does not offer its GPUs again.
//
// It runs in the child process of a run (run_in_child.hpp), forked with the
// interpreter in a sound state and its lock released: each call takes the
// lock around the Python call. A Python exception fails the call with the
// exception and its traceback as the message; the engine makes it a
// PolicyFailed naming the policy (the class's name) and the simulated time.
//
//   registry.add_policy("python:Mine", "...", "pack", [object](const PolicyOptions&, auto placement) {
//     return std::make_unique<PythonPolicy>(object, "Mine", false, std::move(placement));
//   });
#pragma once

#include <Python.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policies/kit/tentative_cluster.hpp"
#include "sim/core/policy.hpp"

namespace gcsim::python {

/// What one schedule() call shows Python. The wrappers keep a pointer to it
/// and the number of their call, and refuse to read it once that call ended.
struct PolicyCall {
  Time now = 0;
  const QueueView* jobs = nullptr;
  const ClusterView* real = nullptr;
  /// The cluster as the plan recorded so far leaves it.
  std::optional<TentativeCluster> cluster;
  Plan* plan = nullptr;
  /// The run's placement (gcsim.run's placement=, pack by default).
  const PlacementPolicy* placement = nullptr;
  /// Per job: preempted or released in this call (its GPUs already shown free).
  std::vector<char> gave_back;
  /// Calls begun so far; a wrapper made in call n reads only while number == n and open.
  std::uint64_t number = 0;
  bool open = false;

  /// Throws std::runtime_error (RuntimeError in Python) unless call `of` is the open one.
  void check(std::uint64_t of) const;
  void begin(const SchedulingContext& ctx, Plan& into);
  void end();
};

class PythonPolicy final : public SchedulingPolicy {
 public:
  /// `object`: the gcsim.Policy instance; the caller keeps it alive for the
  /// run (the parent holds it while the child runs). `name`: its class's name.
  PythonPolicy(PyObject* object, std::string name, bool shares_gpus, std::unique_ptr<PlacementPolicy> placement);

  std::string_view name() const override { return name_; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override;
  bool shares_gpus() const override { return shares_gpus_; }

 private:
  PyObject* object_;
  std::string name_;
  bool shares_gpus_;
  std::unique_ptr<PlacementPolicy> placement_;
  PolicyCall call_;
  PyObject* schedule_ = nullptr;  // the bound method, looked up at the first call
};

}  // namespace gcsim::python
