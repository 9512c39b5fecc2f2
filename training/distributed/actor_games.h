// Self-play games from actors elsewhere (a Ray cluster: knightgym/training_ray.py), for
// the trainer in place of self-play on its own thread.
//
// The run's self-play is cut into numbered chunks (chunk.h). The learner takes them in
// order, each once, and asks the actors for chunk N + chunks_ahead when it takes chunk N,
// played with the weights it last published; it publishes them every publish_steps
// optimizer steps. Which weights play which chunk thus follows from the run's settings
// alone, and so do the chunks' games: a run gives the same network with one actor or
// many, and when an actor dies its chunks are played again, the same. Memory stays
// bounded: at most chunks_ahead chunks are out, and the actors wait when the learner
// falls behind (back-pressure), instead of a queue that grows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "training/distributed/chunk.h"
#include "training/trainer/game_source.h"

namespace knightgym {

// How chunks and weights travel between the learner and the actors.
class ChunkChannel {
 public:
  virtual ~ChunkChannel() = default;
  // The weights that chunks asked for from now on are played with: the learner's
  // network (Learner::model_bytes) at `version`, its optimizer step.
  virtual void publish(int64_t version, std::string weights) = 0;
  // Asks the actors for chunk `number`.
  virtual void request(int64_t number) = 0;
  // Chunk `number`'s bytes once played (waiting for them), or "" if the run is stopping.
  virtual std::string receive(int64_t number) = 0;
  // Positions per second of each actor over the last `seconds`.
  virtual std::vector<double> actor_rates(double seconds) = 0;
};

template <Game G>
class ActorGames final : public GameSource<G> {
 public:
  ActorGames(const G& game, std::string game_spec, const TrainConfig& config, ChunkChannel& channel)
      : info_(game.info()),
        spec_(std::move(game_spec)),
        config_(config),
        rule_sets_(grid_size(config.rules)),
        channel_(channel) {}

  SourceStep next(const Learner& learner, const TrainingCounters& counters,
                  std::vector<Trajectory<G>>& games) override {
    if (next_ < 0) next_ = asked_ = counters.chunks;  // the run's first call, or a resumed one
    if (published_ < 0 || counters.steps - published_ >= config_.publish_steps) {
      channel_.publish(counters.steps, learner.model_bytes());
      published_ = counters.steps;
    }
    while (asked_ < next_ + config_.chunks_ahead) channel_.request(asked_++);
    const std::string bytes = channel_.receive(next_);
    if (bytes.empty()) return {};
    SelfPlayChunk<G> chunk = decode_chunk<G>(bytes, "self-play chunk " + std::to_string(next_),
                                             spec_, info_, rule_sets_);
    if (chunk.number != next_)
      throw std::invalid_argument("self-play chunk " + std::to_string(next_) +
                                  " came back as chunk " + std::to_string(chunk.number));
    ++next_;
    for (Trajectory<G>& game : chunk.games) games.push_back(std::move(game));
    return {chunk.decisions, chunk.evaluations, 1, counters.steps - chunk.version};
  }

  std::vector<double> actor_rates(double seconds) override { return channel_.actor_rates(seconds); }

 private:
  GameInfo info_;
  std::string spec_;
  TrainConfig config_;
  int rule_sets_;  // those the actors draw from
  ChunkChannel& channel_;
  int64_t next_ = -1, asked_ = -1;  // the chunk the learner takes next; the next to ask for
  int64_t published_ = -1;          // the version of the weights last published
};

}  // namespace knightgym
