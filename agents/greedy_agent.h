// The greedy agent: tries every legal action and keeps one that leaves the best
// position for the mover by the game's heuristic (env/core/heuristic.h); a win beats any tally,
// a loss is worse than any. Ties are broken uniformly at random (seeded).
#pragma once

#include <limits>

#include "agents/agent.h"
#include "env/core/heuristic.h"

namespace knightgym {

template <Game G>
class GreedyAgent final : public Agent<G> {
 public:
  GreedyAgent(const G& game, uint64_t seed) : game_(game), rng_(seed) {}

  Action act(const typename G::State& state, const SearchLimits& = {}) override {
    constexpr float kDecided = 1e6f;  // beyond any tally
    const int player = game_.current_player(state);
    Action legal[G::kMaxActions];
    const int n = game_.legal_actions(state, legal);
    float best = -std::numeric_limits<float>::infinity();
    Action chosen = -1;  // set by the first action: every value beats -infinity
    uint32_t ties = 0;
    float returns[4];
    for (int i = 0; i < n; ++i) {
      typename G::State next = state;
      game_.apply(next, legal[i]);
      float value;
      if (game_.terminal(next)) {
        game_.returns(next, returns);
        value = kDecided * returns[player];
      } else {
        value = heuristic_value(game_, next, player);
      }
      // Reservoir sampling over the best: each tied action is kept with equal chance.
      if (value > best) {
        best = value, chosen = legal[i], ties = 1;
      } else if (value == best && rng_.below(++ties) == 0) {
        chosen = legal[i];
      }
    }
    return chosen;
  }

 private:
  const G& game_;
  Rng rng_;
};

struct GreedyKind : SharesNothing {
  static constexpr std::string_view kName = "greedy";
  static constexpr std::string_view kSummary =
      "one move ahead: a win, else the best position by the game's heuristic";
  struct Config {};
  static void read(ParamReader&, Config&) {}
  template <Game G>
  static std::unique_ptr<Agent<G>> make(const G& game, const Config&,
                                        const std::shared_ptr<SharedResource>&, uint64_t seed) {
    return std::make_unique<GreedyAgent<G>>(game, seed);
  }
};

}  // namespace knightgym
