// Specification of atomic outputs: staged files appear under their final
// names only on commit, all together, and an uncommitted set leaves nothing.
#include "sim/io/atomic_output.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace gcsim {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Names of the regular files directly under `dir`, sorted.
std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  if (!fs::exists(dir)) return names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A fresh directory under the system temporary directory, removed afterwards.
class AtomicOutputTest : public ::testing::Test {
 protected:
  AtomicOutputTest() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::temp_directory_path() / ("gcsim-atomic-output-" + std::to_string(::getpid()) + "-" + info->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  ~AtomicOutputTest() override {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }

  fs::path root_;
};

TEST_F(AtomicOutputTest, StagedFilesAreInvisibleUnderFinalNamesBeforeCommit) {
  OutputSet out(root_.string());
  out.stage("summary.json", "{}");
  out.stage("jobs.csv", "id\n");
  EXPECT_FALSE(fs::exists(root_ / "summary.json"));
  EXPECT_FALSE(fs::exists(root_ / "jobs.csv"));
  // The content is already on disk, under hidden names.
  const auto staged = files_in(root_);
  ASSERT_EQ(staged.size(), 2u);
  for (const auto& name : staged) EXPECT_EQ(name.front(), '.') << name;
}

TEST_F(AtomicOutputTest, CommitMakesEveryStagedFileVisibleWithItsContent) {
  OutputSet out(root_.string());
  out.stage("summary.json", "{\"jobs\": 2}\n");
  out.stage("jobs.csv", "id,start\na,0\n");
  out.commit();
  EXPECT_EQ(read_text(root_ / "summary.json"), "{\"jobs\": 2}\n");
  EXPECT_EQ(read_text(root_ / "jobs.csv"), "id,start\na,0\n");
  EXPECT_EQ(files_in(root_), (std::vector<std::string>{"jobs.csv", "summary.json"}));
}

TEST_F(AtomicOutputTest, CommittedFilesSurviveTheOutputSet) {
  {
    OutputSet out(root_.string());
    out.stage("summary.json", "done");
    out.commit();
  }
  EXPECT_EQ(read_text(root_ / "summary.json"), "done");
}

TEST_F(AtomicOutputTest, OutputSetDestroyedWithoutCommitLeavesNoFile) {
  {
    OutputSet out(root_.string());
    out.stage("summary.json", "{}");
    out.stage("jobs.csv", "id\n");
    ASSERT_EQ(files_in(root_).size(), 2u);
  }
  EXPECT_TRUE(files_in(root_).empty());
}

TEST_F(AtomicOutputTest, UncommittedSetLeavesAnEarlierFileOfTheSameNameAlone) {
  std::ofstream(root_ / "summary.json") << "previous run";
  {
    OutputSet out(root_.string());
    out.stage("summary.json", "this run");
  }
  EXPECT_EQ(read_text(root_ / "summary.json"), "previous run");
  EXPECT_EQ(files_in(root_), (std::vector<std::string>{"summary.json"}));
}

TEST_F(AtomicOutputTest, CommitReplacesAnEarlierFileOfTheSameName) {
  std::ofstream(root_ / "summary.json") << "previous run";
  OutputSet out(root_.string());
  out.stage("summary.json", "this run");
  out.commit();
  EXPECT_EQ(read_text(root_ / "summary.json"), "this run");
}

TEST_F(AtomicOutputTest, StageCreatesAMissingDirectory) {
  const fs::path nested = root_ / "results" / "run1";
  OutputSet out(nested.string());
  EXPECT_EQ(out.directory(), nested.string());
  out.stage("summary.json", "{}");
  out.commit();
  EXPECT_EQ(read_text(nested / "summary.json"), "{}");
}

TEST_F(AtomicOutputTest, StagingIntoAPathThatIsAFileThrows) {
  std::ofstream(root_ / "occupied") << "x";
  OutputSet out((root_ / "occupied").string());
  EXPECT_THROW(out.stage("summary.json", "{}"), std::runtime_error);
}

TEST_F(AtomicOutputTest, WriteFileAtomicallyWritesTheWholeContentAndNothingElse) {
  const fs::path path = root_ / "sub" / "trace.csv";
  write_file_atomically(path.string(), "a,b\n1,2\n");
  EXPECT_EQ(read_text(path), "a,b\n1,2\n");
  EXPECT_EQ(files_in(root_ / "sub"), (std::vector<std::string>{"trace.csv"}));
}

TEST_F(AtomicOutputTest, WriteFileAtomicallyReplacesAnExistingFile) {
  const fs::path path = root_ / "trace.csv";
  std::ofstream(path) << "old content that is longer";
  write_file_atomically(path.string(), "new");
  EXPECT_EQ(read_text(path), "new");
  EXPECT_EQ(files_in(root_), (std::vector<std::string>{"trace.csv"}));
}

}  // namespace
}  // namespace gcsim
