// One self-play game as training data: the state before each decision, the search's
// policy there (sparse: the legal actions and their probabilities) and its root value
// (each player's), and the final returns.
// States are kept rather than observations: they are smaller (32 bytes in Tailten, 1.8 KB
// in Knightmate against 5.6 KB of planes), and observations, masks and symmetries are
// made from them when a batch is drawn.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "env/core/game.h"

namespace knightgym {

template <Game G>
struct Trajectory {
  std::vector<typename G::State> states;
  std::vector<int32_t> policy_begin{0};  // decision i's policy: [policy_begin[i], [i + 1])
  std::vector<Action> policy_actions;
  std::vector<float> policy_probs;
  std::vector<float> root_values;  // num_players per decision, by player
  std::vector<float> returns;      // per player, once the game is over
  bool truncated = false;
  int plies = 0;     // decisions in the game, recorded or not (playout cap randomization)
  int rule_set = 0;  // the index of its rules among the run's (rule_sets.h)

  int size() const { return static_cast<int>(states.size()); }

  // Records a decision: its state, the search's policy over all actions (dense) and the
  // root's value for each player.
  void add(const typename G::State& state, std::span<const float> policy,
           std::span<const float> values) {
    states.push_back(state);
    root_values.insert(root_values.end(), values.begin(), values.end());
    for (size_t a = 0; a < policy.size(); ++a) {
      if (policy[a] <= 0) continue;
      policy_actions.push_back(static_cast<Action>(a));
      policy_probs.push_back(policy[a]);
    }
    policy_begin.push_back(static_cast<int32_t>(policy_actions.size()));
  }
};

}  // namespace knightgym
