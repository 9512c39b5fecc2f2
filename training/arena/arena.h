// The arena: seat-rotated games between agents, spread over threads, with each agent's
// score and its 95% interval. Game g seats agent (seat + g) mod k in each seat (k agents),
// so every agent plays every seat equally often over k consecutive games, and those k
// games start from the same position (one seed per rotation: the same Knight Fight
// layout with the colours swapped). Seeds derive from the game index, so results do not
// depend on the thread count.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "agents/any_agent.h"
#include "env/core/rng.h"

namespace knightgym {

struct GameRecord {
  std::vector<int> agent_of_seat;
  std::vector<float> returns;  // per seat
  bool truncated = false;
  int decisions = 0;
  // What replays the game (training/arena/game_record_file.h): the seed of its initial
  // state and every decision from there, the random opening's included.
  uint64_t start_seed = 0;
  std::vector<Action> actions;

  bool operator==(const GameRecord&) const = default;
};

struct ArenaOptions {
  int64_t games = 100;
  int threads = 1;
  uint64_t seed = 0;
  // The number of the first game: a long series played in chunks (a sequential test
  // stopping between them) equals the same series played at once.
  int64_t first = 0;
};

// The seed of the initial state of game `index` of a series between k agents.
uint64_t start_seed(uint64_t seed, int64_t index, int k);

// Game `index` of a series: agent (seat + index) mod k in each seat, each seeded from
// the seed, the index and the seat, from the start of block index / k. With
// `opening_plies`, that start is followed by so many uniformly random legal actions,
// drawn from opening_rng, before the agents play (counted in `decisions`).
GameRecord play_game(const AnyGame& game,
                     const std::vector<std::shared_ptr<const AgentFactory>>& agents, int64_t index,
                     uint64_t seed, int opening_plies = 0);

// The stream of block `block`'s random opening, the same in the unbatched and the batched
// arena: each ply is legal_actions()[rng.below(count)].
Rng opening_rng(uint64_t seed, int64_t block);

// Plays the games; progress(finished) is called from the calling thread as games end.
// An exception from progress stops the run (after the games under way) and is rethrown.
std::vector<GameRecord> play_arena(const AnyGame& game,
                                   const std::vector<std::shared_ptr<const AgentFactory>>& agents,
                                   const ArenaOptions& options,
                                   const std::function<void(int64_t)>& progress = {});

// How a series is played in batches: chunks of `chunk` games (0: of `batch`), `batch` of
// a chunk's games in play at once, a game that ends giving its place to the chunk's next
// (batched_match.h), so that a network's batches stay full however unequal the games'
// lengths. chunk = batch (or 0) starts a chunk's games together. The games depend on
// both, never on the threads.
struct Batching {
  int64_t batch = 1;
  int64_t chunk = 0;
};

// Throws std::invalid_argument naming the problem: a batch below 1, or a chunk that cannot
// hold the batch.
void check_batching(Batching batching);

// The same games played in chunks (games [first, first + chunk), ...) on options.threads
// threads (one: the calling thread), each chunk by play_games_together: every agent
// decides for all its games in play with one act_batch, so a network agent sends one
// batch per round of simulations. The records come back in game order and depend on the
// seed and the batching, not on the threads; the agents' streams are seeded per chunk,
// not per game, so these are other games than play_arena's. progress as in play_arena.
// With several threads each runs its networks on one intra-op thread
// (agents/network.h: NetworkThreadShare).
std::vector<GameRecord> play_arena_in_batches(
    const AnyGame& game, const std::vector<std::shared_ptr<const AgentFactory>>& agents,
    const ArenaOptions& options, Batching batching,
    const std::function<void(int64_t)>& progress = {});

// Games [first, first + games) of a series, between agents, seeded from `seed`.
struct Series {
  std::vector<std::shared_ptr<const AgentFactory>> agents;
  uint64_t seed = 0;
  int64_t first = 0, games = 0;
};

// Several series, each played as play_arena_in_batches plays one, their chunks in one
// queue for the `threads` threads (so that these share the work even where a series has
// fewer chunks than there are threads, as a ladder's pairs may). done(s, records) takes
// series s's records in game order, series after series, and progress(games) the games
// finished in all, both on the calling thread. An exception from either stops the run
// (on one thread after the chunk, on several between rounds of decisions) and is
// rethrown.
void play_series_in_batches(
    const AnyGame& game, std::span<const Series> series, Batching batching, int threads,
    const std::function<void(size_t series, std::vector<GameRecord> records)>& done,
    const std::function<void(int64_t)>& progress = {});

// Games [first, first + games) of a series played together on the calling thread (one
// chunk of play_arena_in_batches), with agents made for these games alone, seeded from
// the seed and `first`: a series cut into such chunks gives the same games whichever
// thread or machine plays each chunk. Balance's chunks are whole blocks (multiples of the
// number of agents), which its tallies need; the games do not. `in_flight`: 0 to start
// every game at once, or that many in play, a game that ends giving its place to the
// next (batched_match.h); the games depend on it.
std::vector<GameRecord> play_games_together(
    const AnyGame& game, const std::vector<std::shared_ptr<const AgentFactory>>& agents,
    int64_t first, int64_t games, uint64_t seed, int opening_plies = 0,
    const std::atomic<bool>* stop = nullptr, int64_t in_flight = 0);

// An agent's results: per game, the mean of its seats' returns; a win above 0, a loss
// below. score = (mean result + 1) / 2 in [0, 1], with the normal 95% half-width. firsts:
// the games in which one of its seats has the highest return (shared or not), which in a
// game of 3 or 4 players is the first place that a win above 0 is not.
struct AgentScore {
  int64_t games = 0, wins = 0, draws = 0, losses = 0, firsts = 0;
  double score = 0, half_width = 0;
};

// The scores of games added a part at a time: a series too long to hold is scored as it is
// played, and equals score_agents of all its records at once.
class ScoreTally {
 public:
  explicit ScoreTally(int num_agents);
  void add(std::span<const GameRecord> records);
  std::vector<AgentScore> scores() const;

 private:
  std::vector<AgentScore> counts_;
  std::vector<double> sum_, sum_squares_;  // of each agent's per-game scores
};

std::vector<AgentScore> score_agents(std::span<const GameRecord> records, int num_agents);

}  // namespace knightgym
