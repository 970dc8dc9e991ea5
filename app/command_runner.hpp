// command_runner.hpp: gcsim's commands as entries of one table, and the one
// guarded runner every command goes through.
//
// A command is its name, a one-line summary (for `gcsim --help`), its usage
// text (for `gcsim NAME --help`), the options it declares and the function
// that runs it on the parsed options. The runner answers --help/-h, parses
// the options once, and turns whatever the command throws into a message and
// an exit status (exit_codes in commands.hpp), the same for every command:
//   UsageError, UnknownPolicy    "gcsim NAME: ..."                     2
//   InputError                   "gcsim: error: ..."                   1
//   PlanRejected, PolicyFailed   "gcsim: policy error: ..."            3
//   CommandFailure               "gcsim NAME: ..."                     its own
//   std::bad_alloc               "gcsim: error: out of memory: ..."    11
//   any other exception          "gcsim: internal error: ..."          12
// except that a command may name what another std::runtime_error means to it
// (compare: a run could not be started, 7).
//
//   Command hello{"hello", "print a greeting", "usage: gcsim hello [--name N]\n", {{"name"}},
//                 [](const Arguments& args) { std::cout << args.value_or("name", "world") << "\n"; return 0; }};
//   return run_command_line({hello}, argc, argv);
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "app/arguments.hpp"

namespace gcsim {

/// Thrown by a command to end with `status` and "gcsim NAME: message".
class CommandFailure : public std::runtime_error {
 public:
  CommandFailure(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

/// A command that is a family of actions, each with one operand before its
/// options: `gcsim trace stats FILE --format ...`.
struct CommandAction {
  std::string name;
  std::string operand;  // what the operand is, for the message when it is missing ("trace FILE")
  std::vector<FlagSpec> options;
  std::function<int(const std::string& operand, const Arguments&)> run;
};

/// What a std::runtime_error that is none of the errors above ends in, for one command.
struct OtherFailure {
  int status;
  std::string prefix;  // printed before what()
};

struct Command {
  /// A command that runs on its declared options.
  Command(std::string name, std::string summary, std::string usage, std::vector<FlagSpec> options,
          std::function<int(const Arguments&)> run)
      : name(std::move(name)),
        summary(std::move(summary)),
        usage(std::move(usage)),
        options(std::move(options)),
        run(std::move(run)) {}
  /// A command that runs on one operand (`operand` names it, "SUITE.json")
  /// given before its declared options.
  Command(std::string name, std::string summary, std::string usage, std::string operand, std::vector<FlagSpec> options,
          std::function<int(const std::string& operand, const Arguments&)> run)
      : name(std::move(name)),
        summary(std::move(summary)),
        usage(std::move(usage)),
        options(std::move(options)),
        operand(std::move(operand)),
        run_on_operand(std::move(run)) {}
  /// A command of actions, given in `actions` after it is made.
  Command(std::string name, std::string summary, std::string usage)
      : name(std::move(name)), summary(std::move(summary)), usage(std::move(usage)) {}

  std::string name;
  std::string summary;  // one line of `gcsim --help`
  std::string usage;    // `gcsim NAME --help`
  std::vector<FlagSpec> options;
  std::function<int(const Arguments&)> run;
  /// Instead of run: the operand's name and the function run on it and the options.
  std::string operand;
  std::function<int(const std::string& operand, const Arguments&)> run_on_operand;
  /// Instead of options and run: the command's actions, chosen by the first argument.
  std::vector<CommandAction> actions;
  std::optional<OtherFailure> other_failure;
  /// Print the usage after a usage error's message.
  bool usage_after_usage_error = false;
};

/// `gcsim --help`: every command's name and summary, in the table's order.
std::string top_level_usage(const std::vector<Command>& commands);

/// Runs `command` on the arguments after its name, guarded as above.
int run_guarded(const Command& command, int argc, char** argv);

/// main(): the command named by argv[1] run guarded, or the top-level usage.
int run_command_line(const std::vector<Command>& commands, int argc, char** argv);

}  // namespace gcsim
