#include "agents/opponent_env.h"

#include "agents/agent_kinds.h"
#include "env/registry/game_list.h"

namespace knightgym {

std::unique_ptr<AnyOpponentEnv> make_opponent_env(std::shared_ptr<const AnyGame> game,
                                                  const std::string& opponent_spec, int num_envs,
                                                  uint64_t seed) {
  const AgentConfig config = read_agent_config(opponent_spec);
  std::unique_ptr<AnyOpponentEnv> env;
  Games::visit(*game, [&](const auto& rules) {
    using G = std::decay_t<decltype(rules)>;
    auto opponent = make_agent(rules, config, share_for_game(config, game->info(), game->spec()),
                               derive_seed(seed, ~uint64_t{0}));
    env = std::make_unique<OpponentEnv<G>>(game, rules, std::move(opponent), num_envs, seed);
  });
  if (!env) throw std::invalid_argument("no opponents for game " + game->spec());
  return env;
}

}  // namespace knightgym
