// resource_vector.hpp: GPUs, CPU cores and host memory as one quantity, and
// YARN's DominantResourceCalculator over a cluster's totals.
//
// A queue's or a user's usage, a job's request and a queue's guarantee are
// ResourceVectors. They are compared the way YARN's DominantResourceCalculator
// compares Resources: by their shares of the cluster, largest share first
// (the dominant share), then the next largest. A resource the cluster does not
// describe (a total of 0) takes no part in shares or comparisons.
//
//   DominantResourceCalculator drc(cluster_totals(layout));   // e.g. {8 GPUs, 32 cores, 256 GB}
//   drc.share({2, 16, 0});                                    // 0.5: the cores dominate
//   drc.greater(queue_used + request, queue_maximum);         // over the maximum?
#pragma once

#include <array>
#include <cstddef>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/job_spec.hpp"

namespace gcsim {

struct ResourceVector {
  static constexpr std::size_t kKinds = 3;  // GPUs, CPU cores, host memory bytes

  double gpus = 0;
  double cpu_cores = 0;
  double memory_bytes = 0;

  /// A job's request: its GPUs, CPU cores and host memory.
  static ResourceVector of(const JobSpec& job);

  double operator[](std::size_t kind) const { return kind == 0 ? gpus : kind == 1 ? cpu_cores : memory_bytes; }
  double& operator[](std::size_t kind) { return kind == 0 ? gpus : kind == 1 ? cpu_cores : memory_bytes; }

  ResourceVector& operator+=(const ResourceVector& other);
  ResourceVector& operator-=(const ResourceVector& other);
  friend ResourceVector operator+(ResourceVector a, const ResourceVector& b) { return a += b; }
  friend ResourceVector operator-(ResourceVector a, const ResourceVector& b) { return a -= b; }
  /// Every component multiplied by `factor` (YARN's Resources.multiply, without truncation).
  ResourceVector scaled(double factor) const;
  bool operator==(const ResourceVector& other) const {
    return gpus == other.gpus && cpu_cores == other.cpu_cores && memory_bytes == other.memory_bytes;
  }
};

/// Component by component.
ResourceVector componentwise_max(const ResourceVector& a, const ResourceVector& b);
ResourceVector componentwise_min(const ResourceVector& a, const ResourceVector& b);
/// Every component rounded up (down) to a whole unit: GPUs, cores, bytes
/// (YARN's normalizeUp / roundDown with a step of one unit). Values within
/// 1e-9 (relative) of a whole number count as that number, so 0.6 * 10 is 6.
ResourceVector round_up(const ResourceVector& r);
ResourceVector round_down(const ResourceVector& r);

/// The cluster's GPUs, CPU cores and host memory, summed over its nodes.
ResourceVector cluster_totals(const ClusterLayout& layout);

class DominantResourceCalculator {
 public:
  explicit DominantResourceCalculator(const ResourceVector& cluster) : cluster_(cluster) {}

  const ResourceVector& cluster() const { return cluster_; }
  /// Whether the cluster has any of this kind (only those take part).
  bool describes(std::size_t kind) const { return cluster_[kind] > 0; }

  /// The largest of r's shares of the cluster (0 for an empty vector).
  double share(const ResourceVector& r) const;
  /// -1, 0 or 1: shares compared largest first (YARN's DRC compare); shares
  /// within 1e-9 of each other are equal.
  int compare(const ResourceVector& a, const ResourceVector& b) const;
  bool less(const ResourceVector& a, const ResourceVector& b) const { return compare(a, b) < 0; }
  bool less_equal(const ResourceVector& a, const ResourceVector& b) const { return compare(a, b) <= 0; }
  bool greater(const ResourceVector& a, const ResourceVector& b) const { return compare(a, b) > 0; }
  bool greater_equal(const ResourceVector& a, const ResourceVector& b) const { return compare(a, b) >= 0; }
  /// YARN's Resources.min / max: the whole vector that compares smaller
  /// (larger); `a` on a tie.
  const ResourceVector& min(const ResourceVector& a, const ResourceVector& b) const {
    return compare(a, b) <= 0 ? a : b;
  }
  const ResourceVector& max(const ResourceVector& a, const ResourceVector& b) const {
    return compare(a, b) >= 0 ? a : b;
  }
  /// share(a) / share(b) (YARN's DRC divide); 0 when both are empty, a very
  /// large number when only `b` is.
  double ratio(const ResourceVector& a, const ResourceVector& b) const;
  /// Every described component of `a` at most that of `b` (YARN's fitsIn).
  bool fits_in(const ResourceVector& a, const ResourceVector& b) const;
  /// Some described component is above zero.
  bool any_positive(const ResourceVector& r) const;

 private:
  std::array<double, ResourceVector::kKinds> sorted_shares(const ResourceVector& r) const;

  ResourceVector cluster_;
};

}  // namespace gcsim
