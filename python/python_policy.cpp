#include "python/python_policy.hpp"

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <utility>

#include "python/policy_bindings.hpp"

namespace py = pybind11;

namespace gcsim::python {

void PolicyCall::check(std::uint64_t of) const {
  if (!open || of != number)
    throw std::runtime_error(
        "a view or plan handed to schedule() is valid only during that call (keep job indices, not Job objects)");
}

void PolicyCall::begin(const SchedulingContext& ctx, Plan& into) {
  now = ctx.now;
  jobs = &ctx.jobs;
  real = &ctx.cluster;
  cluster.emplace(ctx.cluster);
  plan = &into;
  if (gave_back.size() != ctx.jobs.job_count()) gave_back.assign(ctx.jobs.job_count(), 0);
  ++number;
  open = true;
}

void PolicyCall::end() {
  open = false;
  // Only the entries this call set, found through its plan.
  for (const Decision& d : plan->decisions())
    if (d.job < gave_back.size()) gave_back[d.job] = 0;
  cluster.reset();
  plan = nullptr;
}

PythonPolicy::PythonPolicy(PyObject* object, std::string name, bool shares_gpus,
                           std::unique_ptr<PlacementPolicy> placement)
    : object_(object), name_(std::move(name)), shares_gpus_(shares_gpus), placement_(std::move(placement)) {
  if (!placement_) throw std::invalid_argument("a Python policy needs a placement policy");
  call_.placement = placement_.get();
}

namespace {

// The exception being handled in Python, as its last line and traceback.
std::string describe(py::error_already_set& error) {
  try {
    const py::object lines =
        py::module_::import("traceback").attr("format_exception")(error.type(), error.value(), error.trace());
    const std::string traceback = py::str("").attr("join")(lines).cast<std::string>();
    const py::object last = py::module_::import("traceback").attr("format_exception_only")(error.type(), error.value());
    std::string summary = py::str("").attr("join")(last).cast<std::string>();
    while (!summary.empty() && summary.back() == '\n') summary.pop_back();
    return summary + "\n" + traceback;
  } catch (py::error_already_set&) {
    return error.what();
  }
}

}  // namespace

void PythonPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  const py::gil_scoped_acquire gil;
  call_.begin(ctx, plan);
  std::string failure;
  try {
    if (!schedule_) schedule_ = py::getattr(py::handle(object_), "schedule").release().ptr();
    const std::uint64_t number = call_.number;
    const py::handle method(schedule_);
    method(py::cast(ClusterRef{{&call_, number}}), py::cast(QueueRef{{&call_, number}}),
           py::cast(PlanRef{{&call_, number}}));
  } catch (py::error_already_set& error) {
    failure = describe(error);
  }
  call_.end();
  if (!failure.empty()) throw std::runtime_error(failure);
}

}  // namespace gcsim::python
