// node_role.hpp: the role a node plays in a GPU-disaggregated cluster, and
// the role a job asks for.
//
// Alibaba's GPU-disaggregated serving (its 2025 DLRM trace) runs each
// application's CPU part on CPU nodes (CN) and its GPU part on heterogeneous
// GPU nodes (HN); Kubernetes keeps them apart with a node label and a node
// selector. A node group may carry a role (ClusterSpec's NodeGroup::role), a
// job may ask for one (JobSpec::role): a job asking CN runs only on CN nodes,
// one asking HN only on HN nodes, one asking none on any node, whatever its
// role.
//
//   NodeRole role = parse_node_role("HN").value();  // NodeRole::kGpuNode
//   node_role_name(role);                           // "HN"
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gcsim {

enum class NodeRole : std::uint8_t { kNone, kCpuNode, kGpuNode };

/// "CN", "HN", or "" for kNone, as the formats write a role.
inline const char* node_role_name(NodeRole role) {
  return role == NodeRole::kCpuNode ? "CN" : role == NodeRole::kGpuNode ? "HN" : "";
}

/// The role named "CN" or "HN"; nullopt for any other text.
inline std::optional<NodeRole> parse_node_role(const std::string& text) {
  if (text == "CN") return NodeRole::kCpuNode;
  if (text == "HN") return NodeRole::kGpuNode;
  return std::nullopt;
}

/// Whether a job asking `asked` may run on a node of role `node`.
inline bool role_allows(NodeRole asked, NodeRole node) { return asked == NodeRole::kNone || asked == node; }

}  // namespace gcsim
