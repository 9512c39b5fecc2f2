#include "env/vector/vector_env_options.h"

#include <array>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

namespace knightgym {
namespace {

constexpr std::array<std::pair<Autoreset, std::string_view>, 3> kAutoresetNames = {{
    {Autoreset::kNextStep, "next_step"},
    {Autoreset::kSameStep, "same_step"},
    {Autoreset::kDisabled, "disabled"},
}};
constexpr std::array<std::pair<FinishedMask, std::string_view>, 2> kFinishedMaskNames = {{
    {FinishedMask::kAllOnes, "all"},
    {FinishedMask::kAllZeros, "none"},
}};

template <class Enum, size_t N>
std::string_view name_of(const std::array<std::pair<Enum, std::string_view>, N>& names,
                         Enum value) {
  for (const auto& [v, name] : names)
    if (v == value) return name;
  throw std::logic_error("unnamed enum value");
}

template <class Enum, size_t N>
Enum parse(const std::array<std::pair<Enum, std::string_view>, N>& names, std::string_view what,
           std::string_view text) {
  std::string valid;
  for (const auto& [value, name] : names) {
    if (name == text) return value;
    valid += std::string(valid.empty() ? "" : ", ") + std::string(name);
  }
  throw std::invalid_argument(std::string(what) + " must be one of " + valid + ", got '" +
                              std::string(text) + "'");
}

}  // namespace

std::string_view autoreset_name(Autoreset mode) { return name_of(kAutoresetNames, mode); }
Autoreset parse_autoreset(std::string_view name) {
  return parse(kAutoresetNames, "autoreset_mode", name);
}
std::string_view finished_mask_name(FinishedMask mask) { return name_of(kFinishedMaskNames, mask); }
FinishedMask parse_finished_mask(std::string_view name) {
  return parse(kFinishedMaskNames, "finished_mask", name);
}

int checked_num_threads(int num_threads, int num_envs) {
  const std::string got = ", got " + std::to_string(num_threads);
  if (num_threads < 1) throw std::invalid_argument("num_threads must be at least 1" + got);
  if (num_threads > kMaxThreads)
    throw std::invalid_argument("num_threads must be at most " + std::to_string(kMaxThreads) +
                                " (kMaxThreads)" + got);
  if (num_threads > num_envs)
    throw std::invalid_argument("num_threads must be at most num_envs (" +
                                std::to_string(num_envs) + ")" + got);
  return num_threads;
}

uint64_t fresh_seed() {
  std::random_device device;
  return (static_cast<uint64_t>(device()) << 32) ^ device();
}

}  // namespace knightgym
