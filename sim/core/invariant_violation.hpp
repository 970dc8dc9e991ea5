// invariant_violation.hpp: a rule every possible schedule keeps, found broken
// by an audit (`gcsim run --check`): a GPU given beyond its capacity, a job
// ended twice, time going back. It is a bug in gcsim or in a policy, never
// the user's input: the run stops and nothing is written.
//
//   throw InvariantViolation("gpu-capacity", "GPU 3 holds 1.5 of its capacity", {job_a, job_b});
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/ids.hpp"

namespace gcsim {

class InvariantViolation : public std::runtime_error {
 public:
  /// `invariant`: its short name (as docs/simulation-model.md lists them);
  /// `detail`: what was found; `jobs`: the jobs involved.
  InvariantViolation(std::string invariant, const std::string& detail, std::vector<JobIndex> jobs = {})
      : std::runtime_error(detail), invariant_(std::move(invariant)), jobs_(std::move(jobs)) {}
  const std::string& invariant() const { return invariant_; }
  const std::vector<JobIndex>& jobs() const { return jobs_; }

 private:
  std::string invariant_;
  std::vector<JobIndex> jobs_;
};

}  // namespace gcsim
