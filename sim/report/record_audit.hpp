// record_audit.hpp: the rules a finished run's record keeps, checked at its
// end (`gcsim run --check`; the engine's StateAudit checks the state on the
// way).
//
// - timeline-order: the timeline's times never go back;
// - busy-within-allocated: at every point 0 <= busy <= allocated <= the
//   cluster's GPUs, and no queue is negative;
// - timeline-integral: the allocated GPUs integrated over the run equal the
//   GPU-seconds the jobs' runs held (RunRecord::run_gpu_seconds) and
//   `waiting_hold_gpu_seconds`, those jobs held while waiting for more GPUs
//   (a non-gang policy's partial allocations), within rounding.
// Throws InvariantViolation naming the rule.
//
//   audit_record(record, 0);
#pragma once

#include "sim/report/run_record.hpp"

namespace gcsim {

void audit_record(const RunRecord& record, double waiting_hold_gpu_seconds);

}  // namespace gcsim
