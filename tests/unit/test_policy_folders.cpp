// Where a built-in policy lives: the registered name NAME, with '_' for '-',
// is its folder and its files, policies/NAME/NAME_policy.{hpp,cpp}, and the
// header declares the class NamePolicy (policies/README.md's checklist).
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "policies/register_builtin.hpp"
#include "sim/core/policy_registry.hpp"

namespace gcsim {
namespace {

namespace fs = std::filesystem;

// "fifo-backfill" -> "fifo_backfill".
std::string folder_of(const std::string& name) {
  std::string folder = name;
  for (char& c : folder)
    if (c == '-') c = '_';
  return folder;
}

// "fifo_backfill" -> "FifoBackfillPolicy".
std::string class_of(const std::string& folder) {
  std::string name;
  bool word_start = true;
  for (const char c : folder) {
    if (c == '_') {
      word_start = true;
      continue;
    }
    name += word_start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    word_start = false;
  }
  return name + "Policy";
}

std::string text_of(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(PolicyFolders, TheRulesMapARegisteredNameToItsFolderAndClass) {
  EXPECT_EQ(folder_of("fifo-backfill"), "fifo_backfill");
  EXPECT_EQ(class_of("fifo_backfill"), "FifoBackfillPolicy");
  EXPECT_EQ(class_of("srtf"), "SrtfPolicy");
}

TEST(PolicyFolders, EachBuiltInPolicyLivesInItsNamesFolderAsNamePolicy) {
  PolicyRegistry registry;
  register_builtin(registry);
  ASSERT_FALSE(registry.policies().empty());
  const fs::path root = fs::path(GCSIM_SOURCE_DIR) / "policies";
  for (const PolicyRegistry::Entry& policy : registry.policies()) {
    const std::string folder = folder_of(policy.name);
    const fs::path header = root / folder / (folder + "_policy.hpp");
    EXPECT_TRUE(fs::is_regular_file(header)) << policy.name << ": no " << header;
    EXPECT_TRUE(fs::is_regular_file(root / folder / (folder + "_policy.cpp"))) << policy.name;
    EXPECT_NE(text_of(header).find("class " + class_of(folder) + " "), std::string::npos)
        << policy.name << ": " << header << " declares no class " << class_of(folder);
  }
}

}  // namespace
}  // namespace gcsim
