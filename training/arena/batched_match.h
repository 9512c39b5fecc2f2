// Games between agents played all at once on one thread: each round, every agent decides
// for all the games where it is to move with one act_batch, so an AlphaZero agent sends
// one evaluator batch per round of simulations instead of one position at a time. Seats
// rotate as in play_arena (game g seats agent (seat + g) mod k) and every k consecutive
// games start from the same position (after `opening_plies` random actions drawn as
// play_game draws them); the result depends only on the seed and `in_flight`. Games are
// numbered from `first`, so a long series can be played in chunks. With `in_flight` 0
// (or at least `games`) every game starts at once; with fewer, that many are in play and
// a game that ends gives its place to the next, in order, so the batches stay full where
// game lengths vary. Once `stop` is set, it throws std::runtime_error before the next
// agent decides (batched_rounds.h).
#pragma once

#include <algorithm>
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
                                     int opening_plies = 0, const std::atomic<bool>* stop = nullptr,
                                     int64_t in_flight = 0) {
  using State = typename G::State;
  const int k = static_cast<int>(agents.size());
  const int players = game.info().num_players;
  const int64_t slots = in_flight > 0 ? std::min(in_flight, games) : games;
  std::vector<GameRecord> records(games);
  std::vector<State> states(slots);
  std::vector<int64_t> game_in_slot(slots);
  int64_t next = 0;
  const auto start_next = [&](int64_t slot) {
    const int64_t g = next++;
    game_in_slot[slot] = g;
    GameRecord& record = records[g];
    for (int seat = 0; seat < players; ++seat)
      record.agent_of_seat.push_back(static_cast<int>((seat + first + g) % k));
    record.start_seed = start_seed(seed, first + g, k);
    Rng rng(record.start_seed);
    State& state = states[slot];
    game.init(state, rng);
    Rng opening = opening_rng(seed, (first + g) / k);
    Action legal[G::kMaxActions];
    for (int ply = 0; ply < opening_plies && !game.terminal(state); ++ply) {
      const int count = game.legal_actions(state, legal);
      const Action action = legal[opening.below(static_cast<uint32_t>(count))];
      game.apply(state, action);
      record.actions.push_back(action);
      ++record.decisions;
    }
  };
  for (int64_t slot = 0; slot < slots; ++slot) start_next(slot);
  const bool finished = play_rounds(
      game, states, k,
      [&](int64_t slot, int mover) { return records[game_in_slot[slot]].agent_of_seat[mover]; },
      [&](int agent, std::span<const State> batch, Action* actions) {
        agents[agent]->act_batch(batch, actions);
      },
      [&](int64_t slot, size_t, Action action) {
        GameRecord& record = records[game_in_slot[slot]];
        record.actions.push_back(action);
        ++record.decisions;
      },
      [&](int64_t slot) {
        GameRecord& record = records[game_in_slot[slot]];
        record.returns.resize(players);
        game.returns(states[slot], record.returns.data());
        record.truncated = game.truncated(states[slot]);
        if (next == games) return false;
        start_next(slot);
        return true;
      },
      stop);
  if (!finished) throw std::runtime_error("play_batched: stopped");
  return records;
}

}  // namespace knightgym
