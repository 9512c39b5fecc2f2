// The round loop of games played all at once on one thread, for the arena's batched
// matches (batched_match.h): each round, for each group 0..groups-1 in turn, the games
// whose mover belongs to that group are decided together by one call and then advanced,
// until every game is over. A group is whoever decides together: an agent in a match (game
// g seats agent (seat + g) mod k). The teacher, one agent in every seat, has its own loop
// (training/teacher/typed_teacher.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "agents/agent.h"

namespace knightgym {

// group_of(g, mover): the group that decides game g's move; decide(group, batch,
// actions): its actions for the states of `batch` (act_batch's contract);
// on_decided(g, i, action): game g, the i-th of its batch, is about to take `action` (its
// state still the one decided). Returns false if `stop` was set before some group was
// decided (the games then stand where they are), true once every game is over.
template <Game G, class GroupOf, class Decide, class OnDecided>
bool play_rounds(const G& game, std::vector<typename G::State>& states, int groups,
                 GroupOf&& group_of, Decide&& decide, OnDecided&& on_decided,
                 const std::atomic<bool>* stop) {
  std::vector<int64_t> waiting;
  std::vector<typename G::State> batch;
  std::vector<Action> actions;
  const auto count = static_cast<int64_t>(states.size());
  for (bool playing = true; playing;) {
    playing = false;
    for (int group = 0; group < groups; ++group) {
      if (stop && *stop) return false;
      waiting.clear();
      batch.clear();
      for (int64_t g = 0; g < count; ++g)
        if (!game.terminal(states[g]) && group_of(g, game.current_player(states[g])) == group) {
          waiting.push_back(g);
          batch.push_back(states[g]);
        }
      if (waiting.empty()) continue;
      playing = true;
      actions.resize(waiting.size());
      decide(group, std::span<const typename G::State>(batch), actions.data());
      for (size_t i = 0; i < waiting.size(); ++i) {
        on_decided(waiting[i], i, actions[i]);
        game.apply(states[waiting[i]], actions[i]);
      }
    }
  }
  return true;
}

}  // namespace knightgym
