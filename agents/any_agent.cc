#include "agents/any_agent.h"

#include "agents/agent_adapter.h"
#include "agents/game_registration.h"

namespace knightgym {

AgentFactory::AgentFactory(std::string_view spec, std::shared_ptr<const AnyGame> game) {
  *this = TypedCode<TypedAgents>::of(*game, "the agents").factory(spec, game);
}

}  // namespace knightgym
