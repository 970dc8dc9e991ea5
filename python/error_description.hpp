// error_description.hpp: what gcsim threw, as data the Python module turns
// into its exceptions (gcsim.InputError, gcsim.UsageError, gcsim.PolicyError,
// ...), also when it was thrown in a child process.
//
// The kinds follow the exit statuses of `gcsim run` (command_runner.hpp):
//   UsageError                         usage        (status 2)
//   UnknownPolicy, PlanRejected,
//   PolicyFailed                       policy       (2, 3)
//   InputError, TraceSettingError      input        (1), with file, where, field
//   InvariantBroken                    invariant    (16)
//   std::bad_alloc                     memory       (11)
//   anything else                      internal     (12)
//
//   try { ... } catch (...) { ErrorDescription e = describe_current_exception(); }
#pragma once

#include <string>

namespace gcsim::python {

struct ErrorDescription {
  std::string kind;  // usage, policy, input, invariant, memory, internal
  std::string message;
  std::string file, where, field, problem;  // an InputError's parts; empty for the others
};

/// The exception being handled (call inside a catch block).
ErrorDescription describe_current_exception();

}  // namespace gcsim::python
