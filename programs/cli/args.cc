#include "programs/cli/args.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <thread>

#include "util/run_threads.h"
#include "util/text.h"

namespace knightgym::cli {

std::map<std::string, DeclaredFlag> flags_of_usage(std::string_view usage) {
  std::map<std::string, DeclaredFlag> flags;
  const std::vector<std::string_view> words = split_words(usage);
  for (size_t i = 0; i < words.size(); ++i) {
    std::string_view word = words[i];
    while (!word.empty() && word.front() == '[') word.remove_prefix(1);
    if (!word.starts_with("--")) continue;
    // "--name", "--name]", "--name]..." and "--name VALUE", "--name VALUE]...".
    const size_t end = std::min(word.find(']'), word.size());
    DeclaredFlag& flag = flags[std::string(word.substr(2, end - 2))];
    std::string_view last = word;
    const bool closed = end < word.size();
    const bool value_next = !closed && i + 1 < words.size() && words[i + 1] != "|" &&
                            !words[i + 1].starts_with("[") && !words[i + 1].starts_with("--");
    flag.takes_value = value_next;
    if (value_next) last = words[++i];
    flag.repeatable = last.ends_with("]...");
  }
  return flags;
}

Args::Args(int argc, char** argv, int first, std::string command, std::string usage)
    : command_(std::move(command)), usage_(std::move(usage)), declared_(flags_of_usage(usage_)) {
  for (int i = first; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) {
      positional_.push_back(arg);
      continue;
    }
    const std::string name = arg.substr(2);
    const auto declared = declared_.find(name);
    if (declared == declared_.end()) {
      std::string known;
      for (const auto& [flag, _] : declared_) known += (known.empty() ? "--" : ", --") + flag;
      throw std::invalid_argument("unknown flag --" + excerpt(name) + " (knightgym " + command_ +
                                  " takes " + (known.empty() ? "none" : known) + ")");
    }
    std::vector<std::string>& values = flags_[name];
    if (!values.empty() && !declared->second.repeatable)
      throw std::invalid_argument("flag --" + name + " is given twice");
    if (!declared->second.takes_value) {
      values.emplace_back();
      continue;
    }
    if (i + 1 >= argc) throw std::invalid_argument("flag --" + name + " needs a value");
    values.emplace_back(argv[++i]);
  }
}

Args Args::unread(int argc, char** argv, int first, std::string command) {
  Args args(0, argv, 0, std::move(command), "");
  args.positional_.assign(argv + first, argv + argc);
  return args;
}

void Args::expect_positional(size_t count) const {
  if (positional_.size() != count)
    throw std::invalid_argument(usage_ + " (knightgym " + command_ + " --help: what each does)");
}

void Args::check_declared(const std::string& flag) const {
  if (!declared_.count(flag))
    throw std::logic_error("knightgym " + command_ + " reads --" + flag +
                           ", which its usage in programs/cli/main.cc does not name");
}

const std::string* Args::single(const std::string& flag) {
  check_declared(flag);
  read_.push_back(flag);
  const auto it = flags_.find(flag);
  return it == flags_.end() ? nullptr : &it->second.front();
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

int Args::get_threads(const std::string& flag, int default_value) {
  const int64_t threads = get_int(flag, default_value, 1);
  if (threads > kMaxRunThreads)
    throw std::invalid_argument("--" + flag + " '" + std::to_string(threads) + "': at most " +
                                std::to_string(kMaxRunThreads) +
                                " threads (more than any machine's cores gain nothing)");
  return static_cast<int>(threads);
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
  check_declared(flag);
  read_.push_back(flag);
  const auto it = flags_.find(flag);
  return it == flags_.end() ? std::vector<std::string>{} : it->second;
}

void Args::finish() const {
  for (const auto& [flag, values] : flags_)
    if (std::find(read_.begin(), read_.end(), flag) == read_.end())
      throw std::invalid_argument("flag --" + flag + " does nothing with these arguments (" +
                                  usage_ + ")");
}

int hardware_threads() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace knightgym::cli
