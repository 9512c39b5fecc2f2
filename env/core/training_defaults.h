// Where training a network for a game starts: a network and a self-play search sized to
// learn in minutes on two CPU cores. A game may offer
// `static constexpr TrainingDefaults training_defaults()`; the others start from the
// values below. `knightgym train` settings override every field.
#pragma once

#include <string_view>

#include "env/core/game.h"

namespace knightgym {

struct TrainingDefaults {
  int blocks = 4, channels = 32;                 // the residual network
  int policy_channels = 4;                       // its policy head's planes
  std::string_view policy_head = "dense";        // dense or conv (agents/network.h)
  int games = 64;                                // concurrent self-play games
  int sims = 32;                                 // self-play simulations per decision
  std::string_view baselines = "mcts:sims=200";  // match rounds' opponents, agent specs
};

template <class G>
concept HasTrainingDefaults = requires {
  { G::training_defaults() } -> std::same_as<TrainingDefaults>;
};

template <Game G>
constexpr TrainingDefaults training_defaults() {
  if constexpr (HasTrainingDefaults<G>) {
    return G::training_defaults();
  } else {
    return {};
  }
}

}  // namespace knightgym
