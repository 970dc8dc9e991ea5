// arguments.hpp: a small command-line reader for gcsim's subcommands.
//
// Accepts "--name value", "--name=value" and boolean "--flag". Unknown flags,
// missing values and repeated single-valued flags are UsageErrors naming the
// flag. Repeatable flags (like --policy-opt) collect every value.
//
//   Arguments args(argc - 2, argv + 2, {{"cluster", true}, {"quiet", false}});
//   std::string cluster = args.required("cluster");
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/core/usage_error.hpp"

namespace gcsim {

struct FlagSpec {
  std::string name;
  bool takes_value = true;
  bool repeatable = false;
};

class Arguments {
 public:
  Arguments(int argc, char** argv, const std::vector<FlagSpec>& flags);

  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::string required(const std::string& name) const;
  std::string value_or(const std::string& name, const std::string& fallback) const;
  std::vector<std::string> all(const std::string& name) const;
  std::uint64_t uint_or(const std::string& name, std::uint64_t fallback) const;
  double number_or(const std::string& name, double fallback) const;

 private:
  std::map<std::string, std::vector<std::string>> values_;
};

}  // namespace gcsim
