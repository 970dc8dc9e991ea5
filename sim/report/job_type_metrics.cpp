#include "sim/report/job_type_metrics.hpp"

#include <algorithm>
#include <iterator>

#include "sim/core/work_forms.hpp"

namespace gcsim {

std::string_view job_type(const JobSpec& job) { return form_name(job.work); }

namespace {

// Jobs of each type counted, and the JCTs and waits of the finished ones, a
// job at a time: no list of every job is made (a million jobs would cost
// 48 MB more at the peak of writing the outputs).
class TypeTally {
 public:
  void add(std::string_view type, std::string_view state, Time jct, Time wait) {
    const std::size_t t = index_of(type);
    // A serving replica completes nothing: its deployment's latency
    // (RunRecord::serving, serving.csv) says how it did.
    if (t == std::size(kFormNames) || kFormNames[t] == "serving") return;
    Tally& tally = tallies_[t];
    ++tally.jobs;
    if (state == "failed") ++tally.failed;
    if (state != "finished") return;
    tally.jct.push_back(jct);
    tally.wait.push_back(wait);
  }
  std::vector<JobTypeFigures> figures() {
    std::vector<JobTypeFigures> out;
    for (std::size_t t = 0; t < std::size(kFormNames); ++t) {
      Tally& tally = tallies_[t];
      if (tally.jobs == 0) continue;
      JobTypeFigures f;
      f.type = kFormNames[t];
      f.jobs = tally.jobs;
      f.failed = tally.failed;
      f.finished = tally.jct.size();
      f.jct = summarize(std::move(tally.jct));
      f.wait = summarize(std::move(tally.wait));
      out.push_back(std::move(f));
    }
    return out;
  }

 private:
  static std::size_t index_of(std::string_view type) {
    return static_cast<std::size_t>(std::find(std::begin(kFormNames), std::end(kFormNames), type) -
                                    std::begin(kFormNames));
  }
  struct Tally {
    std::size_t jobs = 0, failed = 0;
    std::vector<double> jct, wait;
  };
  Tally tallies_[std::size(kFormNames)];
};

}  // namespace

std::vector<JobTypeFigures> job_type_figures(const std::vector<TypedJob>& jobs) {
  TypeTally tally;
  for (const TypedJob& job : jobs) tally.add(job.type, job.state, job.jct, job.wait);
  return tally.figures();
}

std::vector<JobTypeFigures> job_type_figures(const std::vector<JobSpec>& jobs, const RunRecord& record) {
  TypeTally tally;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const JobOutcome& o = record.outcomes[i];
    const Time from = o.queued_from(jobs[i].submit);
    tally.add(job_type(jobs[i]), to_string(o.state), o.end - from, o.start - from);
  }
  return tally.figures();
}

}  // namespace gcsim
