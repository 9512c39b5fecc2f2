// A game that no list names, registered at run time with everything the agents layer
// offers a game: the registry learns it (env/registry/registry.h: register_game), and the
// agent factory and the opponent env find their typed code for it by its name, where the
// games of the list are found through Games::visit. A game defined in the test tree (the
// Python module built for it, tests/games/) or a program's own game calls
// register_game_with_agents<G>() while it loads, before other threads use the registry.
#pragma once

#include <memory>
#include <string_view>

#include "agents/agent_adapter.h"
#include "agents/agent_kinds.h"
#include "agents/any_agent.h"
#include "agents/opponent_env.h"
#include "env/registry/game_adapter.h"
#include "env/registry/registry.h"

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

// The typed agents of a game registered at run time.
struct TypedAgents {
  AgentFactory (*factory)(std::string_view spec, std::shared_ptr<const AnyGame> game);
  std::unique_ptr<AnyOpponentEnv> (*opponent_env)(std::shared_ptr<const AnyGame> game,
                                                  const AgentConfig& config,
                                                  std::shared_ptr<SharedResource> shared,
                                                  const VectorEnvOptions& options,
                                                  int learner_seat);
};

// Those of the game named `name`, nullptr if none were registered.
const TypedAgents* registered_agents(std::string_view name);
void register_agents(std::string_view name, TypedAgents agents);

template <Game G>
void register_game_with_agents() {
  register_game(game_entry<G>());
  register_agents(G::kName, {&AgentFactory::of<G>, &make_opponent_env_of<G>});
}

}  // namespace knightgym
