#include "agents/opponent_env.h"

#include "agents/agent_kinds.h"
#include "agents/game_registration.h"

namespace knightgym {

std::unique_ptr<AnyOpponentEnv> make_opponent_env(std::shared_ptr<const AnyGame> game,
                                                  const std::string& opponent_spec,
                                                  const VectorEnvOptions& options,
                                                  int learner_seat) {
  if (options.num_threads != 1)
    throw std::invalid_argument("an opponent env steps on one thread: num_threads must be 1, got " +
                                std::to_string(options.num_threads));
  const AgentConfig config = read_agent_config(opponent_spec);
  const std::shared_ptr<SharedResource> shared =
      share_for_game(config, game->info(), game->spec());  // a network is loaded once
  return TypedCode<TypedAgents>::of(*game, "an opponent env")
      .opponent_env(game, config, shared, options, learner_seat);
}

}  // namespace knightgym
