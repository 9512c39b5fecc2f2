#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>

#include "agents/network.h"
#include "env/core/rng.h"
#include "training/arena/arena.h"
#include "training/arena/typed_matches.h"
#include "util/ordered_parallel.h"
#include "util/run_threads.h"

namespace knightgym {
namespace {

std::vector<std::unique_ptr<AnyAgent>> make_agents(
    const std::vector<std::shared_ptr<const AgentFactory>>& factories, uint64_t seed) {
  std::vector<std::unique_ptr<AnyAgent>> agents;
  for (size_t a = 0; a < factories.size(); ++a)
    agents.push_back(factories[a]->make(derive_seed(seed, a + 1)));
  return agents;
}

}  // namespace

void check_batching(Batching batching) {
  if (batching.batch < 1)
    throw std::invalid_argument("batch must be at least 1, got " + std::to_string(batching.batch));
  if (batching.chunk != 0 && batching.chunk < batching.batch)
    throw std::invalid_argument("chunk (" + std::to_string(batching.chunk) +
                                ") must be 0 or at least the batch (" +
                                std::to_string(batching.batch) + ")");
}

std::vector<GameRecord> play_arena_in_batches(
    const AnyGame& game, const std::vector<std::shared_ptr<const AgentFactory>>& agents,
    const ArenaOptions& options, Batching batching, const std::function<void(int64_t)>& progress) {
  const Series series{agents, options.seed, options.first, options.games};
  std::vector<GameRecord> records;
  play_series_in_batches(
      game, std::span(&series, 1), batching, options.threads,
      [&](size_t, std::vector<GameRecord> played) { records = std::move(played); }, progress);
  return records;
}

void play_series_in_batches(
    const AnyGame& game, std::span<const Series> series, Batching batching, int threads,
    const std::function<void(size_t series, std::vector<GameRecord> records)>& done,
    const std::function<void(int64_t)>& progress) {
  check_batching(batching);
  check_run_threads("threads", threads);
  const auto [batch, chunk_games] = batching;
  const int64_t per_chunk = chunk_games > 0 ? chunk_games : batch;
  const int64_t in_flight = chunk_games > 0 ? batch : 0;
  struct Chunk {
    size_t series;
    int64_t first, games;
  };
  std::vector<Chunk> chunks;  // every series' chunks, in order
  for (size_t s = 0; s < series.size(); ++s)
    for (int64_t g = 0; g < series[s].games; g += per_chunk)
      chunks.push_back({s, series[s].first + g, std::min(per_chunk, series[s].games - g)});
  const auto play = [&](size_t i, const std::atomic<bool>* stop) {
    const Chunk& chunk = chunks[i];
    const Series& s = series[chunk.series];
    return play_games_together(game, s.agents, chunk.first, chunk.games, s.seed, 0, stop,
                               in_flight);
  };
  size_t consumed = 0;
  int64_t finished = 0;
  std::vector<GameRecord> records;  // of the series under way
  const auto consume = [&](std::vector<GameRecord> played) {
    finished += static_cast<int64_t>(played.size());
    records.insert(records.end(), std::make_move_iterator(played.begin()),
                   std::make_move_iterator(played.end()));
    const size_t s = chunks[consumed++].series;
    if (consumed == chunks.size() || chunks[consumed].series != s)
      done(s, std::exchange(records, {}));
    if (progress) progress(finished);
  };
  if (threads == 1) {  // on the thread that loaded the networks (NetworkThreadShare says why)
    for (size_t i = 0; i < chunks.size(); ++i) consume(play(i, nullptr));
    return;
  }
  const NetworkThreadShare share(threads);
  ordered_parallel(
      static_cast<int64_t>(chunks.size()), threads, 4 * static_cast<int64_t>(threads),
      [&](int64_t i, const std::atomic<bool>& stop) { return play(static_cast<size_t>(i), &stop); },
      consume,
      [&] {
        if (progress) progress(finished);
      });
}

std::vector<GameRecord> play_games_together(
    const AnyGame& game, const std::vector<std::shared_ptr<const AgentFactory>>& agents,
    int64_t first, int64_t games, uint64_t seed, int opening_plies, const std::atomic<bool>* stop,
    int64_t in_flight) {
  if (agents.empty() || games < 1 || first < 0)
    throw std::invalid_argument("play_games_together: need agents and games, got " +
                                std::to_string(agents.size()) + " agents for games " +
                                std::to_string(first) + " to " + std::to_string(first + games));
  // The agents' streams, one set per chunk (its `first` game).
  const uint64_t agent_seed = derive_seed(seed ^ 0xba7c4ed5eedull, static_cast<uint64_t>(first));
  return TypedCode<TypedMatches>::of(game, "a match played in batches")
      .play_together(game, make_agents(agents, agent_seed), games, seed, first, opening_plies, stop,
                     in_flight);
}

}  // namespace knightgym
