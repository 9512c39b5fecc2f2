// The typed agent behind AnyAgent, and AgentFactory::of, which builds the factory of any
// game G from its typed rules: the one place where the type-erased face meets the
// agent templates.
#pragma once

#include <memory>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "agents/agent_kinds.h"
#include "agents/any_agent.h"
#include "env/registry/game_adapter.h"

namespace knightgym {

template <Game G>
class AgentAdapter final : public AnyAgent {
 public:
  AgentAdapter(std::shared_ptr<const AnyGame> game, std::unique_ptr<Agent<G>> agent)
      : game_(std::move(game)), agent_(std::move(agent)) {}

  Action act(const AnyState& state, const SearchLimits& limits) override {
    return agent_->act(typed(state), limits);
  }

  std::vector<Action> act_batch(std::span<const AnyState* const> states,
                                const SearchLimits& limits) override {
    states_.clear();
    for (const AnyState* state : states) states_.push_back(typed(*state));
    std::vector<Action> actions(states.size());
    agent_->act_batch(states_, actions.data(), limits);
    return actions;
  }

  SearchReport last_report() const override { return agent_->last_report(); }

  // The typed agent, for loops over typed states (training/arena/batched_match.h).
  Agent<G>& typed_agent() { return *agent_; }

 private:
  const typename G::State& typed(const AnyState& state) const {
    const auto* adapter = dynamic_cast<const StateAdapter<G>*>(&state);
    if (!adapter || adapter->game().spec() != game_->spec())
      throw std::invalid_argument("the state is of " + state.game().spec() + "; the agent plays " +
                                  game_->spec());
    if (adapter->is_terminal())
      throw std::invalid_argument("the game is over: there is no action to choose");
    return adapter->state();
  }

  std::shared_ptr<const AnyGame> game_;
  std::unique_ptr<Agent<G>> agent_;
  std::vector<typename G::State> states_;
};

// The typed agent behind an agent made for a game G (by AgentFactory): for code that plays
// it on G's typed rules, such as the batched games of the arena and the teacher.
template <Game G>
Agent<G>& typed_agent(AnyAgent& agent) {
  return dynamic_cast<AgentAdapter<G>&>(agent).typed_agent();
}

template <Game G>
std::vector<Agent<G>*> typed_agents(const std::vector<std::unique_ptr<AnyAgent>>& agents) {
  std::vector<Agent<G>*> typed;
  for (const auto& agent : agents) typed.push_back(&typed_agent<G>(*agent));
  return typed;
}

template <Game G>
AgentFactory AgentFactory::of(std::string_view spec, std::shared_ptr<const AnyGame> game) {
  const auto* rules = dynamic_cast<const GameAdapter<G>*>(game.get());
  if (!rules) throw std::invalid_argument("no agents for game " + game->spec());
  AgentConfig config = read_agent_config(spec);
  std::shared_ptr<SharedResource> shared = share_for_game(config, game->info(), game->spec());
  Maker make = [game, rules, config, shared](uint64_t seed) -> std::unique_ptr<AnyAgent> {
    return std::make_unique<AgentAdapter<G>>(game,
                                             make_agent(rules->rules(), config, shared, seed));
  };
  return AgentFactory(std::move(config), std::move(game), std::move(make));
}

}  // namespace knightgym
