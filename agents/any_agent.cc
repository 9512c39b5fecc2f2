#include "agents/any_agent.h"

#include <stdexcept>

#include "agents/agent_adapter.h"
#include "agents/game_registration.h"
#include "env/registry/game_list.h"

namespace knightgym {

AgentFactory::AgentFactory(std::string_view spec, std::shared_ptr<const AnyGame> game) {
  const bool listed = Games::visit(
      *game, [&](const auto& rules) { *this = of<std::decay_t<decltype(rules)>>(spec, game); });
  if (listed) return;
  const TypedAgents* registered = registered_agents(game->name());
  if (!registered) throw std::invalid_argument("no agents for game " + game->spec());
  *this = registered->factory(spec, std::move(game));
}

}  // namespace knightgym
