#include <cstdio>
#include <string>

#include "agents/agent_config.h"
#include "env/registry/registry.h"
#include "training/cli/args.h"
#include "training/cli/commands.h"

namespace knightgym::cli {

namespace {

void print_params(const std::vector<ParamInfo>& params) {
  for (const ParamInfo& param : params) {
    std::string kind = param.type;
    if (!param.choices.empty()) {
      kind.clear();
      for (const auto& choice : param.choices) kind += (kind.empty() ? "" : "|") + choice;
    }
    std::printf("  %-16s %-22s default %-9s %s\n", param.name.c_str(), kind.c_str(),
                param.default_value.c_str(), param.doc.c_str());
  }
}

}  // namespace

int list_command(Args& args) {
  const bool agents_only = args.get_switch("agents");
  args.finish();
  if (agents_only) {
    for (const std::string& kind : agent_kinds()) {
      std::printf("%s\n", kind.c_str());
      print_params(agent_params(kind));
    }
    return 0;
  }
  for (const GameEntry& entry : registered_games()) {
    const auto game = entry.load(Spec{std::string(entry.name), {}});
    const GameInfo& info = game->info();
    const Shape& shape = info.observation_shape;
    std::printf("%s: %s\n  players %d, actions %d, observation [%d, %d, %d]\n",
                std::string(entry.name).c_str(), std::string(entry.summary).c_str(),
                info.num_players, info.num_actions, shape.channels, shape.height, shape.width);
    print_params(game->params());
  }
  std::printf("\nagents (knightgym list --agents for their parameters): ");
  for (const std::string& kind : agent_kinds()) std::printf("%s ", kind.c_str());
  std::printf("\n");
  return 0;
}

}  // namespace knightgym::cli
