// output_files.hpp: the files a command writes, each atomically.
//
//   if (!write_output_files({{out, text}, {report, markdown}})) return exit_codes::kOutputError;
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gcsim {

/// Writes every (path, text) with write_file_atomically; false, after saying
/// why on standard error, when one could not be written.
bool write_output_files(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace gcsim
