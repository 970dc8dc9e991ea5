#include "app/plugin_loader.hpp"

#include <dlfcn.h>

#include "app/arguments.hpp"
#include "sim/core/plugin_api.hpp"

namespace gcsim {

void load_policy_plugin(const std::string& path, PolicyRegistry& registry) {
  // A path without a slash would make dlopen search the library path instead.
  const std::string target = path.find('/') == std::string::npos ? "./" + path : path;
  void* library = ::dlopen(target.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) throw UsageError("cannot load plugin " + path + ": " + ::dlerror());
  using VersionFunction = int (*)();
  using RegisterFunction = void (*)(PolicyRegistry&);
  auto version = reinterpret_cast<VersionFunction>(::dlsym(library, "gcsim_plugin_api_version"));
  auto register_plugin = reinterpret_cast<RegisterFunction>(::dlsym(library, "gcsim_register_plugin"));
  if (!version || !register_plugin)
    throw UsageError(
        "plugin " + path +
        " does not export gcsim_plugin_api_version and gcsim_register_plugin (see sim/core/plugin_api.hpp)");
  if (version() != GCSIM_PLUGIN_API_VERSION)
    throw UsageError("plugin " + path + " was built for plugin API version " + std::to_string(version()) +
                     ", this gcsim has version " + std::to_string(GCSIM_PLUGIN_API_VERSION) + ": rebuild it");
  try {
    register_plugin(registry);
  } catch (const std::exception& e) {
    throw UsageError("plugin " + path + " failed to register its policies: " + e.what());
  }
}

}  // namespace gcsim
