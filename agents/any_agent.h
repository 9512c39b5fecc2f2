// Agents behind one virtual call per decision, for the CLI and Python: an AgentFactory
// parses a spec against a game and loads what its agents share (a network) once; each
// agent it makes has its own seeded stream.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "agents/agent.h"
#include "agents/agent_kinds.h"
#include "agents/evaluator.h"
#include "env/registry/any_game.h"

namespace knightgym {

class AnyAgent {
 public:
  virtual ~AnyAgent() = default;
  // Throws std::invalid_argument if the state is over or of another game.
  virtual Action act(const AnyState& state, const SearchLimits& limits = {}) = 0;
  // One action per state, searched together (equal to act() on each in turn).
  virtual std::vector<Action> act_batch(std::span<const AnyState* const> states,
                                        const SearchLimits& limits = {}) = 0;
  virtual SearchReport last_report() const = 0;
};

class AgentFactory {
 public:
  // For a registered game (env/registry/game_list.h). Throws std::invalid_argument for a
  // bad spec or a model that does not fit the game.
  AgentFactory(std::string_view spec, std::shared_ptr<const AnyGame> game);

  // For any game G whose AnyGame is a GameAdapter<G>, registered or not (a game defined
  // in a test): agents/agent_adapter.h.
  template <Game G>
  static AgentFactory of(std::string_view spec, std::shared_ptr<const AnyGame> game);

  const AgentConfig& config() const { return config_; }
  const AnyGame& game() const { return *game_; }
  std::unique_ptr<AnyAgent> make(uint64_t seed) const { return make_(seed); }

 private:
  using Maker = std::function<std::unique_ptr<AnyAgent>(uint64_t seed)>;
  AgentFactory(AgentConfig config, std::shared_ptr<const AnyGame> game, Maker make)
      : config_(std::move(config)), game_(std::move(game)), make_(std::move(make)) {}

  AgentConfig config_;
  std::shared_ptr<const AnyGame> game_;
  Maker make_;  // typed agents of the game, sharing what the spec shares (a network)
};

}  // namespace knightgym
