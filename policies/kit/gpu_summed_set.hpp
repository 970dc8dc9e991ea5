// gpu_summed_set.hpp: an ordered set of running jobs that also answers, in
// O(log n), how many GPUs the jobs past a point of the order hold.
//
// A preemptive policy keeps its running jobs in the order it takes victims
// in, and must know, for each waiting job it considers, how many GPUs the
// running jobs it may preempt hold: those at the end of the order, past the
// first one it may not take. Walking the order to add them up costs O(r) per
// waiting job. Here every node of a balanced tree (libstdc++'s policy-based
// red-black tree) also holds the GPUs of its subtree, so that sum is one
// descent from the root. Entries iterate in order, like a std::set.
//
// `Entry` is ordered by operator< and has a `std::size_t gpus` member that
// takes no part in the order.
//
//   GpuSummedSet<Run> running;
//   running.insert({end, submit, job, gpus});
//   // the GPUs of the entries for which `longer` holds, assuming it holds
//   // for a suffix of the order:
//   std::size_t room = running.gpus_of_suffix([&](const Run& r) { return r.end > now + k; });
#pragma once

#include <cstddef>
#include <ext/pb_ds/assoc_container.hpp>
#include <ext/pb_ds/tree_policy.hpp>
#include <functional>

namespace gcsim {

namespace gpu_summed_set_detail {

// Keeps each node's metadata equal to the GPUs of its subtree.
template <class NodeConstIterator, class NodeIterator, class Compare, class Allocator>
struct SubtreeGpus {
  using metadata_type = std::size_t;

  void operator()(NodeIterator node, NodeConstIterator end) {
    std::size_t gpus = (**node).gpus;
    if (node.get_l_child() != end) gpus += node.get_l_child().get_metadata();
    if (node.get_r_child() != end) gpus += node.get_r_child().get_metadata();
    const_cast<metadata_type&>(node.get_metadata()) = gpus;
  }

  virtual NodeConstIterator node_begin() const = 0;
  virtual NodeConstIterator node_end() const = 0;
  virtual ~SubtreeGpus() = default;
};

}  // namespace gpu_summed_set_detail

template <class Entry>
class GpuSummedSet {
  using Tree = __gnu_pbds::tree<Entry, __gnu_pbds::null_type, std::less<Entry>, __gnu_pbds::rb_tree_tag,
                                gpu_summed_set_detail::SubtreeGpus>;

 public:
  using const_iterator = typename Tree::const_iterator;

  void insert(const Entry& entry) { tree_.insert(entry); }
  /// Takes out the entry equal to `entry`, if there is one.
  void erase(const Entry& entry) { tree_.erase(entry); }
  bool empty() const { return tree_.empty(); }
  const_iterator begin() const { return tree_.begin(); }
  const_iterator end() const { return tree_.end(); }

  /// The GPUs of the entries for which `in_suffix` holds. `in_suffix` must
  /// be false and then true along the order (a suffix, possibly empty).
  template <class Predicate>
  std::size_t gpus_of_suffix(Predicate in_suffix) const {
    std::size_t gpus = 0;
    auto node = tree_.node_begin();
    const auto end = tree_.node_end();
    while (node != end) {
      if (in_suffix(**node)) {
        gpus += (**node).gpus;
        if (node.get_r_child() != end) gpus += node.get_r_child().get_metadata();
        node = node.get_l_child();
      } else {
        node = node.get_r_child();
      }
    }
    return gpus;
  }

 private:
  Tree tree_;
};

}  // namespace gcsim
