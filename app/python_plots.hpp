// python_plots.hpp: the plot scripts of scripts/ and the Python that runs them.
//
// Plots are drawn by Python scripts that read only gcsim's output files.
// The interpreter is the first that can import the script's library
// (matplotlib, or plotly for the HTML report) of: $GCSIM_PYTHON,
// /usr/bin/python3, python3 on PATH (a python3 first on PATH may lack
// Debian's python3-matplotlib). Scripts are looked for in
// $GCSIM_SCRIPTS_DIR, else the source tree's scripts/.
//
//   PlotMode mode = parse_plot_mode(args.value_or("plots", "auto"));
//   if (auto problem = run_plot_script("plot_comparison.py", {out_dir}, output)) ... *problem ...
//   if (auto problem = script_problem("report_comparison.py", kPlotly)) ... refuse before running ...
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gcsim {

enum class PlotMode { kAuto, kYes, kNo };

/// "auto", "yes" or "no"; throws UsageError naming option '--plots' otherwise.
PlotMode parse_plot_mode(const std::string& text);

/// The folder the plot scripts are in.
std::string scripts_dir();

/// The library a script imports and the Debian package that has it.
struct PythonLibrary {
  const char* module;
  const char* debian_package;
};
inline constexpr PythonLibrary kMatplotlib{"matplotlib", "python3-matplotlib"};
inline constexpr PythonLibrary kPlotly{"plotly", "python3-plotly"};

/// The first interpreter that imports the library, or what was tried and why each failed.
struct PythonSearch {
  std::optional<std::string> interpreter;
  std::string tried;
};
PythonSearch find_python_with(const PythonLibrary& library);
PythonSearch find_python_with_matplotlib();

/// Why scripts_dir()/`script` could not run: it is missing, or no
/// interpreter imports `library` (naming its Debian package and the
/// interpreters tried); nothing when it could.
std::optional<std::string> script_problem(const std::string& script, const PythonLibrary& library);

/// Runs scripts_dir()/`script` with `args`; its output goes to `output`.
/// Returns why the plots could not be drawn, or nothing when they were.
std::optional<std::string> run_plot_script(const std::string& script, const std::vector<std::string>& args,
                                           std::string& output, const PythonLibrary& library = kMatplotlib);

}  // namespace gcsim
