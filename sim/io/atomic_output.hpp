// atomic_output.hpp: outputs that appear whole or not at all.
//
// Files are staged next to their destination under a hidden temporary name
// and renamed into place together by commit(). If the run fails before
// commit(), the destructor removes the staged files, so an output directory
// never holds a half-written file. commit() holds SIGINT and SIGTERM back
// while it renames, so a signal ending the process finds all of the set's
// files in place or none; remove_staged_files_now() is for such a signal's
// handler.
// Temporary files a killed process left behind (".NAME.tmpPID", the process
// gone) are removed when the same name is staged again.
//
//   OutputSet out("results/run1");
//   out.stage("summary.json", summary_text);
//   out.stage("jobs.csv", jobs_text);
//   out.commit();
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace gcsim {

class OutputSet {
 public:
  explicit OutputSet(std::string directory);
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  /// Writes `content` to a temporary file in the directory (created if
  /// missing). Throws std::runtime_error on I/O failure.
  void stage(const std::string& name, const std::string& content);
  /// The same with the content written by `write` as it goes.
  void stage(const std::string& name, const std::function<void(std::ostream&)>& write);
  /// Renames every staged file to its final name.
  void commit();

  const std::string& directory() const { return directory_; }

 private:
  std::string directory_;
  std::vector<std::pair<std::string, std::string>> staged_;  // temporary path, final path
  bool committed_ = false;
};

/// Writes one file atomically (temporary file, then rename).
void write_file_atomically(const std::string& path, const std::string& content);
/// The same with the content written by `write` as it goes, so that a large
/// file need not be held in memory whole.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

/// Removes every temporary file this process has staged and not yet renamed
/// or removed. Async-signal-safe: for a signal handler that ends the process
/// at once (_exit), so that it leaves no temporary file behind.
void remove_staged_files_now() noexcept;

}  // namespace gcsim
