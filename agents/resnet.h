// The project's network as a TorchScript module built in C++: a residual tower (Silver et
// al. 2017) over the game's observation planes, a policy head with one logit per action
// and a value head with a tanh output per player. Being TorchScript, it trains from C++,
// saves with Module::save and loads in Python with torch.jit.load. Includes LibTorch:
// only for the few translation units that need it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <torch/script.h>

#include "agents/torch_evaluator.h"
#include "env/core/types.h"

namespace knightgym {

// Also records the game (attributes game_spec, num_actions, num_players) and the rule sets
// it learns to play (rule_sets: canonical specs; empty: game_spec alone), so that a model
// is not used for rules it was not made for. In training mode; call eval() to infer.
torch::jit::Module make_resnet(const GameInfo& info, const std::string& game_spec,
                               const NetConfig& net, uint64_t seed,
                               const std::vector<std::string>& rule_sets = {});

// The rule sets a module records: its rule_sets, or for a module made before them its
// game_spec alone; none for a module that records no game.
std::vector<std::string> recorded_rule_sets(const torch::jit::Module& module);

}  // namespace knightgym
