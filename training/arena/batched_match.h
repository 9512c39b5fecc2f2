// Games between agents played all at once on one thread: each round, every agent decides
// for all the games where it is to move with one act_batch, so an AlphaZero agent sends
// one evaluator batch per round of simulations instead of one position at a time. Seats
// rotate as in play_arena (game g seats agent (seat + g) mod k) and every k consecutive
// games start from the same position (after `opening_plies` random actions drawn as
// play_game draws them); the result depends only on the seed. Games are numbered from
// `first`, so a long series can be played in chunks. Once `stop` is set, it throws
// std::runtime_error before the next agent decides (batched_rounds.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "agents/agent.h"
#include "training/arena/arena.h"
#include "training/arena/batched_rounds.h"

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
  const bool finished = play_rounds(
      game, states, k, [&](int64_t g, int mover) { return records[g].agent_of_seat[mover]; },
      [&](int agent, std::span<const State> batch, Action* actions) {
        agents[agent]->act_batch(batch, actions);
      },
      [&](int64_t g, size_t, Action action) {
        records[g].actions.push_back(action);
        ++records[g].decisions;
      },
      stop);
  if (!finished) throw std::runtime_error("play_batched: stopped");
  for (int64_t g = 0; g < games; ++g) {
    records[g].returns.resize(players);
    game.returns(states[g], records[g].returns.data());
    records[g].truncated = game.truncated(states[g]);
  }
  return records;
}

}  // namespace knightgym
