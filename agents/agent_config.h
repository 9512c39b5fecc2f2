// Agent specs: "random", "greedy", "mcts:sims=400", "az:model=net.pt,sims=64,search=gumbel".
// A kind, then ':' and key=value parameters separated by commas (or the game-spec form
// "mcts(sims=400)"). Each kind declares its parameters through a ParamReader, so unknown
// keys and bad values are errors that name them, and `knightgym list --agents` shows them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "agents/az_search.h"
#include "agents/mcts_agent.h"
#include "agents/torch_evaluator.h"
#include "env/core/params.h"

namespace knightgym {

struct AgentConfig {
  std::string kind;  // random, greedy, mcts or az
  std::string spec;  // canonical: every parameter spelled out
  MctsConfig mcts;
  AzConfig az;
  std::string model = "uniform";  // az: uniform, resnet (fresh, from net_seed) or a file
  NetConfig net;
  uint64_t net_seed = 0;
  std::string device = "cpu";
  int threads = 0;  // LibTorch intra-op threads; 0 leaves its default
};

inline const std::vector<std::string>& agent_kinds() {
  static const std::vector<std::string> kinds = {"random", "greedy", "mcts", "az"};
  return kinds;
}

// Throws std::invalid_argument naming the problem (unknown kind, key or bad value).
AgentConfig read_agent_config(std::string_view spec);

// The parameters of a kind with their defaults and docs.
std::vector<ParamInfo> agent_params(const std::string& kind);

// "mcts:sims=400,c=2,random" -> {"mcts:sims=400,c=2", "random"}: a comma-separated item
// with '=' but no ':' or '(' continues the spec before it.
std::vector<std::string> split_agent_specs(std::string_view list);

}  // namespace knightgym
