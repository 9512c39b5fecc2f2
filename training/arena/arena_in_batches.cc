#include <algorithm>

#include "env/registry/game_list.h"
#include "training/arena/arena.h"
#include "training/arena/batched_match.h"

namespace knightgym {

std::vector<GameRecord> play_arena_in_batches(
    const AnyGame& game, const std::vector<std::shared_ptr<const AgentFactory>>& agents,
    const ArenaOptions& options, int64_t batch, const std::function<void(int64_t)>& progress) {
  if (batch < 1) throw std::invalid_argument("play_arena_in_batches: batch must be at least 1");
  std::vector<GameRecord> records;
  Games::visit(game, [&](const auto& rules) {
    using G = std::decay_t<decltype(rules)>;
    std::vector<std::unique_ptr<Agent<G>>> typed;
    std::vector<Agent<G>*> seated;
    for (size_t a = 0; a < agents.size(); ++a) {
      const AgentConfig& config = agents[a]->config();
      typed.push_back(make_agent(rules, config, share_for_game(config, game.info(), game.spec()),
                                 derive_seed(options.seed, a + 1)));
      seated.push_back(typed.back().get());
    }
    for (int64_t first = 0; first < options.games; first += batch) {
      const auto chunk =
          play_batched(rules, std::span<Agent<G>* const>(seated),
                       std::min(batch, options.games - first), options.seed, options.first + first);
      records.insert(records.end(), chunk.begin(), chunk.end());
      if (progress) progress(static_cast<int64_t>(records.size()));
    }
  });
  return records;
}

}  // namespace knightgym
