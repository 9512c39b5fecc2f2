// Command-line flags after the positional arguments, as a command's usage declares them
// (main.cc's table, the one source of each command's flags): "--name VALUE" takes a
// value, "--name" alone (before "|", "]" or the next flag) is a switch, and a flag in
// "[...]..." may be given more than once. A flag the usage does not name is refused as
// soon as the line is read, before anything else is checked.
//
// Why not CLI11 (Debian's libcli11-dev): each command reads its few flags where it uses
// them, with the range and the error message it needs; the usage line a person reads is
// the declaration, so the two cannot drift; CLI11 would add a large header to every
// command for no smaller code.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace knightgym::cli {

struct DeclaredFlag {
  bool takes_value = true;
  bool repeatable = false;
};

// The flags a usage names, by name (without "--").
std::map<std::string, DeclaredFlag> flags_of_usage(std::string_view usage);

class Args {
 public:
  // `command` and `usage` as `knightgym COMMAND --help` shows them. Throws
  // std::invalid_argument for a flag the usage does not name (naming those it does), a
  // flag without its value, or one given twice that may not be.
  Args(int argc, char** argv, int first, std::string command, std::string usage);
  // Every argument from `first` on, unread, as positional ones: for a command that hands
  // them to the program that declares them (view: knightgym.viewer's parser).
  static Args unread(int argc, char** argv, int first, std::string command);

  const std::vector<std::string>& positional() const { return positional_; }
  // Throws the usage unless there are exactly `count` positional arguments.
  void expect_positional(size_t count) const;
  // The get_* of a flag the usage does not name throw std::logic_error: the table and the
  // command disagree, which a test of the command finds.
  int64_t get_int(const std::string& flag, int64_t default_value, int64_t min);
  // A thread count, in 1..kMaxRunThreads (util/run_threads.h).
  int get_threads(const std::string& flag, int default_value);
  double get_double(const std::string& flag, double default_value, double min);
  std::string get_string(const std::string& flag, const std::string& default_value);
  // Every value of a repeatable flag, in the order given.
  std::vector<std::string> get_strings(const std::string& flag);
  bool get_switch(const std::string& flag);
  bool has(const std::string& flag) const { return flags_.count(flag) > 0; }
  // Throws if a flag was given that no get_* asked for (one these arguments do not use).
  void finish() const;

 private:
  // The flag's one value, or nullptr.
  const std::string* single(const std::string& flag);
  void check_declared(const std::string& flag) const;

  std::string command_, usage_;
  std::map<std::string, DeclaredFlag> declared_;
  std::vector<std::string> positional_;
  std::map<std::string, std::vector<std::string>> flags_;
  std::vector<std::string> read_;
};

// The machine's hardware threads (std::thread::hardware_concurrency, at least 1): the
// default --threads of the commands whose results do not depend on it.
int hardware_threads();

}  // namespace knightgym::cli
