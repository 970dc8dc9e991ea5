#include "sim/report/trace_events.hpp"

#include <nlohmann/json.hpp>

namespace gcsim {
namespace {

using Event = nlohmann::ordered_json;

constexpr int kGpuProcess = 1, kCpuProcess = 2, kClusterProcess = 3;

double microseconds(Time seconds) { return seconds * 1e6; }

const char* end_name(RunEnd how) {
  switch (how) {
    case RunEnd::kFinished:
      return "finished";
    case RunEnd::kFailed:
      return "failed";
    case RunEnd::kPreempted:
      return "preempted";
    case RunEnd::kWithdrawn:
      return "withdrawn";
    case RunEnd::kUnfinished:
      return "unfinished";
  }
  return "?";
}

// Writes events one at a time, comma-separated: a large schedule is never held whole.
class EventWriter {
 public:
  explicit EventWriter(std::ostream& out) : out_(out) { out_ << "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n"; }
  void add(const Event& event) {
    out_ << (first_ ? "" : ",\n") << event.dump();
    first_ = false;
  }
  void close() { out_ << "\n]}\n"; }

 private:
  std::ostream& out_;
  bool first_ = true;
};

Event metadata(const char* what, int pid, std::uint64_t tid, const std::string& name) {
  return {{"name", what}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}};
}

Event instant(const std::string& name, Time at, int pid, std::uint64_t tid, const char* scope) {
  return {{"name", name}, {"ph", "i"}, {"s", scope}, {"ts", microseconds(at)}, {"pid", pid}, {"tid", tid}};
}

}  // namespace

void write_trace_events(std::ostream& out, const std::vector<JobSpec>& jobs, const ClusterLayout& layout,
                        const RunRecord& record) {
  EventWriter events(out);
  events.add(metadata("process_name", kGpuProcess, 0, "GPUs"));
  events.add(metadata("process_name", kClusterProcess, 0, "cluster"));
  for (GpuId g = 0; g < layout.gpu_count(); ++g)
    events.add(metadata("thread_name", kGpuProcess, g, layout.gpu_label(g)));
  bool cpu_jobs = false;
  for (const RunSlice& run : record.runs) cpu_jobs = cpu_jobs || !run.nodes.empty();
  if (cpu_jobs) {
    events.add(metadata("process_name", kCpuProcess, 0, "CPU jobs"));
    for (NodeId n = 0; n < layout.node_count(); ++n)
      events.add(metadata("thread_name", kCpuProcess, n, layout.node(n).name));
  }

  for (const RunSlice& run : record.runs) {
    const JobSpec& job = jobs[run.job];
    Event slice = {{"name", job.id},
                   {"cat", end_name(run.how)},
                   {"ph", "X"},
                   {"ts", microseconds(run.start)},
                   {"dur", microseconds(run.end - run.start)},
                   {"pid", kGpuProcess},
                   {"tid", 0},
                   {"args", {{"job", job.id}, {"user", job.user}, {"queue", job.queue}, {"end", end_name(run.how)}}}};
    for (NodeId node : run.nodes) {
      slice["pid"] = kCpuProcess;
      slice["tid"] = node;
      events.add(slice);
    }
    for (GpuId g : run.gpus) {
      slice["tid"] = g;
      events.add(slice);
    }
    if (run.how == RunEnd::kPreempted || run.how == RunEnd::kFailed) {
      const bool on_gpus = !run.gpus.empty();
      events.add(instant(std::string(end_name(run.how)) + " " + job.id, run.end, on_gpus ? kGpuProcess : kCpuProcess,
                         on_gpus ? run.gpus.front() : run.nodes.front(), "t"));
    }
  }
  for (const NodeEvent& failure : record.node_failure_events)
    events.add(instant("node failed: " + layout.node(failure.node).name, failure.at, kClusterProcess, 0, "g"));
  if (record.deadlock) {
    Event deadlock = instant("deadlock", record.deadlock->at, kClusterProcess, 0, "g");
    deadlock["args"]["jobs"] = nlohmann::ordered_json::array();
    for (JobIndex j : record.deadlock->jobs) deadlock["args"]["jobs"].push_back(jobs[j].id);
    events.add(deadlock);
  }
  for (const TimelinePoint& point : record.timeline) {
    events.add({{"name", "GPUs"},
                {"ph", "C"},
                {"ts", microseconds(point.time)},
                {"pid", kClusterProcess},
                {"tid", 0},
                {"args", {{"allocated", point.allocated}, {"busy", point.busy}}}});
    events.add({{"name", "queued jobs"},
                {"ph", "C"},
                {"ts", microseconds(point.time)},
                {"pid", kClusterProcess},
                {"tid", 0},
                {"args", {{"queued", point.queued}}}});
  }
  events.close();
}

}  // namespace gcsim
