#include "workloads/kinds/notebook/notebook_kind.hpp"

#include <set>

#include "workloads/kinds/job_fields.hpp"
#include "workloads/kinds/notebook/notebook_activity.hpp"

namespace gcsim {
namespace {

const std::set<std::string> kNotebookFields = {"activity", "length", "busy_fraction", "burst", "seed", "idle_timeout"};
const std::set<std::string> kPhaseFields = {"idle", "busy"};

// A notebook's activity, listed or drawn from a pattern (notebook_activity.hpp).
NotebookWork read_notebook(const JsonObject& job, std::string_view field) {
  const JsonObject notebook = job.required_object(field);
  notebook.reject_unknown_fields(kNotebookFields);
  NotebookWork work;
  const bool listed = notebook.has("activity");
  if (listed == notebook.has("length"))
    notebook.fail(listed ? "length" : "activity",
                  "exactly one of 'activity' (the idle gaps and bursts, listed) or 'length' (a session drawn from "
                  "busy_fraction, burst and seed) is given");
  if (listed) {
    const nlohmann::json& phases = notebook.required_array("activity");
    for (std::size_t i = 0; i < phases.size(); ++i) {
      const JsonObject phase = element_of(notebook, "activity", i, phases[i]);
      phase.reject_unknown_fields(kPhaseFields);
      work.activity.push_back(
          {phase.optional_quantity("idle", Quantity::kTime, 0), phase.optional_quantity("busy", Quantity::kTime, 0)});
    }
  } else {
    for (const char* field : {"busy_fraction", "burst"})
      if (!notebook.has(field)) notebook.fail(field, "missing: a drawn session needs length, busy_fraction and burst");
    NotebookPattern pattern;
    pattern.length = notebook.required_quantity("length", Quantity::kTime, true);
    pattern.busy_fraction = notebook.required_quantity("busy_fraction", Quantity::kPlain, true);
    if (pattern.busy_fraction > 1) notebook.fail("busy_fraction", "expected a share of the session in (0, 1]");
    pattern.burst = notebook.required_quantity("burst", Quantity::kTime, true);
    pattern.seed = notebook.optional_uint("seed", 0);
    within_horizon(notebook, "length", pattern.length, HorizonQuantity::kTime);
    // Each phase is a step of the run: a mean burst far below the session makes more than any run could take.
    constexpr double kMostBursts = 1e6;
    if (pattern.length * pattern.busy_fraction / pattern.burst > kMostBursts)
      notebook.fail("burst", "makes about " + std::to_string(pattern.length * pattern.busy_fraction / pattern.burst) +
                                 " bursts, more than 1000000: give a longer burst or a shorter length");
    work.activity = draw_activity(pattern);
  }
  if (!(work.seconds() > 0)) notebook.fail("activity", "the session lasts no time: give some idle or busy seconds");
  within_horizon(notebook, "activity", work.seconds(), HorizonQuantity::kTime);
  return work;
}

// The idle timeout after which the notebook gives its GPUs back; 0: none.
Time read_idle_timeout(const JsonObject& entry) {
  const JsonObject notebook = entry.required_object("notebook");
  const Time idle_timeout = within_horizon(
      notebook, "idle_timeout", notebook.optional_quantity("idle_timeout", Quantity::kTime, 0), HorizonQuantity::kTime);
  if (notebook.has("idle_timeout") && idle_timeout <= 0)
    notebook.fail("idle_timeout", "expected a time > 0 (leave it out to hold the GPUs for the whole session)");
  return idle_timeout;
}

}  // namespace

JobWork NotebookKind::read(const JsonObject& entry, std::string_view field, const JobSpec&, const std::string&) const {
  return read_notebook(entry, field);
}

void NotebookKind::check(const JsonObject& entry, JobSpec& job) const {
  read_idle_timeout(entry);
  if (job.checkpoint.keeps_work())
    entry.fail("checkpoint", "a notebook keeps no checkpoints: preempted, its session starts over");
}

// Cut by its idle timeout: each hold a job, "id#2", "id#3"... after the
// first, each submitted after the one before ends.
void NotebookKind::expand(JobSpec job, const JsonObject& entry, JobSink& jobs) const {
  const Time idle_timeout = read_idle_timeout(entry);
  if (idle_timeout <= 0) {
    jobs.add(std::move(job));
    return;
  }
  const std::vector<NotebookHold> holds =
      split_at_idle_timeout(std::get<NotebookWork>(job.work).activity, idle_timeout);
  JobIndex previous = 0;
  for (std::size_t k = 0; k < holds.size(); ++k) {
    JobSpec hold = job;
    hold.work = NotebookWork{holds[k].activity, static_cast<std::uint32_t>(k + 1)};
    if (k > 0) {
      hold.id = job.id + "#" + std::to_string(k + 1);
      JobRelations& relations = hold.change_relations();
      relations.after = {previous};
      relations.after_delay = holds[k].after_previous;
    }
    previous = jobs.add(std::move(hold));
  }
}

void NotebookKind::write(const JobSpec& job, nlohmann::json& entry) const {
  nlohmann::json& activity = entry["notebook"]["activity"] = nlohmann::json::array();
  for (const NotebookPhase& phase : std::get<NotebookWork>(job.work).activity)
    activity.push_back({{"idle", phase.idle}, {"busy", phase.busy}});
}

std::shared_ptr<const JobKind> make_notebook_kind() { return std::make_shared<NotebookKind>(); }

}  // namespace gcsim
