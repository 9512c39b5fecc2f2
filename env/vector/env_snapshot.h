// EnvSnapshot: everything a batch of environments holds between two calls, as values
// that outlive it, so that a copy made from the same spec and options and then given
// the snapshot (EnvBatch::restore) goes on exactly as the original would: what Python's
// pickle and deepcopy of an env carry. States travel as the game's text (serialize), so
// a snapshot names its problem when it does not fit the game; the random streams as
// their words; the outputs as they are, since the last observation of a finished episode
// belongs to whoever ended it, which the state alone does not tell. The masks (and
// whether an episode needs a reset) are not carried: restore derives them from the
// states, so that a snapshot can never let a step apply an action the rules forbid.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace knightgym {

struct EnvSnapshot {
  uint64_t seed = 0;                // the seed the streams were last derived from
  bool fresh = false;               // no step or reset since construction
  std::vector<std::string> states;  // [N] the game's serialization
  std::vector<uint64_t> streams;    // [N, 8] each environment's episode, then action stream
  std::vector<float> observations;  // [N, C*H*W]
  std::vector<float> rewards;       // [N, reward width]
  std::vector<uint8_t> terminated, truncated, has_final;  // [N]
  std::vector<float> final_observations;                  // same-step auto-reset only, else empty
  std::vector<uint8_t> final_masks;                       // same-step auto-reset only, else empty
};

}  // namespace knightgym
