#include "app/policy_option_flags.hpp"

#include "app/arguments.hpp"

namespace gcsim {

PolicyOptions policy_options(const std::vector<std::string>& pairs, std::uint64_t seed) {
  try {
    return PolicyOptions::from_pairs(pairs, seed);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("option '--policy-opt' ") + e.what());
  }
}

}  // namespace gcsim
