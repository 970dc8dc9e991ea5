// input_error.hpp: errors the user can cause, as values with a location.
//
// Every reader of user input (cluster descriptions, workloads, traces, command
// lines) reports problems as an InputError that names the file, where in it
// (a line, or the JSON path of the offending object), the field, and what was
// expected. The CLI prints what() and exits non-zero.
//
//   throw InputError("cluster.json", "node_groups[1]", "gpus_per_node",
//                    "expected a positive integer, got -2");
#pragma once

#include <stdexcept>
#include <string>

namespace gcsim {

class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::string where, std::string field, std::string problem)
      : std::runtime_error(compose(file, where, field, problem)),
        file_(std::move(file)),
        where_(std::move(where)),
        field_(std::move(field)),
        problem_(std::move(problem)) {}

  const std::string& file() const { return file_; }
  const std::string& where() const { return where_; }
  const std::string& field() const { return field_; }
  const std::string& problem() const { return problem_; }

 private:
  static std::string compose(const std::string& file, const std::string& where, const std::string& field,
                             const std::string& problem) {
    std::string text = file.empty() ? std::string("<input>") : file;
    if (!where.empty()) text += ": " + where;
    if (!field.empty()) text += ": field '" + field + "'";
    return text + ": " + problem;
  }

  std::string file_, where_, field_, problem_;
};

}  // namespace gcsim
