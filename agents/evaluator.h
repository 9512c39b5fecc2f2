// What a search sees of a network: a batch of observations and legal-action masks in,
// priors over actions and a value per player out. Searches collect leaves from many
// games into one call, so an implementation pays its fixed costs once per batch.
//
// Values are relative to the observer: values[k] belongs to the player k seats after
// the player the observation was made for (values[0] is that player's own), in [-1, 1].
#pragma once

#include <algorithm>
#include <cstdint>

#include "agents/shared_resource.h"
#include "env/core/types.h"

namespace knightgym {

class Evaluator : public SharedResource {
 public:
  virtual const GameInfo& info() const = 0;

  // n rows. observations: n x observation_shape floats; masks: n x num_actions bytes
  // (1 = legal, at least one per row). Writes priors: n x num_actions (zero off the
  // mask, summing to 1) and values: n x num_players. Each row's result depends on that
  // row alone, never on the others in the batch.
  virtual void evaluate(int n, const float* observations, const uint8_t* masks, float* priors,
                        float* values) = 0;
};

// Equal priors over the legal actions and a value of 0: search without a network, for
// tests and as the baseline the networks must beat.
class UniformEvaluator final : public Evaluator {
 public:
  explicit UniformEvaluator(const GameInfo& info) : info_(info) {}

  const GameInfo& info() const override { return info_; }

  void evaluate(int n, const float*, const uint8_t* masks, float* priors, float* values) override {
    const int actions = info_.num_actions;
    for (int row = 0; row < n; ++row) {
      const uint8_t* mask = masks + row * actions;
      float* prior = priors + row * actions;
      const int legal = static_cast<int>(std::count(mask, mask + actions, uint8_t{1}));
      const float share = 1.0f / static_cast<float>(std::max(legal, 1));
      for (int a = 0; a < actions; ++a) prior[a] = mask[a] ? share : 0.0f;
    }
    std::fill(values, values + n * info_.num_players, 0.0f);
  }

 private:
  GameInfo info_;
};

}  // namespace knightgym
