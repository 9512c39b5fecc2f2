// An actor's work in a distributed run: self-play chunk N (training/distributed/chunk.h),
// `chunk_games` games seeded from the run's seed and N, played `games` at a time with
// the network's weights of a given version. An actor keeps the network of the last
// version it was given, and plays on one thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "agents/network.h"
#include "training/distributed/chunk.h"
#include "training/selfplay/self_play.h"
#include "training/trainer/streams.h"
#include "training/trainer/train_config.h"

namespace knightgym {

struct PlayedChunk {
  std::string bytes;      // the chunk (training/distributed/chunk.h)
  int64_t decisions = 0;  // the decisions of its games
  double seconds = 0;     // the time it took
};

template <Game G>
class SelfPlayActor {
 public:
  SelfPlayActor(const G& game, std::string game_spec, const TrainConfig& config, std::string device,
                int threads)
      : info_(game.info()),
        spec_(std::move(game_spec)),
        config_(config),
        rules_(game, spec_, config.rules),
        device_(std::move(device)),
        threads_(threads) {}

  // The version of the weights held; -1 before the first.
  int64_t version() const { return version_; }

  // Plays with `weights` (a TorchScript network of the game, as Learner::model_bytes
  // gives it) from now on. Throws std::invalid_argument naming the problem, and then
  // keeps the weights it had.
  void set_weights(int64_t version, std::string_view weights) {
    network_ = read_network(weights, "weights of version " + std::to_string(version), info_, spec_,
                            device_, threads_);
    version_ = version;
  }

  // Chunk `number`, played with the weights held.
  PlayedChunk play(int64_t number) {
    if (!network_) throw std::logic_error("a self-play chunk asked for before any weights");
    const auto start = std::chrono::steady_clock::now();
    SelfPlayChunk<G> chunk;
    chunk.number = number;
    chunk.version = version_;
    SelfPlay<G> self_play(
        rules_, config_.search, *network_, config_.games,
        stream_seed(config_.seed, Stream::kSelfPlayChunk, static_cast<uint64_t>(number)),
        config_.sample_plies, config_.playout_cap, config_.horizon, config_.chunk_games);
    while (!self_play.done())
      self_play.step([&](Trajectory<G>&& game) { chunk.games.push_back(std::move(game)); });
    chunk.decisions = self_play.decisions();
    chunk.evaluations = self_play.evaluations();
    chunk.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return {encode_chunk(chunk, spec_, info_.num_players), chunk.decisions, chunk.seconds};
  }

 private:
  GameInfo info_;
  std::string spec_;
  TrainConfig config_;
  RuleSets<G> rules_;  // the run's (training/selfplay/rule_sets.h)
  std::string device_;
  int threads_;
  std::shared_ptr<Evaluator> network_;
  int64_t version_ = -1;
};

}  // namespace knightgym
