// include_rules.hpp: the dependency order of gcsim's folders, read from the
// table in docs/architecture.md, and a check of every project include in a
// source tree against it.
//
// A folder may include its own files and those of the folders its row names;
// anything else (an include pointing up, or sideways to a folder it does not
// name) is a violation, reported with file and line. Tests, benchmarks and
// examples are outside the order: they may include anything.
//
//   const LayerTable table = parse_layer_table(read("docs/architecture.md"));
//   for (const IncludeViolation& v : find_include_violations(root, table)) ...
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace gcsim::architecture {

/// Folder (relative to the project root, e.g. "sim/core") -> the folders it may include.
using LayerTable = std::map<std::string, std::set<std::string>>;

/// Reads the rows of the first Markdown table whose header starts with
/// `| folder | may include |`: each row names a folder in backticks and the
/// folders it may include, in backticks ("nothing" when none). Throws
/// std::runtime_error when no such table exists or a row names a folder twice.
LayerTable parse_layer_table(const std::string& markdown);

/// A cycle among the folders (each includes the next, the last the first),
/// or empty when the table orders them.
std::vector<std::string> find_cycle(const LayerTable& table);

/// The folder of the table holding `path` (relative to the root): the
/// longest folder that is a prefix of it; empty when none is.
std::string folder_of(const LayerTable& table, const std::string& path);

struct IncludeViolation {
  std::string file;      // relative to the root
  std::size_t line = 0;  // 1-based
  std::string include;   // the included path as written
  std::string from, to;  // the folders of the file and of the included path
};

/// Every `#include "..."` in the .hpp/.cpp/.cu/.h files under the table's
/// folders whose target lies in another folder of the table that the file's
/// folder may not include. Includes of files outside every folder of the
/// table (system headers, generated files) are not judged.
std::vector<IncludeViolation> find_include_violations(const std::filesystem::path& root, const LayerTable& table);

/// Every `#include "..."` in a file of a kind's folder (`kinds`/NAME/..., e.g.
/// "workloads/kinds/dag/dag_kind.cpp") of a file in another kind's folder:
/// a kind reaches the others only through what `kinds` itself holds (the
/// kind interface, the registry, the shared field readers). `from` and `to`
/// are the two kinds' folders.
std::vector<IncludeViolation> find_cross_kind_includes(const std::filesystem::path& root, const std::string& kinds);

}  // namespace gcsim::architecture
