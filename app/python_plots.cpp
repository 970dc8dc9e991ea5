#include "app/python_plots.hpp"

#include <cstdlib>
#include <filesystem>
#include <set>
#include <utility>

#include "app/arguments.hpp"
#include "app/child_process.hpp"

#ifndef GCSIM_SOURCE_DIR
#define GCSIM_SOURCE_DIR "."
#endif

namespace gcsim {

namespace fs = std::filesystem;

PlotMode parse_plot_mode(const std::string& text) {
  if (text == "auto") return PlotMode::kAuto;
  if (text == "yes") return PlotMode::kYes;
  if (text == "no") return PlotMode::kNo;
  throw UsageError("option '--plots' must be 'auto', 'yes' or 'no', got '" + text + "'");
}

std::string scripts_dir() {
  const char* from_env = std::getenv("GCSIM_SCRIPTS_DIR");
  if (from_env && *from_env) return from_env;
  return std::string(GCSIM_SOURCE_DIR) + "/scripts";
}

PythonSearch find_python_with(const PythonLibrary& library) {
  std::vector<std::pair<std::string, std::optional<std::string>>> candidates;  // label, path
  const char* from_env = std::getenv("GCSIM_PYTHON");
  candidates.emplace_back("$GCSIM_PYTHON", from_env && *from_env ? std::optional<std::string>(from_env) : std::nullopt);
  candidates.emplace_back("/usr/bin/python3", "/usr/bin/python3");
  candidates.emplace_back("python3 on PATH", find_in_path("python3"));

  PythonSearch search;
  std::set<std::string> checked;
  for (const auto& [label, path] : candidates) {
    search.tried += search.tried.empty() ? "" : "; ";
    search.tried += label;
    if (!path) {
      search.tried += label == "$GCSIM_PYTHON" ? ": not set" : ": not found";
      continue;
    }
    if (label != *path) search.tried += " (" + *path + ")";
    // The same path twice is tried once. Paths are compared as written, not
    // resolved: a virtual environment's python3 links to the system's
    // interpreter but imports the environment's packages.
    std::error_code ec;
    if (!checked.insert(fs::absolute(*path, ec).lexically_normal().string()).second) {
      search.tried += ": same as above";
      continue;
    }
    if (!fs::exists(*path, ec)) {
      search.tried += ": not found";
      continue;
    }
    if (run_child(*path, {"-c", std::string("import ") + library.module}, ChildOutput::kDiscard).exit_code != 0) {
      search.tried += std::string(": cannot import ") + library.module;
      continue;
    }
    search.interpreter = *path;
    return search;
  }
  return search;
}

PythonSearch find_python_with_matplotlib() { return find_python_with(kMatplotlib); }

namespace {

/// The script's path and its interpreter, or why it cannot run.
std::optional<std::string> locate_script(const std::string& script, const PythonLibrary& library, std::string& path,
                                         PythonSearch& search) {
  path = scripts_dir() + "/" + script;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    return "the plot script " + path + " is missing (set GCSIM_SCRIPTS_DIR to the folder that holds it)";
  search = find_python_with(library);
  if (!search.interpreter)
    return std::string("no Python interpreter that can import ") + library.module + " (tried " + search.tried +
           "); install " + library.module + " (Debian: " + library.debian_package + ") or set GCSIM_PYTHON";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> script_problem(const std::string& script, const PythonLibrary& library) {
  std::string path;
  PythonSearch search;
  return locate_script(script, library, path, search);
}

std::optional<std::string> run_plot_script(const std::string& script, const std::vector<std::string>& args,
                                           std::string& output, const PythonLibrary& library) {
  std::string path;
  PythonSearch search;
  if (auto problem = locate_script(script, library, path, search)) return problem;
  std::vector<std::string> argv{path};
  argv.insert(argv.end(), args.begin(), args.end());
  const ChildResult result = run_child(*search.interpreter, argv);
  output = result.output;
  if (result.exit_code != 0)
    return path + " failed (exit status " + std::to_string(result.exit_code) + "):\n" + result.output;
  return std::nullopt;
}

}  // namespace gcsim
