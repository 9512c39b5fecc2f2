// Games between agents played all at once on one thread: each round, every agent decides
// for all the games where it is to move with one act_batch, so an AlphaZero agent sends
// one evaluator batch per round of simulations instead of one position at a time. Seats
// rotate as in play_arena (game g seats agent (seat + g) mod k) and every k consecutive
// games start from the same position (after `opening_plies` random actions drawn as
// play_game draws them); the result depends only on the seed. Games are numbered from
// `first`, so a long series can be played in chunks. Once `stop` is set, it throws
// std::runtime_error between rounds.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "agents/agent.h"
#include "training/arena/arena.h"

namespace knightgym {

template <Game G>
std::vector<GameRecord> play_batched(const G& game, std::span<Agent<G>* const> agents,
                                     int64_t games, uint64_t seed, int64_t first = 0,
                                     int opening_plies = 0,
                                     const std::atomic<bool>* stop = nullptr) {
  using State = typename G::State;
  const int k = static_cast<int>(agents.size());
  const int players = game.info().num_players;
  std::vector<GameRecord> records(games);
  std::vector<State> states(games);
  for (int64_t g = 0; g < games; ++g) {
    for (int seat = 0; seat < players; ++seat)
      records[g].agent_of_seat.push_back(static_cast<int>((seat + first + g) % k));
    records[g].start_seed = start_seed(seed, first + g, k);
    Rng rng(records[g].start_seed);
    game.init(states[g], rng);
    Rng opening = opening_rng(seed, (first + g) / k);
    Action legal[G::kMaxActions];
    for (int ply = 0; ply < opening_plies && !game.terminal(states[g]); ++ply) {
      const int count = game.legal_actions(states[g], legal);
      const Action action = legal[opening.below(static_cast<uint32_t>(count))];
      game.apply(states[g], action);
      records[g].actions.push_back(action);
      ++records[g].decisions;
    }
  }
  std::vector<int64_t> waiting;
  std::vector<State> batch;
  std::vector<Action> actions;
  for (bool playing = true; playing;) {
    if (stop && *stop) throw std::runtime_error("play_batched: stopped");
    playing = false;
    for (int agent = 0; agent < k; ++agent) {
      waiting.clear();
      batch.clear();
      for (int64_t g = 0; g < games; ++g) {
        if (game.terminal(states[g])) continue;
        if (records[g].agent_of_seat[game.current_player(states[g])] != agent) continue;
        waiting.push_back(g);
        batch.push_back(states[g]);
      }
      if (waiting.empty()) continue;
      playing = true;
      actions.resize(waiting.size());
      agents[agent]->act_batch(batch, actions.data());
      for (size_t i = 0; i < waiting.size(); ++i) {
        game.apply(states[waiting[i]], actions[i]);
        records[waiting[i]].actions.push_back(actions[i]);
        ++records[waiting[i]].decisions;
      }
    }
  }
  for (int64_t g = 0; g < games; ++g) {
    records[g].returns.resize(players);
    game.returns(states[g], records[g].returns.data());
    records[g].truncated = game.truncated(states[g]);
  }
  return records;
}

}  // namespace knightgym
