#include <cstdio>
#include <string>

#include "agents/agent_kinds.h"
#include "agents/pretrained.h"
#include "env/registry/registry.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"

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
  const bool names_only = args.get_switch("names");
  args.finish();
  if (names_only) {  // one game name a line, for scripts
    for (const GameEntry& entry : registered_games())
      std::printf("%s\n", std::string(entry.name).c_str());
    return 0;
  }
  if (agents_only) {
    for (size_t k = 0; k < AgentKinds::kNames.size(); ++k) {
      std::printf("%s: %s\n", std::string(AgentKinds::kNames[k]).c_str(),
                  std::string(AgentKinds::kSummaries[k]).c_str());
      print_params(agent_params(AgentKinds::kNames[k]));
    }
    // What az:model=pretrained plays; a missing or broken manifest is said, not fatal.
    std::printf("\nshipped networks (az:model=pretrained), %s:\n",
                manifest_path(models_directory()).c_str());
    try {
      for (const PretrainedModel& model : read_manifest(models_directory())) {
        std::printf("  %s: %s\n", model.name.c_str(), model.game.c_str());
        for (const auto& [key, value] : model.fields)
          if (key != "file" && key != "game")
            std::printf("    %-10s %s\n", key.c_str(), value.c_str());
      }
    } catch (const std::invalid_argument& error) {
      std::printf("  none: %s\n", error.what());
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
  for (const std::string_view kind : AgentKinds::kNames)
    std::printf("%s ", std::string(kind).c_str());
  std::printf("\n");
  return 0;
}

}  // namespace knightgym::cli
