#include "tests/architecture/include_rules.hpp"

#include <algorithm>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace gcsim::architecture {
namespace {

std::vector<std::string> table_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  std::string cell;
  std::getline(in, cell, '|');  // before the first bar
  while (std::getline(in, cell, '|')) {
    const auto first = cell.find_first_not_of(' ');
    const auto last = cell.find_last_not_of(' ');
    cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
  }
  if (!cells.empty() && cells.back().empty()) cells.pop_back();  // after the last bar
  return cells;
}

std::vector<std::string> quoted_names(const std::string& cell) {
  std::vector<std::string> names;
  static const std::regex kName("`([^`]+)`");
  for (std::sregex_iterator it(cell.begin(), cell.end(), kName), end; it != end; ++it) names.push_back((*it)[1]);
  return names;
}

bool is_source(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".hpp" || ext == ".cpp" || ext == ".cu" || ext == ".h";
}

}  // namespace

LayerTable parse_layer_table(const std::string& markdown) {
  LayerTable table;
  std::istringstream in(markdown);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = table_cells(line);
    if (!inside) {
      inside = cells.size() >= 2 && cells[0] == "folder" && cells[1] == "may include";
      continue;
    }
    if (line.rfind('|', 0) != 0) break;  // the table ended
    if (cells.size() < 2 || cells[0].find("---") != std::string::npos) continue;
    const std::vector<std::string> folder = quoted_names(cells[0]);
    if (folder.size() != 1) throw std::runtime_error("layer table: a row must name one folder: " + line);
    const std::vector<std::string> targets = quoted_names(cells[1]);
    if (!table.emplace(folder[0], std::set<std::string>(targets.begin(), targets.end())).second)
      throw std::runtime_error("layer table: folder `" + folder[0] + "` has two rows");
  }
  if (table.empty()) throw std::runtime_error("no table headed '| folder | may include |' found");
  return table;
}

std::vector<std::string> find_cycle(const LayerTable& table) {
  enum class Mark { kNone, kOpen, kDone };
  std::map<std::string, Mark> mark;
  std::vector<std::string> path;
  std::vector<std::string> cycle;
  std::function<bool(const std::string&)> visit = [&](const std::string& folder) {
    mark[folder] = Mark::kOpen;
    path.push_back(folder);
    if (auto row = table.find(folder); row != table.end())
      for (const std::string& next : row->second) {
        if (next == folder) continue;
        if (mark[next] == Mark::kOpen) {
          cycle.assign(std::find(path.begin(), path.end(), next), path.end());
          return true;
        }
        if (mark[next] == Mark::kNone && visit(next)) return true;
      }
    path.pop_back();
    mark[folder] = Mark::kDone;
    return false;
  };
  for (const auto& [folder, _] : table)
    if (mark[folder] == Mark::kNone && visit(folder)) return cycle;
  return {};
}

std::string folder_of(const LayerTable& table, const std::string& path) {
  std::string best;
  for (const auto& [folder, _] : table)
    if (path.size() > folder.size() && path.compare(0, folder.size(), folder) == 0 && path[folder.size()] == '/' &&
        folder.size() > best.size())
      best = folder;
  return best;
}

std::vector<IncludeViolation> find_include_violations(const std::filesystem::path& root, const LayerTable& table) {
  namespace fs = std::filesystem;
  static const std::regex kInclude(R"(^\s*#\s*include\s*"([^"]+)\")");
  std::vector<IncludeViolation> violations;
  std::vector<fs::path> files;
  for (const auto& [folder, _] : table) {
    if (!fs::is_directory(root / folder)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / folder))
      if (entry.is_regular_file() && is_source(entry.path())) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  for (const fs::path& file : files) {
    const std::string relative = fs::relative(file, root).generic_string();
    const std::string from = folder_of(table, relative);
    if (from.empty()) continue;
    std::ifstream in(file);
    std::string line;
    std::smatch match;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
      if (!std::regex_search(line, match, kInclude)) continue;
      const std::string include = match[1];
      const std::string to = folder_of(table, include);
      if (to.empty() || to == from || table.at(from).count(to)) continue;
      violations.push_back({relative, number, include, from, to});
    }
  }
  return violations;
}

std::vector<IncludeViolation> find_cross_kind_includes(const std::filesystem::path& root, const std::string& kinds) {
  namespace fs = std::filesystem;
  static const std::regex kInclude(R"(^\s*#\s*include\s*"([^"]+)\")");
  // The kind folder of a path under `kinds` ("workloads/kinds/dag"), or empty
  // for a file of `kinds` itself or a path outside it.
  auto kind_folder = [&](const std::string& path) -> std::string {
    if (path.compare(0, kinds.size() + 1, kinds + "/") != 0) return "";
    const auto slash = path.find('/', kinds.size() + 1);
    return slash == std::string::npos ? "" : path.substr(0, slash);
  };
  std::vector<fs::path> files;
  if (fs::is_directory(root / kinds))
    for (const auto& entry : fs::recursive_directory_iterator(root / kinds))
      if (entry.is_regular_file() && is_source(entry.path())) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<IncludeViolation> violations;
  for (const fs::path& file : files) {
    const std::string relative = fs::relative(file, root).generic_string();
    const std::string from = kind_folder(relative);
    if (from.empty()) continue;
    std::ifstream in(file);
    std::string line;
    std::smatch match;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
      if (!std::regex_search(line, match, kInclude)) continue;
      const std::string to = kind_folder(match[1]);
      if (!to.empty() && to != from) violations.push_back({relative, number, match[1], from, to});
    }
  }
  return violations;
}

}  // namespace gcsim::architecture
