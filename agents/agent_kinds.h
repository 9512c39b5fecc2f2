// The one table of agent kinds. Everything that names kinds derives from it: agent specs
// ("random", "mcts:sims=400", "az:model=net.pt,sims=64,search=gumbel"), their parsing
// and canonical form, `knightgym list --agents`, Python's agents.kinds() and params(),
// the error for an unknown kind, and the construction of agents for any game. Adding a
// kind: its agent and kind struct in its own header (agents/agent.h says what a kind
// declares), then one entry in AgentKinds below (docs/agents.md).
//
// A spec is a kind, then ':' and key=value parameters separated by commas (or the
// game-spec form "mcts(sims=400)"). Each kind declares its parameters through a
// ParamReader, so unknown keys and bad values are errors that name them.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "agents/az_agent.h"
#include "agents/greedy_agent.h"
#include "agents/mcts_agent.h"
#include "agents/random_agent.h"
#include "agents/uci_agent.h"

namespace knightgym {

template <class... Kinds>
struct AgentKindList {
  // The settings of one agent: the Config of its kind.
  using Config = std::variant<typename Kinds::Config...>;
  static constexpr std::array<std::string_view, sizeof...(Kinds)> kNames = {Kinds::kName...};
  static constexpr std::array<std::string_view, sizeof...(Kinds)> kSummaries = {Kinds::kSummary...};

  // Calls f.template operator()<Kind>() for the kind at `index`.
  template <class F>
  static decltype(auto) visit(size_t index, F&& f) {
    return visit_from<0, Kinds...>(index, f);
  }

 private:
  template <size_t I, class Kind, class... Rest, class F>
  static decltype(auto) visit_from(size_t index, F& f) {
    if constexpr (sizeof...(Rest) == 0) {
      return f.template operator()<Kind>();
    } else {
      if (index == I) return f.template operator()<Kind>();
      return visit_from<I + 1, Rest...>(index, f);
    }
  }
};

using AgentKinds = AgentKindList<RandomKind, GreedyKind, MctsKind, AzKind, UciKind>;

struct AgentConfig {
  std::string spec;  // canonical: every parameter spelled out
  AgentKinds::Config settings;
  std::string_view kind() const { return AgentKinds::kNames[settings.index()]; }
};

// The kind and the key=value pairs as written ("mcts:sims=400" or "mcts(sims=400)"),
// nothing checked against the kind; throws std::invalid_argument as parse_spec does.
Spec parse_agent_spec(std::string_view text);

// Throws std::invalid_argument naming the problem (unknown kind, key or bad value).
AgentConfig read_agent_config(std::string_view spec);

// The parameters of a kind with their defaults and docs; throws for an unknown kind.
std::vector<ParamInfo> agent_params(std::string_view kind);

// "mcts:sims=400,c=2,random" -> {"mcts:sims=400,c=2", "random"}: a comma-separated item
// with '=' but no ':' or '(' continues the spec before it.
std::vector<std::string> split_agent_specs(std::string_view list);

// The network file an agent of `config` loads in the game of `game_spec` (an az agent's
// model file, or the shipped network for the game), or "" for an agent that loads none.
// Throws std::invalid_argument where `pretrained` has no network for the game.
std::string network_file(const AgentConfig& config, const std::string& game_spec);

// A network file that agents load, as their specs name it (a shipped network by its file
// in the models folder), and the FNV-1a hash of its bytes: which network played a run,
// so that a result or a resumed run can tell when a network was shipped anew.
struct NetworkUsed {
  std::string file;
  std::string fnv1a;  // 16 hex digits; all zeros for a file that cannot be read
  bool operator==(const NetworkUsed&) const = default;
};

// The networks the agents of `agent_specs` load in the games of `game_specs`, each once,
// sorted by file. A game that `pretrained` has no network for counts none (its games say
// so when played).
std::vector<NetworkUsed> networks_used(const std::vector<std::string>& agent_specs,
                                       const std::vector<std::string>& game_specs);

// [{"file": ..., "fnv1a": ...}, ...], as results record their networks.
std::string networks_json(const std::vector<NetworkUsed>& networks);

// What the agents of one spec share in one game (a network): made once, given to each
// make_agent. Throws std::invalid_argument if it cannot be made (a model file that does
// not fit the game).
std::shared_ptr<SharedResource> share_for_game(const AgentConfig& config, const GameInfo& info,
                                               const std::string& game_spec);

// An agent of `config` for a game, with its own seeded stream; `shared` is what
// share_for_game gave for this config and game.
template <Game G>
std::unique_ptr<Agent<G>> make_agent(const G& game, const AgentConfig& config,
                                     std::shared_ptr<SharedResource> shared, uint64_t seed) {
  return AgentKinds::visit(config.settings.index(), [&]<class Kind>() -> std::unique_ptr<Agent<G>> {
    return Kind::template make<G>(game, std::get<typename Kind::Config>(config.settings),
                                  std::move(shared), seed);
  });
}

}  // namespace knightgym
