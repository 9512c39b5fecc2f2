// The agents layer's typed code for a game (env/registry/typed_code.h): the agent factory
// and the opponent env. A game that no list names is registered at run time with
// everything the agents layer offers by register_game_with_agents<G>(): the registry learns
// it (env/registry/registry.h: register_game), and TypedCode<TypedAgents> its typed code,
// as the games of the list have theirs. The layers above add theirs the same way
// (training/game_registration.h: register_game_for_play, with the batched arena and the
// teacher; training/trainer/typed_training.h: register_game_for_training). A game defined
// in the test tree (tests/games/) or a program's own game calls the highest its program
// links while it loads, before other threads use the registry.
#pragma once

#include <memory>
#include <string_view>

#include "agents/agent_adapter.h"
#include "agents/agent_kinds.h"
#include "agents/any_agent.h"
#include "agents/opponent_env.h"
#include "env/registry/game_adapter.h"
#include "env/registry/registry.h"
#include "env/registry/typed_code.h"

namespace knightgym {

// The opponent env of a game G whose AnyGame is a GameAdapter<G> (opponent_env.h:
// make_opponent_env).
template <Game G>
std::unique_ptr<AnyOpponentEnv> make_opponent_env_of(std::shared_ptr<const AnyGame> game,
                                                     const AgentConfig& config,
                                                     std::shared_ptr<SharedResource> shared,
                                                     const VectorEnvOptions& options,
                                                     int learner_seat) {
  auto typed = std::dynamic_pointer_cast<const GameAdapter<G>>(game);
  if (!typed) throw std::invalid_argument("no opponents for game " + game->spec());
  auto make_opponent = [rules = typed->rules(), config, shared](uint64_t seed) {
    return make_agent(rules, config, shared, derive_seed(seed, ~uint64_t{0}));
  };
  return std::make_unique<OpponentEnv<G>>(std::move(typed), std::move(make_opponent), options,
                                          learner_seat);
}

// The agents' typed code for a game.
struct TypedAgents {
  AgentFactory (*factory)(std::string_view spec, std::shared_ptr<const AnyGame> game);
  std::unique_ptr<AnyOpponentEnv> (*opponent_env)(std::shared_ptr<const AnyGame> game,
                                                  const AgentConfig& config,
                                                  std::shared_ptr<SharedResource> shared,
                                                  const VectorEnvOptions& options,
                                                  int learner_seat);

  template <Game G>
  static TypedAgents of() {
    return {&AgentFactory::of<G>, &make_opponent_env_of<G>};
  }
};

template <Game G>
void register_game_with_agents() {
  register_game(game_entry<G>());
  TypedCode<TypedAgents>::add<G>();
}

}  // namespace knightgym
