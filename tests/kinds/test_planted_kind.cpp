// A job kind that gcsim does not have, planted from outside the project's
// kinds: batch inference, `"batch_inference": {"items": N,
// "items_per_gpu_s": R, "gpu_type": T}`, N items at R items a second on each
// of the job's GPUs of type T. It compiles into a run measured on T lasting
// N / (R x gpus) seconds, refuses checkpoints (it keeps no progress), and
// adds nothing anywhere else: the format's frame reads, expands, checks and
// writes it through the kinds it is given, and the engine runs the form it
// compiled into.
//
// Counted by hand: 1e6 items at 500 items/s on each of 4 GPUs: 500 s. On
// one node of 4 GPUs under FIFO, "infer" (submitted at 0) runs 0..500 and
// "train" (4 GPUs, 10 iterations of 1e14 FLOPs at 1e12 FLOP/s, no
// gradients: 1000 s) waits for it, 500..1500.
//
// One SimGrid engine per process: this program holds a single simulation.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "policies/fifo/fifo_policy.hpp"
#include "policies/placement/pack_placement.hpp"
#include "sim/core/cluster_layout.hpp"
#include "sim/core/input_error.hpp"
#include "sim/engine/simulation.hpp"
#include "tests/support/crafted_specs.hpp"
#include "tests/support/flat_locality.hpp"
#include "workloads/kinds/job_fields.hpp"
#include "workloads/kinds/kind_registry.hpp"
#include "workloads/native_workload.hpp"

namespace gcsim {
namespace {

class BatchInferenceKind final : public JobKind {
 public:
  std::vector<KindField> fields() const override { return {{"batch_inference", "items inferred on GPUs"}}; }
  JobWork read(const JsonObject& entry, std::string_view field, const JobSpec& job, const std::string&) const override {
    const JsonObject inference = entry.required_object(field);
    inference.reject_unknown_fields({"items", "items_per_gpu_s", "gpu_type"});
    const double items = inference.required_quantity("items", Quantity::kPlain, true);
    const double rate = inference.required_quantity("items_per_gpu_s", Quantity::kPlain, true);
    return MeasuredWork{items / (rate * job.gpus), inference.required_string("gpu_type")};
  }
  void check(const JsonObject& entry, JobSpec& job) const override {
    if (job.checkpoint.keeps_work()) entry.fail("checkpoint", "batch inference keeps no progress to save");
  }
  // It compiles into a measured run, which the measured kind writes.
  bool writes(const JobWork&) const override { return false; }
  void write(const JobSpec&, nlohmann::json&) const override {}
};

KindRegistry kinds_with_batch_inference() {
  KindRegistry kinds = builtin_kinds();
  kinds.add(std::make_shared<BatchInferenceKind>());
  return kinds;
}

const char* kWorkload = R"({"jobs": [
  {"id": "infer", "submit": 0, "gpus": 4,
   "batch_inference": {"items": 1e6, "items_per_gpu_s": 500, "gpu_type": "g"}},
  {"id": "train", "submit": 1, "gpus": 4,
   "training": {"flops_per_iteration": 1e14, "gradient_bytes": 0, "iterations": 10}}]})";

std::vector<JobSpec> read(const std::string& text, const KindRegistry& kinds) {
  std::istringstream in(text);
  return read_native_workload(in, "w.json", kinds);
}

TEST(PlantedKind, ReadsRunsAndWritesBackThroughTheKindsItIsGiven) {
  const KindRegistry kinds = kinds_with_batch_inference();

  // Read: the planted kind compiled its entry into a measured run of 500 s.
  const std::vector<JobSpec> jobs = read(kWorkload, kinds);
  ASSERT_EQ(jobs.size(), 2u);
  const auto* infer = std::get_if<MeasuredWork>(&jobs[0].work);
  ASSERT_NE(infer, nullptr);
  EXPECT_DOUBLE_EQ(infer->seconds, 500);
  EXPECT_EQ(infer->gpu_type, "g");

  // Its checks are the frame's to call: a checkpoint is refused, naming the field.
  try {
    read(R"({"jobs": [{"id": "x", "submit": 0, "gpus": 1, "checkpoint": {"interval": 60},
                       "batch_inference": {"items": 1, "items_per_gpu_s": 1, "gpu_type": "g"}}]})",
         kinds);
    ADD_FAILURE() << "a checkpoint was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("jobs[0] (id 'x')"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("checkpoint"), std::string::npos) << e.what();
  }
  // The format's messages list it with the others.
  try {
    read(R"({"jobs": [{"id": "x", "submit": 0, "gpus": 1}]})", kinds);
    ADD_FAILURE() << "a job of no kind was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("or 'batch_inference' (items inferred on GPUs) is given"), std::string::npos)
        << e.what();
  }
  // Without it, its field is unknown.
  EXPECT_THROW(read(kWorkload, builtin_kinds()), InputError);

  // Written back, its job is the measured run it compiled into, which the built-in kinds read again.
  std::ostringstream written;
  write_native_workload(written, jobs, kinds);
  const std::vector<JobSpec> again = read(written.str(), builtin_kinds());
  ASSERT_EQ(again.size(), 2u);
  ASSERT_NE(std::get_if<MeasuredWork>(&again[0].work), nullptr);
  EXPECT_DOUBLE_EQ(std::get<MeasuredWork>(again[0].work).seconds, 500);

  // Run: the engine runs the form, knowing nothing of the kind.
  ClusterSpec spec;
  spec.name = "one-node";
  spec.gpu_types = {GpuType{"g", 1e12, 16e9}};
  spec.node_groups = {testing::crafted_node_group("n", 1, 4, "g")};
  spec.fabric.nodes_per_rack = 1;
  const ClusterLayout layout(spec);
  const testing::FlatLocality locality;
  FifoPolicy fifo(std::make_unique<PackPlacement>());
  const RunRecord record = simulate({layout, locality, jobs, fifo, SimulationOptions{}});
  ASSERT_EQ(record.outcomes.size(), 2u);
  EXPECT_DOUBLE_EQ(record.outcomes[0].start, 0);
  EXPECT_DOUBLE_EQ(record.outcomes[0].end, 500);
  EXPECT_DOUBLE_EQ(record.outcomes[1].start, 500);
  EXPECT_DOUBLE_EQ(record.outcomes[1].end, 1500);
}

TEST(PlantedKind, AFieldAnotherKindGivesCannotBeTaken) {
  KindRegistry kinds = builtin_kinds();
  class Duplicate final : public JobKind {
   public:
    std::vector<KindField> fields() const override { return {{"duration", "again"}}; }
    JobWork read(const JsonObject&, std::string_view, const JobSpec&, const std::string&) const override {
      return CpuWork{};
    }
    bool writes(const JobWork&) const override { return false; }
    void write(const JobSpec&, nlohmann::json&) const override {}
  };
  EXPECT_THROW(kinds.add(std::make_shared<Duplicate>()), std::invalid_argument);
}

}  // namespace
}  // namespace gcsim
