// cluster_reader.hpp: reads a cluster description (JSON) into a validated
// ClusterSpec.
//
// The format is documented in docs/cluster-format.md. Every object rejects
// unknown fields, every value is type- and range-checked, and every error is
// an InputError naming the file, the JSON path of the object (e.g.
// "node_groups[1] (name 'dgx')") and the field, so a typo never turns into a
// silently different cluster. A spec returned here satisfies what
// ClusterLayout and ClusterGraph require.
//
//   ClusterSpec spec = read_cluster_file("scenarios/clusters/rack-32gpu.json");
//   ClusterLayout layout(spec);
//   ClusterGraph graph(layout);
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sim/core/cluster_spec.hpp"

namespace gcsim {

/// Reads, parses and validates the file at `path`. Throws InputError on a
/// missing file, malformed JSON (with line and column) or invalid content.
ClusterSpec read_cluster_file(const std::string& path);

/// Validates an already parsed document; `file_label` names it in errors.
/// Throws InputError on invalid content.
ClusterSpec parse_cluster_json(const nlohmann::json& doc, const std::string& file_label);

}  // namespace gcsim
