#include "agents/any_agent.h"

#include <stdexcept>

#include "agents/agent_adapter.h"
#include "env/registry/game_list.h"

namespace knightgym {

AgentFactory::AgentFactory(std::string_view spec, std::shared_ptr<const AnyGame> game) {
  const bool registered = Games::visit(
      *game, [&](const auto& rules) { *this = of<std::decay_t<decltype(rules)>>(spec, game); });
  if (!registered) throw std::invalid_argument("no agents for game " + game->spec());
}

}  // namespace knightgym
