// Agents of a game from their configuration: the typed face for C++ callers (self-play,
// the arena), and make_evaluator, which loads or builds what `az` agents share.
#pragma once

#include <memory>

#include "agents/agent_config.h"
#include "agents/az_agent.h"
#include "agents/greedy_agent.h"
#include "agents/mcts_agent.h"
#include "agents/random_agent.h"

namespace knightgym {

// The evaluator an `az` config names: uniform, a fresh ResNet, or a TorchScript file.
// Null for the other kinds.
std::shared_ptr<Evaluator> make_evaluator(const AgentConfig& config, const GameInfo& info,
                                          const std::string& game_spec);

// `evaluator` is the one make_evaluator gave for this config (agents of one spec share it).
template <Game G>
std::unique_ptr<Agent<G>> make_agent(const G& game, const AgentConfig& config,
                                     std::shared_ptr<Evaluator> evaluator, uint64_t seed) {
  if (config.kind == "random") return std::make_unique<RandomAgent<G>>(game, seed);
  if (config.kind == "greedy") return std::make_unique<GreedyAgent<G>>(game, seed);
  if (config.kind == "mcts") return std::make_unique<MctsAgent<G>>(game, config.mcts, seed);
  return std::make_unique<AzAgent<G>>(game, config.az, std::move(evaluator), seed);
}

}  // namespace knightgym
