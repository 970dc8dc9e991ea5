// usage_error.hpp: a command line or a setting given on it that gcsim cannot
// use: an unknown option or key, a missing or malformed value. Its what()
// names the option or setting and what was expected; gcsim prints it after
// the command's name and exits with status 2.
//
//   throw UsageError("trace setting 'sample' expects a fraction in (0, 1], got '2'");
#pragma once

#include <stdexcept>

namespace gcsim {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gcsim
