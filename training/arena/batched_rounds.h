// The round loop of games played all at once on one thread, for the arena's batched
// matches (batched_match.h): each round, for each group 0..groups-1 in turn, the games
// whose mover belongs to that group are decided together by one call and then advanced;
// once the round is over, each slot whose game has ended may take the next game, until
// no slot holds a game in play. A group is whoever decides together: an agent in a match
// (game g seats agent (seat + g) mod k). The teacher, one agent in every seat, has its
// own loop (training/teacher/typed_teacher.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "agents/agent.h"

namespace knightgym {

// `states` are the slots, each holding a game. group_of(slot, mover): the group that
// decides the slot's move; decide(group, batch, actions): its actions for the states of
// `batch` (act_batch's contract); on_decided(slot, i, action): the slot's game, the i-th
// of its batch, is about to take `action` (its state still the one decided);
// refill(slot): the slot's game is over, returns whether the slot now holds another (one
// whose state may be over already). Returns false if `stop` was set before some group was
// decided (the games then stand where they are), true once no slot holds a game.
template <Game G, class GroupOf, class Decide, class OnDecided, class Refill>
bool play_rounds(const G& game, std::vector<typename G::State>& states, int groups,
                 GroupOf&& group_of, Decide&& decide, OnDecided&& on_decided, Refill&& refill,
                 const std::atomic<bool>* stop) {
  std::vector<int64_t> waiting;
  std::vector<typename G::State> batch;
  std::vector<Action> actions;
  const auto count = static_cast<int64_t>(states.size());
  std::vector<char> holds_game(static_cast<size_t>(count), 1);
  for (int64_t open = count; open > 0;) {
    for (int group = 0; group < groups; ++group) {
      if (stop && *stop) return false;
      waiting.clear();
      batch.clear();
      for (int64_t s = 0; s < count; ++s)
        if (holds_game[s] && !game.terminal(states[s]) &&
            group_of(s, game.current_player(states[s])) == group) {
          waiting.push_back(s);
          batch.push_back(states[s]);
        }
      if (waiting.empty()) continue;
      actions.resize(waiting.size());
      decide(group, std::span<const typename G::State>(batch), actions.data());
      for (size_t i = 0; i < waiting.size(); ++i) {
        on_decided(waiting[i], i, actions[i]);
        game.apply(states[waiting[i]], actions[i]);
      }
    }
    for (int64_t s = 0; s < count; ++s)
      if (holds_game[s] && game.terminal(states[s]) && !refill(s)) {
        holds_game[s] = 0;
        --open;
      }
  }
  return true;
}

}  // namespace knightgym
