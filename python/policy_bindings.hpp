// policy_bindings.hpp: the Python classes a policy written in Python sees
// (gcsim._gcsim.Cluster, Queue, Job, JobList, Plan), the placements and the
// policy kit it may call (gcsim.placement, gcsim.WaitingChanges).
//
// Each wrapper is a pointer to the adapter's PolicyCall (python_policy.hpp)
// and the number of the call it was made in: reading it copies nothing and
// costs a check of that number, so a policy reads only what it asks for
// (FIFO reads the head of the queue, not the queue). A wrapper kept past
// its call raises RuntimeError.
//
//   bind_policy_api(module);  // in PYBIND11_MODULE
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>

#include "python/python_policy.hpp"

namespace gcsim::python {

/// A wrapper's link to its call.
struct CallRef {
  PolicyCall* call;
  std::uint64_t number;
  /// The call, if it is still the open one (else std::runtime_error).
  PolicyCall& get() const {
    call->check(number);
    return *call;
  }
};

struct ClusterRef {
  CallRef at;
};
struct QueueRef {
  CallRef at;
};
struct PlanRef {
  CallRef at;
};
struct JobRef {
  CallRef at;
  JobIndex index;
};
/// The waiting or the running jobs, a sequence read on demand.
struct JobList {
  CallRef at;
  bool running;
};
struct JobListIterator {
  JobList list;
  std::size_t next;
};

/// Adds the classes and functions above to the module.
void bind_policy_api(pybind11::module_& m);

}  // namespace gcsim::python
