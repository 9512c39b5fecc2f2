// Data augmentation: a game's board symmetries (env/core/symmetry.h, declared by each
// game) applied to a training example (observation planes, legal mask and policy
// target; the values are invariant).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "env/core/symmetry.h"

namespace knightgym {

// Applies symmetry k to one example in place; `scratch` holds at least one plane and
// num_actions floats.
template <Game G>
void apply_symmetry(int k, const GameInfo& info, float* observation, uint8_t* mask, float* policy,
                    float* scratch, uint8_t* mask_scratch) {
  if (k == 0) return;
  const Shape& s = info.observation_shape;
  const int area = s.height * s.width;
  for (int plane = 0; plane < s.channels; ++plane) {
    float* data = observation + static_cast<int64_t>(plane) * area;
    for (int c = 0; c < area; ++c) scratch[Symmetries<G>::cell(k, c)] = data[c];
    std::copy_n(scratch, area, data);
  }
  for (Action a = 0; a < info.num_actions; ++a) {
    scratch[Symmetries<G>::action(k, a)] = policy[a];
    mask_scratch[Symmetries<G>::action(k, a)] = mask[a];
  }
  std::copy_n(scratch, info.num_actions, policy);
  std::copy_n(mask_scratch, info.num_actions, mask);
}

}  // namespace knightgym
