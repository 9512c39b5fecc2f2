// What the fuzz targets check of whatever a parser accepts. A failed check aborts with
// its reason (a crash to libFuzzer, which keeps the input); a refusal is the parser's
// std::invalid_argument, and anything else thrown (a debug check's std::logic_error, with
// KNIGHTGYM_DEBUG_CHECKS on in the fuzz build) escapes and crashes too.
#pragma once

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "env/core/rng.h"
#include "env/registry/registry.h"

namespace knightgym::fuzz {

// Aborts with the reason, the parts (strings, views or literals) joined.
template <class... Parts>
[[noreturn]] void fail(const Parts&... parts) {
  std::string why;
  (why.append(std::string_view(parts)), ...);
  std::fprintf(stderr, "fuzz check failed: %s\n", why.c_str());
  std::abort();
}

// The reason is put together only when the check fails.
template <class... Parts>
void require(bool condition, const Parts&... parts) {
  if (!condition) fail(parts...);
}

// A refusal's message stays this short, whatever the input's size.
inline constexpr size_t kMaxMessage = 300;

inline void require_short(std::string_view message) {
  require(message.size() <= kMaxMessage, "a refusal's message of ", std::to_string(message.size()),
          " characters: ", message.substr(0, 200));
}

// A folder of this process's own under the temporary directory, for the targets whose
// reader takes a file.
inline const std::string& scratch_dir() {
  static const std::string dir = [] {
    const auto path =
        std::filesystem::temp_directory_path() / ("knightgym-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(path);
    return path.string();
  }();
  return dir;
}

// The input as text.
inline std::string_view text_of(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The input's first line and the rest.
inline std::pair<std::string_view, std::string_view> first_line(std::string_view text) {
  const size_t end = text.find('\n');
  if (end == std::string_view::npos) return {text, {}};
  return {text.substr(0, end), text.substr(end + 1)};
}

// A seed drawn from the input, so that its playout is the same every time it runs.
inline uint64_t seed_of(std::string_view text) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a
  for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return hash;
}

// Decisions a playout makes at most: enough to reach the end of most games, few enough
// that an input stays fast.
inline constexpr int kPlayoutDecisions = 600;

// A state some parser accepted is sound: its mask is its legal list, its text reads back
// to itself, and a random playout from it applies only legal actions (each checked by the
// debug checks), observes without fault, and ends with returns that add up to zero.
inline void check_state(const AnyState& accepted, uint64_t seed) {
  const AnyGame& game = accepted.game();
  const GameInfo& info = game.info();
  auto state = accepted.clone();
  const std::string text = state->serialize();
  require(game.deserialize_state(text)->serialize() == text,
          "serialize/deserialize does not round-trip: ", text);
  Rng rng(seed);
  std::vector<uint8_t> mask(static_cast<size_t>(info.num_actions));
  std::vector<float> observation(static_cast<size_t>(info.observation_shape.size()));
  for (int decision = 0; decision <= kPlayoutDecisions; ++decision) {
    state->legal_mask(mask.data());
    const std::vector<Action> legal = state->legal_actions();
    std::vector<uint8_t> from_list(mask.size(), 0);
    for (const Action action : legal) {
      require(action >= 0 && action < info.num_actions, "a legal action out of range");
      from_list[static_cast<size_t>(action)] = 1;
    }
    if (from_list != mask) fail("the mask differs from the legal list in ", state->serialize());
    for (int player = 0; player < info.num_players; ++player)
      state->observe(player, observation.data());
    if (state->is_terminal()) {
      require(legal.empty(), "a finished game has legal actions");
      float sum = 0;
      for (const float r : state->returns()) sum += r;
      require(std::fabs(sum) < 1e-4f, "returns that do not add up to zero");
      return;
    }
    if (legal.empty()) fail("a running game without a legal action: ", state->serialize());
    require(state->current_player() >= 0 && state->current_player() < info.num_players,
            "the player to move is out of range");
    const Action action = legal[rng.below(static_cast<uint32_t>(legal.size()))];
    const std::string name = state->action_to_string(action);
    require(state->string_to_action(name) == action, "an action's text does not name it: ", name);
    state->apply_action(action);
  }
}

}  // namespace knightgym::fuzz
