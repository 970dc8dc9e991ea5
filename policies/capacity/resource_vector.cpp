#include "policies/capacity/resource_vector.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace gcsim {
namespace {

constexpr double kShareTolerance = 1e-9;

double tolerance_for(double x) { return 1e-9 * std::max(1.0, std::fabs(x)); }

}  // namespace

ResourceVector ResourceVector::of(const JobSpec& job) {
  return {static_cast<double>(job.gpus), static_cast<double>(job.cpu_cores), job.memory_bytes};
}

ResourceVector& ResourceVector::operator+=(const ResourceVector& other) {
  for (std::size_t k = 0; k < kKinds; ++k) (*this)[k] += other[k];
  return *this;
}

ResourceVector& ResourceVector::operator-=(const ResourceVector& other) {
  for (std::size_t k = 0; k < kKinds; ++k) (*this)[k] -= other[k];
  return *this;
}

ResourceVector ResourceVector::scaled(double factor) const {
  ResourceVector r = *this;
  for (std::size_t k = 0; k < kKinds; ++k) r[k] *= factor;
  return r;
}

ResourceVector componentwise_max(const ResourceVector& a, const ResourceVector& b) {
  ResourceVector r;
  for (std::size_t k = 0; k < ResourceVector::kKinds; ++k) r[k] = std::max(a[k], b[k]);
  return r;
}

ResourceVector componentwise_min(const ResourceVector& a, const ResourceVector& b) {
  ResourceVector r;
  for (std::size_t k = 0; k < ResourceVector::kKinds; ++k) r[k] = std::min(a[k], b[k]);
  return r;
}

ResourceVector round_up(const ResourceVector& r) {
  ResourceVector out;
  for (std::size_t k = 0; k < ResourceVector::kKinds; ++k) out[k] = std::ceil(r[k] - tolerance_for(r[k]));
  return out;
}

ResourceVector round_down(const ResourceVector& r) {
  ResourceVector out;
  for (std::size_t k = 0; k < ResourceVector::kKinds; ++k) out[k] = std::floor(r[k] + tolerance_for(r[k]));
  return out;
}

ResourceVector cluster_totals(const ClusterLayout& layout) {
  ResourceVector total;
  for (NodeId n = 0; n < layout.node_count(); ++n) {
    const NodeGroup& group = layout.group_of_node(n);
    total.gpus += static_cast<double>(layout.node(n).gpus.size());
    total.cpu_cores += group.cpu_cores;
    total.memory_bytes += group.memory_bytes;
  }
  return total;
}

std::array<double, ResourceVector::kKinds> DominantResourceCalculator::sorted_shares(const ResourceVector& r) const {
  std::array<double, ResourceVector::kKinds> shares{};
  for (std::size_t k = 0; k < ResourceVector::kKinds; ++k) shares[k] = describes(k) ? r[k] / cluster_[k] : 0.0;
  std::sort(shares.begin(), shares.end(), std::greater<double>());
  return shares;
}

double DominantResourceCalculator::share(const ResourceVector& r) const { return sorted_shares(r)[0]; }

int DominantResourceCalculator::compare(const ResourceVector& a, const ResourceVector& b) const {
  const auto sa = sorted_shares(a), sb = sorted_shares(b);
  for (std::size_t k = 0; k < ResourceVector::kKinds; ++k) {
    if (sa[k] > sb[k] + kShareTolerance) return 1;
    if (sa[k] < sb[k] - kShareTolerance) return -1;
  }
  return 0;
}

double DominantResourceCalculator::ratio(const ResourceVector& a, const ResourceVector& b) const {
  const double num = share(a), den = share(b);
  if (den <= 0) return num <= 0 ? 0.0 : std::numeric_limits<double>::max();
  return num / den;
}

bool DominantResourceCalculator::fits_in(const ResourceVector& a, const ResourceVector& b) const {
  for (std::size_t k = 0; k < ResourceVector::kKinds; ++k)
    if (describes(k) && a[k] > b[k] + tolerance_for(b[k])) return false;
  return true;
}

bool DominantResourceCalculator::any_positive(const ResourceVector& r) const {
  for (std::size_t k = 0; k < ResourceVector::kKinds; ++k)
    if (describes(k) && r[k] / cluster_[k] > kShareTolerance) return true;
  return false;
}

}  // namespace gcsim
