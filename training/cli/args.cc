#include "training/cli/args.h"

#include <charconv>
#include <stdexcept>

namespace knightgym::cli {

Args::Args(int argc, char** argv, int first, const std::set<std::string>& switches) {
  for (int i = first; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) {
      positional_.push_back(arg);
      continue;
    }
    if (switches.count(arg.substr(2))) {
      flags_[arg.substr(2)] = "";
      continue;
    }
    if (i + 1 >= argc) throw std::invalid_argument("flag " + arg + " needs a value");
    flags_[arg.substr(2)] = argv[++i];
  }
}

int64_t Args::get_int(const std::string& flag, int64_t default_value, int64_t min) {
  known_.push_back(flag);
  const auto it = flags_.find(flag);
  if (it == flags_.end()) return default_value;
  int64_t value = 0;
  const std::string& text = it->second;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < min)
    throw std::invalid_argument("--" + flag + " '" + text +
                                "': expected an integer >= " + std::to_string(min));
  return value;
}

double Args::get_double(const std::string& flag, double default_value, double min) {
  known_.push_back(flag);
  const auto it = flags_.find(flag);
  if (it == flags_.end()) return default_value;
  const std::string& text = it->second;
  double value = 0;
  size_t used = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !(value >= min))
    throw std::invalid_argument("--" + flag + " '" + text +
                                "': expected a number >= " + std::to_string(min));
  return value;
}

bool Args::get_switch(const std::string& flag) {
  known_.push_back(flag);
  return flags_.count(flag) > 0;
}

std::string Args::get_string(const std::string& flag, const std::string& default_value) {
  known_.push_back(flag);
  const auto it = flags_.find(flag);
  return it == flags_.end() ? default_value : it->second;
}

void Args::finish() const {
  for (const auto& [flag, value] : flags_) {
    bool known = false;
    std::string list;
    for (const auto& name : known_) {
      known |= name == flag;
      list += " --" + name;
    }
    if (!known) throw std::invalid_argument("unknown flag --" + flag + "; known:" + list);
  }
}

}  // namespace knightgym::cli
