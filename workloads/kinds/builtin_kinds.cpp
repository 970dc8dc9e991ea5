// The kinds of job gcsim knows. A new kind is its folder
// (workloads/kinds/NAME/, defining make_NAME_kind()), its line in the list
// below, its add_subdirectory in CMakeLists.txt and its row in
// docs/workload-format.md.
#include <memory>

#include "workloads/kinds/kind_registry.hpp"

namespace gcsim {

// One line a kind, in the order the format's messages list their fields.
#define GCSIM_BUILTIN_KINDS(KIND) \
  KIND(training)                  \
  KIND(measured)                  \
  KIND(dag)                       \
  KIND(notebook)                  \
  KIND(serving)                   \
  KIND(cpu)                       \
  KIND(llm_training)

#define GCSIM_DECLARE_KIND(name) std::shared_ptr<const JobKind> make_##name##_kind();
GCSIM_BUILTIN_KINDS(GCSIM_DECLARE_KIND)

const KindRegistry& builtin_kinds() {
  static const KindRegistry kinds = [] {
    KindRegistry registry;
#define GCSIM_ADD_KIND(name) registry.add(make_##name##_kind());
    GCSIM_BUILTIN_KINDS(GCSIM_ADD_KIND)
    return registry;
  }();
  return kinds;
}

}  // namespace gcsim
