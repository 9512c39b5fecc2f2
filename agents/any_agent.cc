#include "agents/any_agent.h"

#include <stdexcept>

#include "agents/make_agent.h"
#include "env/registry/game_list.h"

namespace knightgym {
namespace {

template <Game G>
class AgentAdapter final : public AnyAgent {
 public:
  AgentAdapter(std::shared_ptr<const AnyGame> game, std::unique_ptr<Agent<G>> agent)
      : game_(std::move(game)), agent_(std::move(agent)) {}

  Action act(const AnyState& state, const SearchLimits& limits) override {
    return agent_->act(typed(state), limits);
  }

  std::vector<Action> act_batch(std::span<const AnyState* const> states) override {
    states_.clear();
    for (const AnyState* state : states) states_.push_back(typed(*state));
    std::vector<Action> actions(states.size());
    agent_->act_batch(states_, actions.data());
    return actions;
  }

  SearchReport last_report() const override { return agent_->last_report(); }

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

}  // namespace

AgentFactory::AgentFactory(std::string_view spec, std::shared_ptr<const AnyGame> game)
    : config_(read_agent_config(spec)), game_(std::move(game)) {
  evaluator_ = make_evaluator(config_, game_->info(), game_->spec());
}

std::unique_ptr<AnyAgent> AgentFactory::make(uint64_t seed) const {
  std::unique_ptr<AnyAgent> agent;
  Games::visit(*game_, [&](const auto& rules) {
    using G = std::decay_t<decltype(rules)>;
    agent = std::make_unique<AgentAdapter<G>>(game_, make_agent(rules, config_, evaluator_, seed));
  });
  if (!agent) throw std::invalid_argument("no agents for game " + game_->spec());
  return agent;
}

std::shared_ptr<Evaluator> make_evaluator(const AgentConfig& config, const GameInfo& info,
                                          const std::string& game_spec) {
  if (config.kind != "az") return nullptr;
  if (info.num_players > kMaxPlayers)
    throw std::invalid_argument("search supports at most 4 players");
  if (config.model == "uniform") return std::make_shared<UniformEvaluator>(info);
  if (config.model == "resnet")
    return TorchEvaluator::create(info, game_spec, config.net, config.net_seed, config.device,
                                  config.threads);
  return TorchEvaluator::load(config.model, info, game_spec, config.device, config.threads);
}

}  // namespace knightgym
