#include "agents/game_registration.h"

#include <map>
#include <string>

namespace knightgym {
namespace {

std::map<std::string, TypedAgents, std::less<>>& table() {
  static std::map<std::string, TypedAgents, std::less<>> agents;
  return agents;
}

}  // namespace

const TypedAgents* registered_agents(std::string_view name) {
  const auto found = table().find(name);
  return found == table().end() ? nullptr : &found->second;
}

void register_agents(std::string_view name, TypedAgents agents) {
  table().emplace(std::string(name), agents);
}

}  // namespace knightgym
