// What every AnyEnvBatch over one batch of typed environments (VectorEnv<G>, EnvBatch<G>)
// reads straight from it: its size, seed and modes, its output buffers and its snapshot.
// An adapter derives from BatchBuffers<Interface, Adapter> and gives `const auto&
// buffers() const`; it writes only what differs (reset, step, rewards' width, restore).
#pragma once

#include <cstdint>

#include "env/registry/any_game.h"

namespace knightgym {

template <class Interface, class Adapter>
class BatchBuffers : public Interface {
 public:
  int num_envs() const override { return batch().num_envs(); }
  uint64_t seed() const override { return batch().seed(); }
  Autoreset autoreset() const override { return batch().autoreset(); }
  FinishedMask finished_mask() const override { return batch().finished_mask(); }
  const float* observations() const override { return batch().observations(); }
  const uint8_t* masks() const override { return batch().masks(); }
  const float* rewards() const override { return batch().rewards(); }
  const uint8_t* terminated() const override { return batch().terminated(); }
  const uint8_t* truncated() const override { return batch().truncated(); }
  const uint8_t* needs_reset() const override { return batch().needs_reset(); }
  const float* final_observations() const override { return batch().final_observations(); }
  const uint8_t* final_masks() const override { return batch().final_masks(); }
  const uint8_t* has_final() const override { return batch().has_final(); }
  EnvSnapshot snapshot() const override { return batch().snapshot(); }

 private:
  const auto& batch() const { return static_cast<const Adapter&>(*this).buffers(); }
};

}  // namespace knightgym
