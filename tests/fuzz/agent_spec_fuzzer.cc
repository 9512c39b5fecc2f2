// Agent specs: the first line is a spec. Whatever read_agent_config accepts has a
// canonical spec that reads to itself; an agent made from it for a game (but of the
// external-engine kind `uci`, whose spec names a program to start) decides a legal action
// within a few simulations.
#include <algorithm>
#include <stdexcept>

#include "agents/agent_kinds.h"
#include "agents/any_agent.h"
#include "tests/fuzz/fuzz_checks.h"

using namespace knightgym;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  AgentConfig config;
  try {
    config = read_agent_config(text);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  fuzz::require(read_agent_config(config.spec).spec == config.spec,
                "the canonical spec does not read to itself: ", config.spec);
  if (config.kind() == "uci") return 0;
  // A registered game, its games short: a spec may ask for thousands of roll-outs.
  const std::vector<GameEntry>& games = registered_games();
  const auto game =
      load_game(std::string(games[fuzz::seed_of(text) % games.size()].name) + "(max_turns=4)");
  std::unique_ptr<AnyAgent> agent;
  try {
    agent = AgentFactory(config.spec, game).make(1);
  } catch (const std::invalid_argument&) {
    return 0;  // a spec that does not fit the game, or a network this build cannot make
  }
  const auto state = game->new_initial_state(2);
  SearchLimits limits;
  limits.sims = 8;
  const Action action = agent->act(*state, limits);
  const std::vector<Action> legal = state->legal_actions();
  fuzz::require(std::find(legal.begin(), legal.end(), action) != legal.end(), config.spec,
                " chose an illegal action");
  return 0;
}
