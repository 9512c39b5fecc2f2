// Command-line flags after the positional arguments: "--name value" pairs, and switches
// ("--name" alone) for the names declared as such. A flag may be given more than once
// only where the command reads all its values (get_strings).
//
// Why not CLI11 (Debian's libcli11-dev): each command reads its few flags where it uses
// them, with the range and the error message it needs, and finish-style checks name any
// flag it did not read; CLI11's declarative parser would move each flag's meaning away
// from its use and add a large header to every command for no smaller code.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace knightgym::cli {

class Args {
 public:
  // Throws std::invalid_argument for a flag without a value.
  Args(int argc, char** argv, int first, const std::set<std::string>& switches = {});

  const std::vector<std::string>& positional() const { return positional_; }
  int64_t get_int(const std::string& flag, int64_t default_value, int64_t min);
  double get_double(const std::string& flag, double default_value, double min);
  std::string get_string(const std::string& flag, const std::string& default_value);
  // Every value of a repeatable flag, in the order given.
  std::vector<std::string> get_strings(const std::string& flag);
  bool get_switch(const std::string& flag);
  bool has(const std::string& flag) const { return flags_.count(flag) > 0; }
  // Throws if a flag was given that no get_* asked for, naming it and the known ones.
  void finish() const;

 private:
  std::vector<std::string> positional_;
  // The flag's one value; throws if it was given more than once.
  const std::string* single(const std::string& flag);

  std::map<std::string, std::vector<std::string>> flags_;
  std::vector<std::string> known_;
};

// The machine's hardware threads (std::thread::hardware_concurrency, at least 1): the
// default --threads of the commands whose results do not depend on it.
int hardware_threads();

}  // namespace knightgym::cli
