// The command table and the guarded runner, seen from the command line:
// every command is listed by `gcsim --help` and answers --help with its
// usage; what is not a command, or not an action of `gcsim trace`, is a
// usage error that says what is.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

const std::vector<std::string> kCommands{"run", "synth", "policies", "compare", "trace", "validate"};

TEST(CommandTable, TopLevelHelpListsEveryCommand) {
  const GcsimRun run = run_gcsim({"--help"});
  EXPECT_EQ(run.exit_code, 0);
  for (const std::string& name : kCommands) EXPECT_NE(run.out.find("\n  " + name + " "), std::string::npos) << name;
}

TEST(CommandTable, EveryCommandAnswersHelpWithItsOwnUsage) {
  for (const std::string& name : kCommands) {
    const GcsimRun run = run_gcsim({name, "--help"});
    EXPECT_EQ(run.exit_code, 0) << name;
    EXPECT_EQ(run.out.rfind("usage: gcsim " + name, 0), 0u) << name << ": " << run.out;
  }
}

TEST(CommandTable, HelpAnywhereOnTheLineWinsOverABadOption) {
  const GcsimRun run = run_gcsim({"run", "--no-such-option", "-h"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out.rfind("usage: gcsim run", 0), 0u);
}

TEST(CommandTable, AnUnknownCommandIsAUsageErrorListingTheCommands) {
  const GcsimRun run = run_gcsim({"frobnicate"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("unknown command 'frobnicate'"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("  validate "), std::string::npos) << run.err;
}

TEST(CommandTable, NoCommandPrintsTheUsageAndFails) {
  const GcsimRun run = run_gcsim({});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.out.find("Commands:"), std::string::npos);
}

TEST(CommandTable, TraceNamesItsActionsWhenNoneOrAnUnknownOneIsGiven) {
  const GcsimRun none = run_gcsim({"trace"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("gcsim trace: expected 'stats', 'convert', 'fit', 'synth' or 'cluster'"), std::string::npos)
      << none.err;
  const GcsimRun unknown = run_gcsim({"trace", "summarize", "x.csv"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown action 'summarize'"), std::string::npos) << unknown.err;
}

TEST(CommandTable, ATraceActionWithoutItsOperandSaysWhichOperand) {
  const GcsimRun run = run_gcsim({"trace", "synth", "--out", "w.json"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("expected the generator GEN.json after 'gcsim trace synth'"), std::string::npos) << run.err;
}

TEST(CommandTable, AnOptionOfAnotherTraceActionIsUnknownToThisOne) {
  const GcsimRun run = run_gcsim({"trace", "synth", "gen.json", "--format", "swf"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("unknown option '--format'"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace gcsim::testing
