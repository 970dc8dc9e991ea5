#include "app/command_runner.hpp"

#include <cstring>
#include <exception>
#include <iomanip>
#include <iostream>
#include <new>
#include <sstream>

#include "app/commands.hpp"
#include "app/trace_setting_flags.hpp"
#include "sim/core/input_error.hpp"
#include "sim/core/policy_registry.hpp"
#include "sim/core/plan.hpp"
#include "sim/engine/simulation.hpp"

namespace gcsim {
namespace {

bool asks_for_help(int argc, char** argv) {
  for (int i = 0; i < argc; ++i)
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) return true;
  return false;
}

// "'a', 'b' or 'c'"
std::string action_list(const std::vector<CommandAction>& actions) {
  std::string list;
  for (std::size_t i = 0; i < actions.size(); ++i)
    list += (i == 0 ? "" : i + 1 == actions.size() ? " or " : ", ") + ("'" + actions[i].name + "'");
  return list;
}

int run_action(const Command& command, int argc, char** argv) {
  if (argc < 1) throw UsageError("expected " + action_list(command.actions) + " (see --help)");
  const std::string name = argv[0];
  const CommandAction* action = nullptr;
  for (const CommandAction& candidate : command.actions)
    if (candidate.name == name) action = &candidate;
  if (!action) throw UsageError("unknown action '" + name + "' (expected " + action_list(command.actions) + ")");
  if (argc < 2 || std::string(argv[1]).rfind("--", 0) == 0)
    throw UsageError("expected the " + action->operand + " after 'gcsim " + command.name + " " + name + "'");
  const Arguments args(argc - 2, argv + 2, action->options);
  return action->run(argv[1], args);
}

int run_unguarded(const Command& command, int argc, char** argv) {
  if (!command.actions.empty()) return run_action(command, argc, argv);
  if (command.run_on_operand) {
    if (argc < 1 || std::string(argv[0]).rfind("--", 0) == 0)
      throw UsageError("expected the " + command.operand + " after 'gcsim " + command.name + "' (see --help)");
    const Arguments args(argc - 1, argv + 1, command.options);
    return command.run_on_operand(argv[0], args);
  }
  const Arguments args(argc, argv, command.options);
  return command.run(args);
}

int internal_error(const std::string& what) {
  std::cerr << "gcsim: internal error: " << what << "\n";
  return exit_codes::kInternalError;
}

}  // namespace

std::string top_level_usage(const std::vector<Command>& commands) {
  std::ostringstream usage;
  usage << "usage: gcsim COMMAND [OPTIONS]\n\nCommands:\n";
  for (const Command& command : commands)
    usage << "  " << std::left << std::setw(11) << command.name << command.summary << "\n";
  usage << "Run 'gcsim COMMAND --help' for a command's options.\n"
        << "Exit status " << exit_codes::kOutOfMemory << ": gcsim ran out of memory; " << exit_codes::kInternalError
        << ": a failure inside gcsim (any command).\n";
  return usage.str();
}

int run_guarded(const Command& command, int argc, char** argv) {
  if (asks_for_help(argc, argv)) {
    std::cout << command.usage;
    return exit_codes::kOk;
  }
  const std::string prefix = "gcsim " + command.name + ": ";
  try {
    return run_unguarded(command, argc, argv);
  } catch (const UsageError& e) {
    std::cerr << prefix << e.what() << "\n";
    if (command.usage_after_usage_error) std::cerr << "\n" << command.usage;
    return exit_codes::kUsage;
  } catch (const UnknownPolicy& e) {
    std::cerr << prefix << e.what() << "\n";
    return exit_codes::kUsage;
  } catch (const TraceSettingError& e) {  // its fix in the command line's words
    std::cerr << "gcsim: error: " << command_line_error(e).what() << "\n";
    return exit_codes::kInputError;
  } catch (const InputError& e) {
    std::cerr << "gcsim: error: " << e.what() << "\n";
    return exit_codes::kInputError;
  } catch (const PlanRejected& e) {
    std::cerr << "gcsim: policy error: the policy's plan was rejected: " << e.what() << "\n";
    return exit_codes::kPolicyBug;
  } catch (const PolicyFailed& e) {
    std::cerr << "gcsim: policy error: " << e.what() << "\n";
    return exit_codes::kPolicyBug;
  } catch (const CommandFailure& e) {
    std::cerr << prefix << e.what() << "\n";
    return e.status();
  } catch (const std::bad_alloc&) {
    std::cerr << "gcsim: error: out of memory: the machine, or the limit set on this process (ulimit -v), "
                 "does not give gcsim the memory this command needs\n";
    return exit_codes::kOutOfMemory;
  } catch (const std::runtime_error& e) {
    if (!command.other_failure) return internal_error(e.what());
    std::cerr << command.other_failure->prefix << e.what() << "\n";
    return command.other_failure->status;
  } catch (const std::exception& e) {
    return internal_error(e.what());
  } catch (...) {
    return internal_error("an exception that is not a std::exception");
  }
}

int run_command_line(const std::vector<Command>& commands, int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
    std::cout << top_level_usage(commands);
    return argc < 2 ? exit_codes::kUsage : exit_codes::kOk;
  }
  for (const Command& command : commands)
    if (command.name == argv[1]) return run_guarded(command, argc - 2, argv + 2);
  std::cerr << "gcsim: unknown command '" << argv[1] << "'\n" << top_level_usage(commands);
  return exit_codes::kUsage;
}

}  // namespace gcsim
