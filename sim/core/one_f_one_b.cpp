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

OneFOneBDag::OneFOneBDag(std::uint32_t stages, std::uint32_t micro_batches) {
  assert(stages > 0 && "a pipeline has at least one stage");
  const std::uint32_t m = micro_batches;
  const std::size_t ops = 2 * std::size_t{stages} * m;
  waits_for_.assign(ops, {kNone, kNone});
  waited_for_.assign(ops, {kNone, kNone});
  std::vector<std::vector<Op>> orders;
  for (std::uint32_t s = 0; s < stages; ++s) orders.push_back(stage_order(s, stages, m));
  auto number = [&](std::uint32_t s, Op op) { return pipeline_op(s, op.micro_batch, op.backward, m); };
  for (std::uint32_t s = 0; s < stages; ++s)
    for (std::size_t k = 0; k < orders[s].size(); ++k) {
      const std::size_t op = number(s, orders[s][k]);
      if (k > 0) {
        waits_for_[op][0] = number(s, orders[s][k - 1]);
        waited_for_[waits_for_[op][0]][0] = op;
      }
      const bool backward = orders[s][k].backward;
      if (!backward && s > 0) waits_for_[op][1] = pipeline_op(s - 1, orders[s][k].micro_batch, false, m);
      if (backward && s + 1 < stages) waits_for_[op][1] = pipeline_op(s + 1, orders[s][k].micro_batch, true, m);
      if (waits_for_[op][1] != kNone) waited_for_[waits_for_[op][1]][1] = op;
    }
  // Order the ops as the schedule runs them: stage after stage, every op
  // whose predecessor on the other stage has run; 1F1B never waits in a
  // cycle, so each sweep runs at least one op.
  order_.reserve(ops);
  std::vector<bool> ran(ops, false);
  std::vector<std::size_t> next(stages, 0);
  for (bool progressed = true; progressed;) {
    progressed = false;
    for (std::uint32_t s = 0; s < stages; ++s)
      for (; next[s] < orders[s].size(); ++next[s]) {
        const std::size_t op = number(s, orders[s][next[s]]);
        if (waits_for_[op][1] != kNone && !ran[waits_for_[op][1]]) break;
        order_.push_back(op);
        ran[op] = true;
        progressed = true;
      }
  }
  assert(order_.size() == ops && "1F1B runs every op");
}

std::vector<double> OneFOneBDag::earliest_ends(const std::vector<double>& durations) const {
  assert(durations.size() == size() && "one duration per op");
  std::vector<double> ends(size(), 0.0);
  for (const std::size_t op : order_) {
    double ready = 0;
    for (const std::size_t before : waits_for_[op])
      if (before != kNone) ready = std::max(ready, ends[before]);
    ends[op] = ready + durations[op];
  }
  return ends;
}

std::vector<double> OneFOneBDag::latest_ends(const std::vector<double>& durations, double end) const {
  assert(durations.size() == size() && "one duration per op");
  std::vector<double> latest(size(), end);
  for (auto op = order_.rbegin(); op != order_.rend(); ++op)
    for (const std::size_t after : waited_for_[*op])
      if (after != kNone) latest[*op] = std::min(latest[*op], latest[after] - durations[after]);
  return latest;
}

double one_f_one_b_seconds(const std::vector<double>& forward, const std::vector<double>& backward,
                           std::uint32_t micro_batches) {
  assert(!forward.empty() && forward.size() == backward.size() && "one forward and one backward time per stage");
  const auto stages = static_cast<std::uint32_t>(forward.size());
  const OneFOneBDag dag(stages, micro_batches);
  std::vector<double> durations(dag.size());
  for (std::uint32_t s = 0; s < stages; ++s)
    for (std::uint32_t i = 0; i < micro_batches; ++i) {
      durations[pipeline_op(s, i, false, micro_batches)] = forward[s];
      durations[pipeline_op(s, i, true, micro_batches)] = backward[s];
    }
  const std::vector<double> ends = dag.earliest_ends(durations);
  return ends.empty() ? 0.0 : *std::max_element(ends.begin(), ends.end());
}

}  // namespace gcsim
