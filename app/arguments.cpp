#include "app/arguments.hpp"

#include <optional>

#include "sim/core/number_text.hpp"

namespace gcsim {

Arguments::Arguments(int argc, char** argv, const std::vector<FlagSpec>& flags) {
  for (int i = 0; i < argc; ++i) {
    std::string token = argv[i];
    if (token.rfind("--", 0) != 0) throw UsageError("unexpected argument '" + token + "'");
    std::string name = token.substr(2);
    std::optional<std::string> inline_value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    const FlagSpec* spec = nullptr;
    for (const FlagSpec& f : flags)
      if (f.name == name) spec = &f;
    if (!spec) throw UsageError("unknown option '--" + name + "' (see --help)");
    std::string value;
    if (spec->takes_value) {
      if (inline_value) {
        value = *inline_value;
      } else {
        if (i + 1 >= argc) throw UsageError("option '--" + name + "' needs a value");
        value = argv[++i];
      }
    } else if (inline_value) {
      throw UsageError("option '--" + name + "' takes no value");
    }
    auto& slot = values_[name];
    if (!slot.empty() && !spec->repeatable) throw UsageError("option '--" + name + "' given twice");
    slot.push_back(value);
  }
}

std::string Arguments::required(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw UsageError("missing required option '--" + name + "' (see --help)");
  return it->second.front();
}

std::string Arguments::value_or(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second.front();
}

std::vector<std::string> Arguments::all(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::uint64_t Arguments::uint_or(const std::string& name, std::uint64_t fallback) const {
  if (!has(name)) return fallback;
  const std::string text = required(name);
  std::size_t used = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || text[0] == '-')
    throw UsageError("option '--" + name + "' expects a non-negative integer, got '" + text + "'");
  return value;
}

double Arguments::number_or(const std::string& name, double fallback) const {
  if (!has(name)) return fallback;
  const std::string text = required(name);
  const std::optional<double> value = finite_number(text);
  if (!value) throw UsageError("option '--" + name + "' expects a number, got '" + text + "'");
  return *value;
}

}  // namespace gcsim
