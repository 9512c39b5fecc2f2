// The agent checks shared by the tests with and without LibTorch (agent_checks.h).
#include "tests/cpp/agents/agent_checks.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "agents/any_agent.h"
#include "env/registry/registry.h"

namespace knightgym {

void check_act_batch_equals_act(const std::string& spec) {
  const auto game = load_game("tailten");
  INFO(spec);
  const AgentFactory factory(spec, game);
  std::vector<std::unique_ptr<AnyState>> states;
  std::vector<const AnyState*> views;
  for (uint64_t seed = 0; seed < 8; ++seed) {
    states.push_back(game->new_initial_state(seed));
    for (int ply = 0; ply < static_cast<int>(seed); ++ply)
      states.back()->apply_action(states.back()->legal_actions()[ply % 3]);
    views.push_back(states.back().get());
  }
  const auto batched = factory.make(5)->act_batch(views);
  const auto single = factory.make(5);
  for (size_t i = 0; i < views.size(); ++i) CHECK(single->act(*views[i]) == batched[i]);
}

}  // namespace knightgym
