#include "programs/cli/args.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <thread>

namespace knightgym::cli {

Args::Args(int argc, char** argv, int first, const std::set<std::string>& switches) {
  for (int i = first; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) {
      positional_.push_back(arg);
      continue;
    }
    if (switches.count(arg.substr(2))) {
      flags_[arg.substr(2)].push_back("");
      continue;
    }
    if (i + 1 >= argc) throw std::invalid_argument("flag " + arg + " needs a value");
    flags_[arg.substr(2)].push_back(argv[++i]);
  }
}

const std::string* Args::single(const std::string& flag) {
  known_.push_back(flag);
  const auto it = flags_.find(flag);
  if (it == flags_.end()) return nullptr;
  if (it->second.size() > 1) throw std::invalid_argument("flag --" + flag + " is given twice");
  return &it->second.front();
}

int64_t Args::get_int(const std::string& flag, int64_t default_value, int64_t min) {
  const std::string* given = single(flag);
  if (!given) return default_value;
  int64_t value = 0;
  const std::string& text = *given;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < min)
    throw std::invalid_argument("--" + flag + " '" + text +
                                "': expected an integer >= " + std::to_string(min));
  return value;
}

double Args::get_double(const std::string& flag, double default_value, double min) {
  const std::string* given = single(flag);
  if (!given) return default_value;
  const std::string& text = *given;
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

bool Args::get_switch(const std::string& flag) { return single(flag) != nullptr; }

std::string Args::get_string(const std::string& flag, const std::string& default_value) {
  const std::string* given = single(flag);
  return given ? *given : default_value;
}

std::vector<std::string> Args::get_strings(const std::string& flag) {
  known_.push_back(flag);
  const auto it = flags_.find(flag);
  return it == flags_.end() ? std::vector<std::string>{} : it->second;
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

int hardware_threads() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace knightgym::cli
