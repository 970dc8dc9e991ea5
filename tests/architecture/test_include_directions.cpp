// The architecture test: every project include in the source tree points along
// the order docs/architecture.md gives (its table is the one statement of
// it), the order has no cycle, and the check itself catches a planted upward
// or sideways include, naming file and line.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "tests/architecture/include_rules.hpp"

namespace gcsim::architecture {
namespace {
namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Files under `root`'s folders `folders` (.hpp/.cpp) that include `header`, relative to `root`.
std::vector<std::string> files_including(const fs::path& root, const std::vector<std::string>& folders,
                                         const std::string& header) {
  std::vector<std::string> found;
  for (const std::string& folder : folders) {
    if (!fs::is_directory(root / folder)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || (ext != ".hpp" && ext != ".cpp")) continue;
      std::ifstream in(entry.path());
      for (std::string line; std::getline(in, line);) {
        const std::size_t hash = line.find_first_not_of(" \t");
        if (hash == std::string::npos || line[hash] != '#' || line.find("include", hash) == std::string::npos) continue;
        if (line.find("\"" + header + "\"") != std::string::npos) {
          found.push_back(fs::relative(entry.path(), root).generic_string());
          break;
        }
      }
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

// Outside tests, only the engine and the state's own files include the writable scheduler state.
std::vector<std::string> state_includes_outside_the_engine(const fs::path& root) {
  std::vector<std::string> outside;
  for (const std::string& file : files_including(root, {"app", "policies", "sim", "workloads", "traces", "validation"},
                                                 "sim/state/scheduler_state.hpp"))
    if (file.rfind("sim/engine/", 0) != 0 && file != "sim/state/scheduler_state.cpp") outside.push_back(file);
  return outside;
}

LayerTable project_table() { return parse_layer_table(read_file(fs::path(GCSIM_SOURCE_DIR) / "docs/architecture.md")); }

// A throw-away tree of source files.
class PlantedTree {
 public:
  PlantedTree()
      : root_(fs::temp_directory_path() /
              ("gcsim-arch-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++))) {
    fs::create_directories(root_);
  }
  ~PlantedTree() { fs::remove_all(root_); }
  void write(const std::string& relative, const std::string& text) const {
    fs::create_directories((root_ / relative).parent_path());
    std::ofstream(root_ / relative) << text;
  }
  const fs::path& root() const { return root_; }

 private:
  static inline int counter_ = 0;
  fs::path root_;
};

const char* kTable = R"(# Layers
| folder | may include |
|---|---|
| `app` | `lib/high`, `lib/low` |
| `lib/high` | `lib/low` |
| `lib/low` | nothing |
| `side` | `lib/low` |
)";

TEST(IncludeDirections, TheProjectTreeFollowsTheDocumentedOrder) {
  const LayerTable table = project_table();
  std::string report;
  for (const IncludeViolation& v : find_include_violations(GCSIM_SOURCE_DIR, table))
    report += v.file + ":" + std::to_string(v.line) + ": " + v.from + " includes \"" + v.include + "\" of " + v.to +
              ", which docs/architecture.md does not let it include\n";
  EXPECT_TRUE(report.empty()) << report;
}

TEST(StateIncludes, PoliciesSeeOnlyTheReadOnlyViews) {
  const std::vector<std::string> outside = state_includes_outside_the_engine(GCSIM_SOURCE_DIR);
  std::string report;
  for (const std::string& file : outside) report += file + " includes sim/state/scheduler_state.hpp\n";
  EXPECT_TRUE(outside.empty()) << report;
}

TEST(StateIncludes, APlantedPolicyIncludingTheStateIsNamed) {
  const PlantedTree tree;
  tree.write("sim/engine/loop.cpp", "#include \"sim/state/scheduler_state.hpp\"\n");
  tree.write("sim/state/scheduler_state.cpp", "#include \"sim/state/scheduler_state.hpp\"\n");
  tree.write("policies/fifo/fifo.hpp",
             "// uses sim/state/scheduler_state.hpp's views\n#include \"sim/core/policy.hpp\"\n");
  EXPECT_TRUE(state_includes_outside_the_engine(tree.root()).empty());
  tree.write("policies/kit/peek.hpp", "#pragma once\n  #  include \"sim/state/scheduler_state.hpp\"\n");
  EXPECT_EQ(state_includes_outside_the_engine(tree.root()), (std::vector<std::string>{"policies/kit/peek.hpp"}));
}

TEST(KindIncludes, NoKindIncludesAnotherKindsFolder) {
  std::string report;
  for (const IncludeViolation& v : find_cross_kind_includes(GCSIM_SOURCE_DIR, "workloads/kinds"))
    report += v.file + ":" + std::to_string(v.line) + ": " + v.from + " includes \"" + v.include + "\" of " + v.to +
              "; a kind reaches the others only through workloads/kinds/ itself\n";
  EXPECT_TRUE(report.empty()) << report;
}

TEST(KindIncludes, APlantedKindIncludingAnotherKindIsNamedWithFileAndLine) {
  const PlantedTree tree;
  tree.write("k/job_kind.hpp", "#pragma once\n");
  tree.write("k/registry.cpp", "#include \"k/a/a_kind.hpp\"\n#include \"k/b/b_kind.hpp\"\n");
  tree.write("k/a/a_kind.cpp",
             "#include \"k/a/a_kind.hpp\"\n#include \"k/job_kind.hpp\"\n#include \"lib/low/x.hpp\"\n");
  tree.write("k/b/b_kind.cpp", "#include \"k/job_kind.hpp\"\n");
  EXPECT_TRUE(find_cross_kind_includes(tree.root(), "k").empty());

  tree.write("k/b/b_kind.cpp", "#include \"k/job_kind.hpp\"\n\n  # include \"k/a/a_kind.hpp\"\n");
  const std::vector<IncludeViolation> found = find_cross_kind_includes(tree.root(), "k");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].file, "k/b/b_kind.cpp");
  EXPECT_EQ(found[0].line, 3u);
  EXPECT_EQ(found[0].include, "k/a/a_kind.hpp");
  EXPECT_EQ(found[0].from, "k/b");
  EXPECT_EQ(found[0].to, "k/a");
}

TEST(IncludeDirections, ThePythonModuleSitsAboveTheExecutableAndNothingIncludesIt) {
  const LayerTable table = project_table();
  ASSERT_TRUE(table.count("python")) << "docs/architecture.md has no row for python/";
  EXPECT_TRUE(table.at("python").count("app"));
  for (const auto& [folder, targets] : table) EXPECT_FALSE(targets.count("python")) << folder << " includes python";
}

TEST(IncludeDirections, TheDocumentedOrderHasNoCycle) {
  const std::vector<std::string> cycle = find_cycle(project_table());
  std::string text;
  for (const std::string& folder : cycle) text += folder + " -> ";
  EXPECT_TRUE(cycle.empty()) << "cycle: " << text << (cycle.empty() ? "" : cycle.front());
}

TEST(IncludeDirections, EveryFolderOfTheOrderExists) {
  for (const auto& [folder, targets] : project_table()) {
    EXPECT_TRUE(fs::is_directory(fs::path(GCSIM_SOURCE_DIR) / folder)) << folder;
    for (const std::string& target : targets) EXPECT_TRUE(project_table().count(target)) << folder << " -> " << target;
  }
}

TEST(IncludeDirections, APlantedUpwardIncludeIsNamedWithFileAndLine) {
  const PlantedTree tree;
  tree.write("lib/low/base.hpp", "#pragma once\n#include <vector>\n#include \"lib/low/other.hpp\"\n");
  tree.write("lib/low/other.hpp", "#pragma once\n");
  tree.write("lib/high/feature.cpp", "#include \"lib/low/base.hpp\"\n");
  tree.write("app/main.cpp", "#include \"lib/high/feature.hpp\"\n#include \"lib/low/base.hpp\"\n");
  EXPECT_TRUE(find_include_violations(tree.root(), parse_layer_table(kTable)).empty());

  tree.write("lib/low/leak.cpp", "// reaches up\n\n#include \"lib/high/feature.hpp\"\n");
  const std::vector<IncludeViolation> found = find_include_violations(tree.root(), parse_layer_table(kTable));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].file, "lib/low/leak.cpp");
  EXPECT_EQ(found[0].line, 3u);
  EXPECT_EQ(found[0].include, "lib/high/feature.hpp");
  EXPECT_EQ(found[0].from, "lib/low");
  EXPECT_EQ(found[0].to, "lib/high");
}

