// The batched arena's typed code for a game (env/registry/typed_code.h): games played
// together on one thread, every agent deciding for all of them at once (batched_match.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "agents/agent_adapter.h"
#include "env/registry/typed_code.h"
#include "training/arena/batched_match.h"

namespace knightgym {

struct TypedMatches {
  // play_batched on the game's typed rules, with agents made for the game.
  std::vector<GameRecord> (*play_together)(const AnyGame& game,
                                           const std::vector<std::unique_ptr<AnyAgent>>& agents,
                                           int64_t games, uint64_t seed, int64_t first,
                                           int opening_plies, const std::atomic<bool>* stop,
                                           int64_t in_flight);

  template <Game G>
  static TypedMatches of() {
    return {[](const AnyGame& game, const std::vector<std::unique_ptr<AnyAgent>>& agents,
               int64_t games, uint64_t seed, int64_t first, int opening_plies,
               const std::atomic<bool>* stop, int64_t in_flight) {
      const std::vector<Agent<G>*> typed = typed_agents<G>(agents);
      return play_batched(typed_rules<G>(game), std::span<Agent<G>* const>(typed), games, seed,
                          first, opening_plies, stop, in_flight);
    }};
  }
};

}  // namespace knightgym
