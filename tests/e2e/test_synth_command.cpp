// `gcsim synth` from the command line: the jobs it writes save their work
// when preempted unless --checkpoint none says otherwise, and a mode it does
// not know is a usage error naming the option.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

nlohmann::json synthesized(const ScratchDir& dir, const std::string& name, const std::vector<std::string>& extra) {
  std::vector<std::string> args{"synth", "--jobs", "20", "--seed", "4", "--out", dir / name};
  args.insert(args.end(), extra.begin(), extra.end());
  const GcsimRun run = run_gcsim(args);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::ifstream file(dir / name);
  return nlohmann::json::parse(file);
}

TEST(SynthCommand, JobsSaveAtPreemptionByDefaultAndStartOverWithCheckpointNone) {
  ScratchDir dir;
  const nlohmann::json saving = synthesized(dir, "saving.json", {});
  ASSERT_EQ(saving["jobs"].size(), 20u);
  for (const nlohmann::json& job : saving["jobs"])
    EXPECT_EQ(job["checkpoint"], (nlohmann::json{{"at_preemption", true}})) << job["id"];
  const nlohmann::json restarting = synthesized(dir, "restarting.json", {"--checkpoint", "none"});
  ASSERT_EQ(restarting["jobs"].size(), 20u);
  for (const nlohmann::json& job : restarting["jobs"]) EXPECT_FALSE(job.contains("checkpoint")) << job["id"];
}

TEST(SynthCommand, AnUnknownCheckpointModeIsAUsageError) {
  ScratchDir dir;
  const GcsimRun run = run_gcsim({"synth", "--jobs", "5", "--checkpoint", "hourly", "--out", dir / "w.json"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--checkpoint expects at_preemption or none, got 'hourly'"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace gcsim::testing
