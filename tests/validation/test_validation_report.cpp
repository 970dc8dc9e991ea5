// validation.csv and validation.md, and the CSV tables the real tools write.
#include <gtest/gtest.h>

#include "validation/csv_table.hpp"
#include "validation/ring_scenario.hpp"
#include "validation/validation_report.hpp"

namespace gcsim::validation {
namespace {

TEST(CsvTable, ReadsFieldsByColumnName) {
  const CsvTable t("schedule,makespan_s\nserial,2.5\npipelined,0.55\n", "farm.csv");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.text(1, "schedule"), "pipelined");
  EXPECT_DOUBLE_EQ(t.number(0, "makespan_s"), 2.5);
}

TEST(CsvTable, ErrorsNameFileLineAndColumn) {
  EXPECT_THROW(CsvTable("a,b\n1,2,3\n", "x.csv"), std::runtime_error);
  try {
    CsvTable("a,b\n1,2\n3,oops\n", "x.csv").number(1, "b");
    FAIL() << "a non-number must be an error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "x.csv: line 3: field 'b': expected a number, got 'oops'");
  }
  try {
    CsvTable("a,b\n1,2\n", "x.csv").text(0, "c");
    FAIL() << "a missing column must be an error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "x.csv: no column 'c'");
  }
  EXPECT_THROW(CsvTable("", "empty.csv"), std::runtime_error);
}

TEST(RingScenario, SizeLabels) {
  EXPECT_EQ(size_label(4096), "4KiB");
  EXPECT_EQ(size_label(16 * 1048576.0), "16MiB");
  EXPECT_EQ(size_label(1000004), "1000004B");
}

TEST(RingScenario, ClosedFormIsTheRingFormula) {
  // N = 4, S = 16 MiB, alpha = 50 us, B = 25 MB/s: 6 * (50e-6 + 4194304 / 25e6) = 1.0069 s (+1e-15 compute).
  const double t = ring_closed_form_seconds(4, 16 * 1048576.0, {50e-6, 25e6});
  EXPECT_NEAR(t, 6 * (50e-6 + 4194304.0 / 25e6), 1e-12);
}

TEST(RingScenario, ClusterSplitsTheHopLatencyOverTwoNics) {
  const std::string cluster = ring_cluster_json(3, {40e-6, 24.8e6});
  EXPECT_NE(cluster.find("\"count\": 3"), std::string::npos);
  EXPECT_NE(cluster.find("\"latency\": 2e-05"), std::string::npos);
  EXPECT_NE(cluster.find("\"bandwidth\": 24800000.0"), std::string::npos);
}

ValidationReport sample_report() {
  ValidationReport r;
  r.preamble.push_back("Generated on a test.");
  r.rows.push_back({"allreduce-shaped", "N=3 S=16MiB", 1.0, "measured", 1.01, shaped_allreduce_bound(16 * 1048576.0)});
  r.rows.push_back({"allreduce-loopback", "N=3 S=1MiB", 0.001, "measured", 0.002, std::nullopt});
  r.rows.push_back({"renderfarm-sleep-50ms", "pipelined", 0.55, "measured", 0.5, renderfarm_bound(0.05)});
  r.checks = check_bounds(r.rows);
  return r;
}

TEST(ValidationReport, CsvHasOneLinePerRowWithErrorAndBound) {
  const std::string csv = validation_csv(sample_report().rows);
  EXPECT_EQ(csv,
            "experiment,configuration,reference,reference_kind,simulated,error_pct,bound,bound_pct\n"
            "allreduce-shaped,N=3 S=16MiB,1,measured,1.01,1.0000,allreduce-shaped S >= 16 MiB,2\n"
            "allreduce-loopback,N=3 S=1MiB,0.001,measured,0.002,100.0000,,\n"
            "renderfarm-sleep-50ms,pipelined,0.55,measured,0.5,-9.0909,renderfarm tasks >= 50 ms,2\n");
}

TEST(ValidationReport, MarkdownCountsAndMarksBrokenChecks) {
  const ValidationReport r = sample_report();
  EXPECT_EQ(broken_checks(r.checks), 1u);  // the render farm at -9.09%
  const std::string md = validation_markdown(r);
  EXPECT_NE(md.find("1 of 2 bound checks hold"), std::string::npos);
  EXPECT_NE(md.find("| renderfarm tasks >= 50 ms | max abs error | 1 | 9.09% | <= 2% | **no** |"), std::string::npos);
  EXPECT_NE(md.find("| allreduce-loopback | 1 | 100.00% |"), std::string::npos);
}

TEST(ValidationReport, LinkCalibrationShowsTheFitBesideTheMeasuredLink) {
  ValidationReport report;
  LinkCalibrationRow measured{3, 26.5e-6, 24.826e6, 25e6, std::nullopt, RingLinkFit{0, 24.784e6, 0.0012, 3}};
  LinkCalibrationRow unfitted{4, 108.7e-6, 24.824e6, 25e6, std::nullopt, std::nullopt};
  report.links = {measured, unfitted};
  const std::string md = validation_markdown(report);
  EXPECT_NE(md.find("| 3 | 26.5 | 24.826 | 99.3% |  |  | 0.0 | 24.784 | 0.12% |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 4 | 108.7 | 24.824 | 99.3% |  |  |  |  |  |"), std::string::npos) << md;
}

}  // namespace
}  // namespace gcsim::validation
