// How a batch of environments is made: its size, its threads, the seed of its streams,
// when a finished episode restarts and what its mask holds. Apart from VectorEnv so that
// the type-erased faces (env/registry/any_game.h) name it without the whole vector env.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace knightgym {

// When an environment whose episode has ended starts a new one (Gymnasium's
// AutoresetMode, with its names):
//   kNextStep  the step that ends an episode returns its final observation; the next step
//              ignores that environment's action and starts a new episode.
//   kSameStep  the step that ends an episode starts the next one at once and returns its
//              first observation; the final observation and mask are kept apart (final_*).
//   kDisabled  an ended episode stays ended until the caller resets it (reset with a
//              mask); a step that gives it an action is refused.
enum class Autoreset : uint8_t { kNextStep, kSameStep, kDisabled };

// What a finished episode's mask holds. kAllOnes (the default, as Pgx): every action, so
// that a masked softmax or a Categorical over it stays finite; the action is ignored
// anyway. kAllZeros: the legal actions of a finished game, none.
enum class FinishedMask : uint8_t { kAllOnes, kAllZeros };

// The most threads a vector env steps on. A fixed number, not a multiple of the machine's
// cores, so that settings that work on one machine work on every other (and a typo such
// as 10**6 is refused rather than tried: each thread costs a stack and a core's time). 256
// is above the cores of the largest machines this runs on; past the cores, more threads
// only wait for each other.
inline constexpr int kMaxThreads = 256;

struct VectorEnvOptions {
  int num_envs = 1;
  // The vector env's, in [1, min(num_envs, kMaxThreads)]; an opponent env steps on one.
  int num_threads = 1;
  std::optional<uint64_t> seed = 0;  // none: a seed drawn from std::random_device
  Autoreset autoreset = Autoreset::kNextStep;
  FinishedMask finished_mask = FinishedMask::kAllOnes;
};

// The names used by the CLI and Python: "next_step", "same_step", "disabled"; "all", "none".
// Parsing throws std::invalid_argument naming the bad value and the valid ones.
std::string_view autoreset_name(Autoreset mode);
Autoreset parse_autoreset(std::string_view name);
std::string_view finished_mask_name(FinishedMask mask);
FinishedMask parse_finished_mask(std::string_view name);

// num_threads if it is in [1, min(num_envs, kMaxThreads)]; otherwise throws
// std::invalid_argument naming the value and the bound it breaks.
int checked_num_threads(int num_threads, int num_envs);

// A seed from std::random_device, for the environments made without one.
uint64_t fresh_seed();

}  // namespace knightgym
