#include "app/startup_latency_flag.hpp"

#include <fstream>
#include <stdexcept>
#include <vector>

#include "sim/core/input_error.hpp"
#include "sim/core/number_text.hpp"
#include "sim/core/usage_error.hpp"
#include "sim/io/work_horizon.hpp"
#include "sim/io/json_input.hpp"

namespace gcsim {
namespace {

[[noreturn]] void bad(const std::string& text, const std::string& why) {
  throw UsageError("option '--startup-latency' expects SECONDS, lognormal:MU:SIGMA or empirical:FILE (" + why +
                   "), got '" + text + "'");
}

std::vector<double> read_latency_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "", "", "cannot open the start-up latency file");
  std::vector<double> samples;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    const auto last = line.find_last_not_of(" \t\r");
    const std::string field = line.substr(first, last - first + 1);
    const auto seconds = finite_number(field);
    if (!seconds || *seconds < 0)
      throw InputError(path, "line " + std::to_string(number), "seconds",
                       "not a latency in seconds >= 0 (got '" + field + "')");
    samples.push_back(*seconds);
  }
  if (samples.empty()) throw InputError(path, "", "", "no latency in the start-up latency file");
  return samples;
}

}  // namespace

StartupLatency parse_startup_latency(const std::string& text, std::uint64_t seed) {
  if (text.rfind("empirical:", 0) == 0) {
    const std::string path = text.substr(10);
    if (path.empty()) bad(text, "no FILE");
    return StartupLatency::empirical(read_latency_file(path), seed);
  }
  if (text.rfind("lognormal:", 0) == 0) {
    const std::string rest = text.substr(10);
    const auto colon = rest.find(':');
    if (colon == std::string::npos) bad(text, "lognormal needs MU and SIGMA");
    const auto mu = finite_number(rest.substr(0, colon)), sigma = finite_number(rest.substr(colon + 1));
    if (!mu || !sigma || *sigma < 0) bad(text, "MU a number, SIGMA a number >= 0");
    if (*mu > 30) bad(text, "MU above 30 is a median beyond 10^13 s");
    return StartupLatency::lognormal(*mu, *sigma, seed);
  }
  const auto seconds = parse_quantity(text, Quantity::kTime);
  if (!seconds || *seconds < 0 || beyond_horizon(*seconds, HorizonQuantity::kTime)) bad(text, "a time >= 0");
  return StartupLatency::fixed(*seconds);
}

}  // namespace gcsim
