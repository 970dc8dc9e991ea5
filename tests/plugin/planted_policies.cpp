// Policies that misbehave on purpose, loaded with `gcsim run --plugin`, for
// end-to-end tests of how the engine and the command line contain them:
//   ping-pong      two jobs asking every GPU take turns: each call preempts
//                  the running job and starts the waiting one, and asks to be
//                  called again a nanosecond later (the same instant to the
//                  engine), forever
//   time-slices    the same turns a second apart: each call preempts the
//                  running job, starts the waiting one and asks to be called
//                  again a second later
//   out-of-memory  starts the first waiting job, then throws std::bad_alloc
//                  at its next call, while that job runs
//   throws         throws std::runtime_error("no plan today") at its first call
//   one-call-per-instant
//                  first come, first served on the lowest free GPUs; throws
//                  when called twice at one instant without having asked to
//                  be: the engine owes it every change of an instant at once
//   first-free     first come, first served on the lowest free GPUs
//   first-free-late
//                  the same, but a job starts only once it has waited a
//                  minute: a regressed policy for `gcsim bench` to catch
//   miscounts      first come, first served on the lowest free GPUs,
//                  keeping a count of the GPUs its jobs hold that forgets
//                  the jobs that ended: its check_invariants() finds the
//                  count wrong once a job has ended
#include <new>
#include <numeric>
#include <stdexcept>
#include <string>

#include "sim/core/invariant_violation.hpp"
#include "sim/core/plugin_api.hpp"

namespace {

using namespace gcsim;

// The first `count` GPUs of the cluster.
std::vector<GpuId> first_gpus(std::size_t count) {
  std::vector<GpuId> gpus(count);
  std::iota(gpus.begin(), gpus.end(), GpuId{0});
  return gpus;
}

// Each call preempts the running job, starts the waiting one and asks to be
// called again `GapNanoseconds` later: ping-pong (a nanosecond, the same instant to
// the engine) and time-slices (a second).
template <const char* Name, long GapNanoseconds>
class TakingTurns final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return Name; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override {
    if (ctx.jobs.waiting().empty()) return;
    if (!ctx.jobs.running().empty()) plan.preempt(ctx.jobs.running().front());
    const JobIndex next = ctx.jobs.waiting().front();
    plan.allocate(next, first_gpus(ctx.jobs.spec(next).gpus));
    plan.wake_at(ctx.now + static_cast<double>(GapNanoseconds) / 1e9);
  }
};
constexpr char kPingPong[] = "ping-pong";
constexpr char kTimeSlices[] = "time-slices";
using PingPong = TakingTurns<kPingPong, 1>;
using TimeSlices = TakingTurns<kTimeSlices, 1000000000>;

class OutOfMemory final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "out-of-memory"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override {
    if (!ctx.jobs.running().empty()) throw std::bad_alloc();
    const JobIndex next = ctx.jobs.waiting().front();
    plan.allocate(next, first_gpus(ctx.jobs.spec(next).gpus));
    plan.wake_at(ctx.now + 1);
  }
};

class Throws final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "throws"; }
  void schedule(const SchedulingContext&, Plan&) override { throw std::runtime_error("no plan today"); }
};

class OneCallPerInstant final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "one-call-per-instant"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override {
    if (ctx.now == last_call_) throw std::runtime_error("called twice at t=" + std::to_string(ctx.now));
    last_call_ = ctx.now;
    std::vector<GpuId> free;
    for (GpuId g = 0; g < ctx.cluster.layout().gpu_count(); ++g)
      if (ctx.cluster.is_free(g)) free.push_back(g);
    std::size_t taken = 0;
    for (JobIndex job : ctx.jobs.waiting()) {
      const std::size_t gpus = ctx.jobs.spec(job).gpus;
      if (free.size() - taken < gpus) return;
      plan.allocate(job, std::vector<GpuId>(free.begin() + static_cast<std::ptrdiff_t>(taken),
                                            free.begin() + static_cast<std::ptrdiff_t>(taken + gpus)));
      taken += gpus;
    }
  }

 private:
  Time last_call_ = -1;
};

