// `gcsim validate`'s command line and outputs (its measurements run in the
// validate_quick test).
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

TEST(ValidateCommand, BadArgumentsAreUsageErrors) {
  const GcsimRun ranks = run_gcsim({"validate", "--ranks", "1"});
  EXPECT_EQ(ranks.exit_code, 2);
  EXPECT_NE(ranks.err.find("option '--ranks': '1' is not a rank count between 2 and 64"), std::string::npos)
      << ranks.err;
  const GcsimRun skip = run_gcsim({"validate", "--skip", "gpus"});
  EXPECT_EQ(skip.exit_code, 2);
  EXPECT_NE(skip.err.find("unknown part 'gpus'"), std::string::npos) << skip.err;
  const GcsimRun rate = run_gcsim({"validate", "--rate", "fast"});
  EXPECT_EQ(rate.exit_code, 2);
  EXPECT_NE(rate.err.find("option '--rate'"), std::string::npos) << rate.err;
}

TEST(ValidateCommand, WritesItsReportEvenWithEveryPartSkipped) {
  ScratchDir dir;
  const GcsimRun run = run_gcsim(
      {"validate", "--skip", "shaped,loopback,renderfarm,gpu", "--plots", "no", "--quiet", "--out", dir / "v"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(read_text(dir / "v/validation.csv"),
            "experiment,configuration,reference,reference_kind,simulated,error_pct,bound,bound_pct\n");
  EXPECT_NE(read_text(dir / "v/validation.md").find("0 of 0 bound checks hold"), std::string::npos);
  const auto files = files_in(dir / "v");
  EXPECT_EQ(std::count(files.begin(), files.end(), "validation.png"), 0);  // --plots no
}

TEST(ValidateCommand, TheAlltoallIsAPartOfThePlanThatNeedsTheShapedLinks) {
  ScratchDir dir;
  const GcsimRun without_links = run_gcsim(
      {"validate", "--skip", "shaped,loopback,renderfarm,gpu", "--plots", "no", "--quiet", "--out", dir / "a"});
  ASSERT_EQ(without_links.exit_code, 0) << without_links.err;
  EXPECT_NE(read_text(dir / "a/validation.md")
                .find("- shaped MPI all-to-all skipped: it runs on the shaped part's links and calibration "
                      "(--skip shaped)"),
            std::string::npos);
  const GcsimRun skipped = run_gcsim({"validate", "--skip", "shaped,alltoall,loopback,renderfarm,gpu", "--plots", "no",
                                      "--quiet", "--out", dir / "b"});
  ASSERT_EQ(skipped.exit_code, 0) << skipped.err;
  EXPECT_EQ(read_text(dir / "b/validation.md").find("all-to-all"), std::string::npos);
}

}  // namespace
}  // namespace gcsim::testing
