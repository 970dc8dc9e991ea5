#include "sim/core/one_f_one_b.hpp"

#include <algorithm>
#include <cassert>

namespace gcsim {
namespace {

struct Op {
  bool backward = false;
  std::uint32_t micro_batch = 0;
};

// Stage s's ops in 1F1B order.
std::vector<Op> stage_order(std::uint32_t s, std::uint32_t stages, std::uint32_t m) {
  const std::uint32_t warm_up = std::min(stages - s - 1, m);
  std::vector<Op> ops;
  ops.reserve(2 * std::size_t{m});
  for (std::uint32_t i = 0; i < warm_up; ++i) ops.push_back({false, i});
  for (std::uint32_t i = 0; i + warm_up < m; ++i) {
    ops.push_back({false, warm_up + i});
    ops.push_back({true, i});
  }
  for (std::uint32_t i = m - warm_up; i < m; ++i) ops.push_back({true, i});
  return ops;
}

}  // namespace

double one_f_one_b_seconds(const std::vector<double>& forward, const std::vector<double>& backward,
                           std::uint32_t micro_batches) {
  assert(!forward.empty() && forward.size() == backward.size() && "one forward and one backward time per stage");
  const auto stages = static_cast<std::uint32_t>(forward.size());
  const std::uint32_t m = micro_batches;
  // End times, by stage and micro-batch; negative while not run.
  std::vector<std::vector<double>> forward_end(stages, std::vector<double>(m, -1.0));
  std::vector<std::vector<double>> backward_end(stages, std::vector<double>(m, -1.0));
  std::vector<std::vector<Op>> orders;
  for (std::uint32_t s = 0; s < stages; ++s) orders.push_back(stage_order(s, stages, m));
  std::vector<std::size_t> next(stages, 0);
  std::vector<double> stage_free(stages, 0.0);
  // Run, stage after stage, every op whose predecessor on the other stage has
  // ended; 1F1B never waits in a cycle, so each sweep runs at least one op.
  for (bool progressed = true; progressed;) {
    progressed = false;
    for (std::uint32_t s = 0; s < stages; ++s) {
      for (; next[s] < orders[s].size(); ++next[s]) {
        const Op op = orders[s][next[s]];
        double ready = stage_free[s];
        if (!op.backward && s > 0) {
          if (forward_end[s - 1][op.micro_batch] < 0) break;
          ready = std::max(ready, forward_end[s - 1][op.micro_batch]);
        }
        if (op.backward && s + 1 < stages) {
          if (backward_end[s + 1][op.micro_batch] < 0) break;
          ready = std::max(ready, backward_end[s + 1][op.micro_batch]);
        }
        stage_free[s] = ready + (op.backward ? backward[s] : forward[s]);
        (op.backward ? backward_end : forward_end)[s][op.micro_batch] = stage_free[s];
        progressed = true;
      }
    }
  }
  for (std::uint32_t s = 0; s < stages; ++s) assert(next[s] == orders[s].size() && "1F1B runs every op");
  return *std::max_element(stage_free.begin(), stage_free.end());
}

}  // namespace gcsim