// First come, first served on the lowest free GPUs, each job `DelaySeconds`
// after it was submitted at the earliest.
template <const char* Name, int DelaySeconds>
class FirstFree final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return Name; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override {
    std::vector<GpuId> free;
    for (GpuId g = 0; g < ctx.cluster.layout().gpu_count(); ++g)
      if (ctx.cluster.is_free(g)) free.push_back(g);
    std::size_t taken = 0;
    for (JobIndex job : ctx.jobs.waiting()) {
      const Time due = ctx.jobs.runtime(job).submitted + DelaySeconds;
      if (due > ctx.now) return plan.wake_at(due);
      const std::size_t gpus = ctx.jobs.spec(job).gpus;
      if (free.size() - taken < gpus) return;
      plan.allocate(job, std::vector<GpuId>(free.begin() + static_cast<std::ptrdiff_t>(taken),
                                            free.begin() + static_cast<std::ptrdiff_t>(taken + gpus)));
      taken += gpus;
    }
  }
};
constexpr char kFirstFree[] = "first-free";
constexpr char kFirstFreeLate[] = "first-free-late";

class Miscounts final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "miscounts"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override {
    believed_ = held_;
    std::size_t free = ctx.cluster.free_gpu_count();
    GpuId next_free = 0;
    for (JobIndex job : ctx.jobs.waiting()) {
      const std::size_t gpus = ctx.jobs.spec(job).gpus;
      if (gpus > free) return;
      std::vector<GpuId> taken;
      for (; taken.size() < gpus; ++next_free)
        if (ctx.cluster.is_free(next_free)) taken.push_back(next_free);
      plan.allocate(job, taken);
      free -= gpus;
      held_ += gpus;  // never taken back when the job ends
    }
  }
  void check_invariants(const SchedulingContext& ctx) const override {
    std::size_t held = 0;
    for (JobIndex job : ctx.jobs.running()) held += ctx.jobs.runtime(job).gpus.size();
    if (held != believed_)
      throw InvariantViolation(
          "queue-usage",
          "the policy counts " + std::to_string(believed_) + " GPUs held; " + std::to_string(held) + " are",
          ctx.jobs.running());
  }

 private:
  std::size_t held_ = 0;      // GPUs its jobs hold, by this policy's count
  std::size_t believed_ = 0;  // the same as the call began, before its own starts
};

template <class Policy>
std::unique_ptr<SchedulingPolicy> make(const PolicyOptions&, std::unique_ptr<PlacementPolicy>) {
  return std::make_unique<Policy>();
}

}  // namespace

extern "C" int gcsim_plugin_api_version() { return GCSIM_PLUGIN_API_VERSION; }

extern "C" void gcsim_register_plugin(gcsim::PolicyRegistry& registry) {
  registry.add_policy("ping-pong", "two jobs take turns at one instant, forever", "", make<PingPong>);
  registry.add_policy("time-slices", "two jobs take turns a second at a time", "", make<TimeSlices>);
  registry.add_policy("out-of-memory", "throws std::bad_alloc while a job runs", "", make<OutOfMemory>);
  registry.add_policy("throws", "throws at its first call", "", make<Throws>);
  registry.add_policy("one-call-per-instant", "first come, first served; throws when called twice at one instant", "",
                      make<OneCallPerInstant>);
  registry.add_policy("first-free", "first come, first served on the lowest free GPUs", "",
                      make<FirstFree<kFirstFree, 0>>);
  registry.add_policy("first-free-late", "first come, first served, each job a minute late", "",
                      make<FirstFree<kFirstFreeLate, 60>>);
  registry.add_policy("miscounts", "first come, first served; its count of GPUs held forgets ended jobs", "",
                      make<Miscounts>);
}