TEST(IncludeDirections, ASidewaysIncludeIsAViolationToo) {
  const PlantedTree tree;
  tree.write("side/tool.cpp",
             "#include \"lib/low/base.hpp\"\n#include \"app/main.hpp\"\n  # include \"lib/high/x.hpp\"\n");
  const std::vector<IncludeViolation> found = find_include_violations(tree.root(), parse_layer_table(kTable));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].line, 2u);
  EXPECT_EQ(found[0].to, "app");
  EXPECT_EQ(found[1].line, 3u);
  EXPECT_EQ(found[1].to, "lib/high");
}

TEST(IncludeDirections, ACycleInTheTableIsFound) {
  const LayerTable table = parse_layer_table(
      "| folder | may include |\n|---|---|\n| `a` | `b` |\n| `b` | `c` |\n"
      "| `c` | `a` |\n| `d` | nothing |\n");
  const std::vector<std::string> cycle = find_cycle(table);
  EXPECT_EQ(cycle, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(find_cycle(parse_layer_table(kTable)).empty());
}

TEST(IncludeDirections, TheLongestFolderHoldsAFile) {
  const LayerTable table = parse_layer_table(
      "| folder | may include |\n|---|---|\n| `sim` | nothing |\n"
      "| `sim/core` | nothing |\n");
  EXPECT_EQ(folder_of(table, "sim/core/ids.hpp"), "sim/core");
  EXPECT_EQ(folder_of(table, "sim/engine/x.cpp"), "sim");
  EXPECT_EQ(folder_of(table, "simulator/x.cpp"), "");
}

}  // namespace
}  // namespace gcsim::architecture
