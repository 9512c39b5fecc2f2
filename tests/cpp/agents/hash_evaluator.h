// A deterministic evaluator with uneven priors and values for tests: a hash of each row's
// observation, so that batched and single searches, and searches on any thread, see the
// same answers. It keeps no state between calls: threads may share it.
#pragma once

#include <cstdint>

#include "agents/evaluator.h"
#include "env/core/rng.h"

namespace knightgym {

class HashEvaluator final : public Evaluator {
 public:
  explicit HashEvaluator(const GameInfo& info) : info_(info) {}
  const GameInfo& info() const override { return info_; }
  void evaluate(int n, const float* observations, const uint8_t* masks, float* priors,
                float* values) override {
    const int size = info_.observation_shape.size();
    for (int row = 0; row < n; ++row) {
      uint64_t h = 0;
      for (int i = 0; i < size; ++i)
        h = mix64(h ^
                  static_cast<uint64_t>(static_cast<int64_t>(observations[row * size + i] * 1000)));
      float sum = 0;
      for (int a = 0; a < info_.num_actions; ++a) {
        const float p = masks[row * info_.num_actions + a] ? 1.0f + (mix64(h + a) % 100) : 0.0f;
        priors[row * info_.num_actions + a] = p;
        sum += p;
      }
      for (int a = 0; a < info_.num_actions; ++a) priors[row * info_.num_actions + a] /= sum;
      for (int p = 0; p < info_.num_players; ++p)
        values[row * info_.num_players + p] =
            static_cast<float>(mix64(h + 7 * p) % 2001) / 1000.0f - 1.0f;
    }
  }

 private:
  GameInfo info_;
};

}  // namespace knightgym
