// error_bounds.hpp: how far gcsim's simulation may be from the real run, and
// the check of every bound over a set of compared rows.
//
// A row pairs a reference (a measured time, a closed form or a hand count)
// with gcsim's simulated figure; error = (simulated - reference) / reference.
// Rows are bounded in groups: the median |error| of a group (the ring
// allreduce per size class), or every row's |error| (render-farm schedules,
// closed forms). The bounds are gcsim's accuracy targets:
//
//   ring allreduce over shaped links   median |error| <= 2% for S >= 16 MiB, <= 5% for 1-4 MiB
//   MPI all-to-all over shaped links   median |error| <= 3% for S >= 16 MiB per rank
//   render farm                        |error| <= 2% for tasks of >= 50 ms, <= 5% for 10-50 ms
//   gcsim vs the closed form           |error| <= 0.1% on an idle simulated network
//   the real ring's busbw              >= 95% of the shaped link's measured goodput at 64 MiB
//
//   rows.push_back({"allreduce-shaped", "N=3 S=16MiB", 0.90, "measured", 0.91, shaped_allreduce_bound(16 << 20)});
//   for (const BoundCheck& c : check_bounds(rows)) if (!c.holds) ...
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gcsim::validation {

enum class BoundRule {
  kMedianAbsError,  // the median |error| of the group's rows
  kEveryAbsError,   // the largest |error| of the group's rows
};

struct BoundGroup {
  std::string name;  // also names the check, e.g. "allreduce-shaped S >= 16 MiB"
  BoundRule rule = BoundRule::kEveryAbsError;
  double limit_pct = 0;
};

struct ValidationRow {
  std::string experiment;     // e.g. "allreduce-shaped", "renderfarm-sleep-50ms"
  std::string configuration;  // e.g. "N=3 S=16MiB", "pipelined"
  double reference = 0;
  std::string reference_kind;  // "measured", "closed-form", "hand-count"
  double simulated = 0;
  std::optional<BoundGroup> bound;  // none: reported, not bounded
};

/// (simulated - reference) / reference in percent; throws std::invalid_argument for a zero reference.
double error_pct(const ValidationRow& row);

/// The bound of a ring allreduce over shaped links of `bytes` per rank: none below 1 MiB and between 4 and 16 MiB.
std::optional<BoundGroup> shaped_allreduce_bound(double bytes);
/// The bound of an all-to-all over shaped links of `bytes` per rank: none below 16 MiB.
std::optional<BoundGroup> shaped_alltoall_bound(double bytes);
/// The bound of a render-farm makespan whose tasks take `task_seconds`: none below 10 ms.
std::optional<BoundGroup> renderfarm_bound(double task_seconds);
/// gcsim against the closed form of the same ring.
BoundGroup closed_form_bound();
/// gcsim against a count made by hand (exact up to float rounding).
BoundGroup hand_count_bound();

struct BoundCheck {
  std::string name;
  std::string statistic;  // "median abs error", "max abs error", "busbw / goodput"
  std::size_t rows = 0;
  double value = 0;  // percent
  double limit = 0;  // percent
  bool holds = false;
};

/// One check per bound group present in `rows`, in the order groups first appear.
std::vector<BoundCheck> check_bounds(const std::vector<ValidationRow>& rows);

/// The real ring's busbw at 64 MiB against the goodput measured on the same links: at least 95%.
BoundCheck busbw_check(std::uint32_t ranks, double busbw_Bps, double goodput_Bps);

}  // namespace gcsim::validation
