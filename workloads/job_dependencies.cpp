#include "workloads/job_dependencies.hpp"

#include <unordered_map>

#include "sim/core/input_error.hpp"

namespace gcsim {
namespace {

// A cycle among the dependencies, as the jobs in order with the first
// repeated at the end; empty when there is none. Iterative depth-first
// search: a workload may chain a million jobs.
std::vector<JobIndex> find_cycle(const std::vector<JobSpec>& jobs) {
  enum class Mark : unsigned char { kNew, kOnPath, kDone };
  std::vector<Mark> mark(jobs.size(), Mark::kNew);
  struct Frame {
    JobIndex job;
    std::size_t next;  // the next of its dependencies to visit
  };
  std::vector<Frame> path;
  for (JobIndex root = 0; root < jobs.size(); ++root) {
    if (mark[root] != Mark::kNew || jobs[root].after().empty()) continue;
    path.push_back({root, 0});
    mark[root] = Mark::kOnPath;
    while (!path.empty()) {
      Frame& top = path.back();
      if (top.next == jobs[top.job].after().size()) {
        mark[top.job] = Mark::kDone;
        path.pop_back();
        continue;
      }
      const JobIndex next = jobs[top.job].after()[top.next++];
      if (mark[next] == Mark::kOnPath) {
        std::vector<JobIndex> cycle;
        std::size_t from = path.size();
        while (path[from - 1].job != next) --from;
        for (std::size_t i = from - 1; i < path.size(); ++i) cycle.push_back(path[i].job);
        cycle.push_back(next);
        return cycle;
      }
      if (mark[next] == Mark::kNew) {
        mark[next] = Mark::kOnPath;
        path.push_back({next, 0});
      }
    }
  }
  return {};
}

}  // namespace

void resolve_dependencies(std::vector<JobSpec>& jobs, const std::vector<NamedDependencies>& named,
                          const std::string& file_label, const std::function<std::string(JobIndex)>& where) {
  if (named.empty()) return;
  std::unordered_map<std::string, JobIndex> index_of;
  index_of.reserve(jobs.size());
  for (JobIndex j = 0; j < jobs.size(); ++j) index_of.emplace(jobs[j].id, j);
  for (const NamedDependencies& entry : named) {
    JobSpec& job = jobs[entry.job];
    std::vector<JobIndex> after;
    for (const std::string& id : entry.after) {
      const auto it = index_of.find(id);
      if (it == index_of.end())
        throw InputError(file_label, where(static_cast<JobIndex>(entry.job)), "after",
                         "waits for job '" + id + "', which the workload does not list");
      after.push_back(it->second);
    }
    job.change_relations().after = std::move(after);
  }
  const std::vector<JobIndex> cycle = find_cycle(jobs);
  if (cycle.empty()) return;
  std::string order;
  for (JobIndex j : cycle) order += (order.empty() ? "" : " -> ") + jobs[j].id;
  throw InputError(file_label, where(cycle.front()), "after",
                   "a dependency cycle: " + order + " (each waits for the next to finish)");
}

}  // namespace gcsim
