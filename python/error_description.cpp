#include "python/error_description.hpp"

#include <exception>
#include <new>
#include <stdexcept>
#include <utility>

#include "sim/core/input_error.hpp"
#include "sim/core/plan.hpp"
#include "sim/core/policy_registry.hpp"
#include "sim/core/usage_error.hpp"
#include "sim/engine/simulation.hpp"

namespace gcsim::python {
namespace {

ErrorDescription plain(std::string kind, std::string message) {
  ErrorDescription error;
  error.kind = std::move(kind);
  error.message = std::move(message);
  return error;
}

}  // namespace

ErrorDescription describe_current_exception() {
  try {
    throw;
  } catch (const UsageError& e) {
    return plain("usage", e.what());
  } catch (const UnknownPolicy& e) {
    return plain("policy", e.what());
  } catch (const InputError& e) {  // TraceSettingError among them: its message names the setting
    return {"input", e.what(), e.file(), e.where(), e.field(), e.problem()};
  } catch (const PlanRejected& e) {
    return plain("policy", std::string("the policy's plan was rejected: ") + e.what());
  } catch (const PolicyFailed& e) {
    return plain("policy", e.what());
  } catch (const InvariantBroken& e) {
    return plain("invariant", e.what());
  } catch (const std::bad_alloc& e) {
    return plain("memory", std::string("out of memory: ") + e.what());
  } catch (const std::exception& e) {
    return plain("internal", std::string("internal error: ") + e.what());
  } catch (...) {
    return plain("internal", "internal error: an exception of unknown type");
  }
}

}  // namespace gcsim::python
