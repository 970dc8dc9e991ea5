#include "app/output_files.hpp"

#include <exception>
#include <iostream>

#include "sim/io/atomic_output.hpp"

namespace gcsim {

bool write_output_files(const std::vector<std::pair<std::string, std::string>>& files) {
  try {
    for (const auto& [path, text] : files) write_file_atomically(path, text);
  } catch (const std::exception& e) {
    std::cerr << "gcsim: error: " << e.what() << "\n";
    return false;
  }
  return true;
}

}  // namespace gcsim
