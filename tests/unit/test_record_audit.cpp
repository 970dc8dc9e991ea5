// Specification of the record audit (gcsim run --check at a run's end): a
// timeline going back, busy GPUs above allocated ones, or allocated
// GPU-seconds other than the jobs' are each named; a consistent record passes.
#include "sim/report/record_audit.hpp"

#include <gtest/gtest.h>

#include "sim/core/invariant_violation.hpp"

namespace gcsim {
namespace {

// 4 GPUs; 2 allocated and busy from 0 to 10 s, 4 from 10 to 20 s, none after:
// 20 + 40 = 60 GPU-seconds held.
RunRecord consistent_record() {
  RunRecord record;
  record.total_gpus = 4;
  record.simulated_time = 30;
  record.timeline = {{0, 2, 2, 1}, {10, 4, 3, 0}, {20, 0, 0, 0}};
  record.run_gpu_seconds = 60;
  return record;
}

std::string broken_invariant(const RunRecord& record, double waiting_hold = 0) {
  try {
    audit_record(record, waiting_hold);
  } catch (const InvariantViolation& violation) {
    return violation.invariant() + ": " + violation.what();
  }
  return "";
}

TEST(RecordAudit, AConsistentRecordPasses) { EXPECT_EQ(broken_invariant(consistent_record()), ""); }

TEST(RecordAudit, BusyAboveAllocatedIsNamedWithItsTime) {
  RunRecord record = consistent_record();
  record.timeline[1].busy = 4.5;
  EXPECT_EQ(broken_invariant(record), "busy-within-allocated: at 10 s: 4.5 GPUs busy, 4 allocated of 4");
}

TEST(RecordAudit, AllocatedBeyondTheClusterIsNamed) {
  RunRecord record = consistent_record();
  record.timeline[1].allocated = 5;
  record.run_gpu_seconds = 70;
  EXPECT_EQ(broken_invariant(record), "busy-within-allocated: at 10 s: 3 GPUs busy, 5 allocated of 4");
}

TEST(RecordAudit, ATimelineGoingBackIsNamed) {
  RunRecord record = consistent_record();
  record.timeline[2].time = 5;
  EXPECT_EQ(broken_invariant(record).substr(0, 46), "timeline-order: the timeline goes back from 10");
}

TEST(RecordAudit, AllocatedGpuSecondsMustBeTheJobsOwn) {
  RunRecord record = consistent_record();
  record.run_gpu_seconds = 50;
  EXPECT_EQ(broken_invariant(record),
            "timeline-integral: the timeline's allocated GPUs integrate to 60 GPU-seconds; the jobs held 50 in their "
            "runs and 0 while waiting");
  // GPUs held by jobs waiting for more count too.
  EXPECT_EQ(broken_invariant(record, 10), "");
}

TEST(RecordAudit, TheIntegralEndsAtTheSimulatedTime) {
  RunRecord record = consistent_record();
  record.timeline.pop_back();  // a run cut at 15 s with 4 GPUs still held
  record.simulated_time = 15;
  record.run_gpu_seconds = 40;
  EXPECT_EQ(broken_invariant(record), "");
}

}  // namespace
}  // namespace gcsim
