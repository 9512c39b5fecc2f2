#include <algorithm>

#include "agents/agent_adapter.h"
#include "env/core/rng.h"
#include "env/registry/game_list.h"
#include "training/arena/arena.h"
#include "training/arena/batched_match.h"

namespace knightgym {
namespace {

// The agents' typed faces for the game's typed rules, and `play(rules, typed agents)`.
template <class Play>
void with_typed_agents(const AnyGame& game, const std::vector<std::unique_ptr<AnyAgent>>& agents,
                       const Play& play) {
  Games::visit(game, [&](const auto& rules) {
    using G = std::decay_t<decltype(rules)>;
    std::vector<Agent<G>*> typed;
    for (const auto& agent : agents)
      typed.push_back(&dynamic_cast<AgentAdapter<G>&>(*agent).typed_agent());
    play(rules, std::span<Agent<G>* const>(typed));
  });
}

std::vector<std::unique_ptr<AnyAgent>> make_agents(
    const std::vector<std::shared_ptr<const AgentFactory>>& factories, uint64_t seed) {
  std::vector<std::unique_ptr<AnyAgent>> agents;
  for (size_t a = 0; a < factories.size(); ++a)
    agents.push_back(factories[a]->make(derive_seed(seed, a + 1)));
  return agents;
}

}  // namespace

std::vector<GameRecord> play_arena_in_batches(
    const AnyGame& game, const std::vector<std::shared_ptr<const AgentFactory>>& agents,
    const ArenaOptions& options, int64_t batch, const std::function<void(int64_t)>& progress) {
  if (batch < 1) throw std::invalid_argument("play_arena_in_batches: batch must be at least 1");
  std::vector<GameRecord> records;
  with_typed_agents(game, make_agents(agents, options.seed), [&](const auto& rules, auto seated) {
    for (int64_t first = 0; first < options.games; first += batch) {
      const auto chunk = play_batched(rules, seated, std::min(batch, options.games - first),
                                      options.seed, options.first + first);
      records.insert(records.end(), chunk.begin(), chunk.end());
      if (progress) progress(static_cast<int64_t>(records.size()));
    }
  });
  return records;
}

std::vector<GameRecord> play_games_together(
    const AnyGame& game, const std::vector<std::shared_ptr<const AgentFactory>>& agents,
    int64_t first, int64_t games, uint64_t seed, int opening_plies, const std::atomic<bool>* stop) {
  const int64_t k = static_cast<int64_t>(agents.size());
  if (k == 0 || games < 1 || first < 0 || first % k != 0 || games % k != 0)
    throw std::invalid_argument("play_games_together: need whole blocks of " + std::to_string(k) +
                                " games, got games " + std::to_string(first) + " to " +
                                std::to_string(first + games));
  // Other streams than play_arena_in_batches' (seed + 1, ...) for every `first`.
  const uint64_t agent_seed = derive_seed(seed ^ 0xba7c4ed5eedull, static_cast<uint64_t>(first));
  std::vector<GameRecord> records;
  with_typed_agents(game, make_agents(agents, agent_seed), [&](const auto& rules, auto seated) {
    records = play_batched(rules, seated, games, seed, first, opening_plies, stop);
  });
  return records;
}

}  // namespace knightgym
