// A run time measured on one GPU type is rescaled by FLOP/s on another, and
// the run says how many jobs were; a native duration with "rescale": false,
// or a trace read with --trace-opt duration=recorded, keeps the recorded time.
// hetero-2types: V100 at 15.7 TFLOP/s, K80 at 4.37 TFLOP/s.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

nlohmann::json on_k80(const std::string& id, bool rescale) {
  nlohmann::json job = {{"id", id},
                        {"submit", 0},
                        {"gpus", 1},
                        {"gpu_types", {"K80"}},
                        {"duration", {{"seconds", 100}, {"gpu_type", "V100"}}}};
  if (!rescale) job["duration"]["rescale"] = false;
  return job;
}

TEST(DurationRescaling, AMeasuredRunOnAnotherTypeIsRescaledAndCounted) {
  const ScratchDir dir;
  const std::string workload = dir.write("w.json", workload_json({on_k80("scaled", true), on_k80("kept", false)}));
  const GcsimRun run = run_gcsim({"run", "--cluster", scenario("clusters/hetero-2types.json"), "--workload", workload,
                                  "--policy", "fifo", "--out", dir / "out", "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(dir / "out");
  EXPECT_NEAR(jobs.at("scaled").end, 100 * 15.7 / 4.37, 1e-4);  // 359.27 s on a K80
  EXPECT_NEAR(jobs.at("kept").end, 100, 1e-6);
  EXPECT_EQ(read_summary(dir / "out")["rescaled_jobs"].get<int>(), 1);
  EXPECT_NE(run.err.find("note: 1 jobs of a measured duration ran on a GPU type other than"), std::string::npos)
      << run.err;
}

TEST(DurationRescaling, ATraceReadWithRecordedDurationsKeepsThem) {
  // One job of 20 GPUs measured 100 s on V100s: the cluster has 16 V100s, so
  // it also runs on K80s (as mixed_gpu_types lets it) and goes at their pace:
  // 100 x 15.7 / 4.37 = 359.27 s scaled; recorded, it lasts 100 s.
  const ScratchDir dir;
  const std::string trace = dir.write("t.csv", "id,submit,gpus,duration,gpu_type\nj,0,20,100,V100\n");
  for (const bool recorded : {false, true}) {
    SCOPED_TRACE(recorded);
    const std::string out = dir / (recorded ? "recorded" : "scaled");
    const GcsimRun run =
        run_gcsim({"run", "--cluster", scenario("clusters/hetero-2types.json"), "--workload", "csv:" + trace,
                   "--trace-opt", "map=id=id,submit=submit,gpus=gpus,duration=duration,gpu_type=gpu_type",
                   "--trace-opt", "mixed_gpu_types=true", "--trace-opt",
                   recorded ? "duration=recorded" : "duration=scaled", "--policy", "fifo", "--out", out, "--quiet"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NEAR(read_jobs_csv(out).at("j").end, recorded ? 100 : 100 * 15.7 / 4.37, 1e-4);
    EXPECT_EQ(read_summary(out)["rescaled_jobs"].get<int>(), recorded ? 0 : 1);
  }
}

}  // namespace
}  // namespace gcsim::testing
