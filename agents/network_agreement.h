// How closely one way of running a network answers as another: half precision, CUDA
// graphs or another device against float32 on the CPU, on positions of a game reached by
// random moves (as lc0's `check` backend compares two backends). The candidate is called
// in batches of changing sizes, 1 included, so that a batch padded to a captured size or
// a lone row answers as a full one; tolerances are those half precision meets on every
// shipped network (docs/benchmarks.md).
#pragma once

#include <cstdint>

#include "agents/evaluator.h"
#include "env/registry/any_game.h"

namespace knightgym {

struct NetworkAgreement {
  int positions = 0;
  float largest_prior_difference = 0;
  float largest_value_difference = 0;
  double mean_value_difference = 0;
  int same_best_action = 0;  // positions whose most likely action is the same
  int illegal_priors = 0;    // the candidate's priors above 0 on illegal actions

  // Within what rounding to half precision gives: priors 0.06, values 0.25, their mean
  // 0.03, the same most likely action in 9 of 10 positions, no illegal action's prior.
  bool within_rounding() const;
};

// Both networks' answers on `positions` positions of `game` (which both were made for),
// reached by random moves from `seed`.
NetworkAgreement network_agreement(const AnyGame& game, Evaluator& reference, Evaluator& candidate,
                                   int positions, uint64_t seed);

}  // namespace knightgym
