// The trainer's typed code for a game (env/registry/typed_code.h): a training run and a
// distributed run's actor behind faces that do not name the game, for the CLI and the
// Python module. register_game_for_training<G>() registers a game that no list names with
// everything a program that trains holds: the registry, the agents, the batched arena,
// the teacher and the trainer.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "env/registry/typed_code.h"
#include "training/distributed/actor_games.h"
#include "training/distributed/self_play_actor.h"
#include "training/game_registration.h"
#include "training/trainer/trainer.h"

namespace knightgym {

// Trainer<G> of a game.
class AnyTrainer {
 public:
  virtual ~AnyTrainer() = default;
  // Trains within `limits`; `actors`: a distributed run's channel that plays its games, or
  // nullptr to play them here. Returns whether the limits were reached (else `stop`).
  virtual bool run(const TrainLimits& limits, const std::atomic<bool>& stop,
                   ChunkChannel* actors) = 0;
  virtual TrainingCounters counters() const = 0;
  virtual std::vector<MatchResult> last_match_round() const = 0;
  virtual int64_t parameters() const = 0;
};

// SelfPlayActor<G> of a game: a distributed run's actor.
class AnySelfPlayActor {
 public:
  virtual ~AnySelfPlayActor() = default;
  virtual int64_t version() const = 0;
  virtual void set_weights(int64_t version, std::string_view weights) = 0;
  virtual PlayedChunk play(int64_t number) = 0;
};

template <Game G>
class TypedTrainer final : public AnyTrainer {
 public:
  TypedTrainer(const AnyGame& game, const TrainConfig& config, const std::string& device,
               const std::string& out, bool resume, std::FILE* log)
      : rules_(typed_rules<G>(game)),
        spec_(game.spec()),
        config_(config),
        trainer_(rules_, spec_, config, device, out, resume, log) {}
  bool run(const TrainLimits& limits, const std::atomic<bool>& stop,
           ChunkChannel* actors) override {
    if (!actors) return trainer_.run(limits, stop);
    ActorGames<G> games(rules_, spec_, config_, *actors);
    return trainer_.run(limits, stop, &games);
  }
  TrainingCounters counters() const override { return trainer_.counters(); }
  std::vector<MatchResult> last_match_round() const override { return trainer_.last_match_round(); }
  int64_t parameters() const override { return trainer_.learner().num_parameters(); }

 private:
  const G& rules_;
  std::string spec_;
  TrainConfig config_;
  Trainer<G> trainer_;
};

template <Game G>
class TypedSelfPlayActor final : public AnySelfPlayActor {
 public:
  TypedSelfPlayActor(const AnyGame& game, const TrainConfig& config, const std::string& device,
                     int threads)
      : actor_(typed_rules<G>(game), game.spec(), config, device, threads) {}
  int64_t version() const override { return actor_.version(); }
  void set_weights(int64_t version, std::string_view weights) override {
    actor_.set_weights(version, weights);
  }
  PlayedChunk play(int64_t number) override { return actor_.play(number); }

 private:
  SelfPlayActor<G> actor_;
};

struct TypedTraining {
  std::unique_ptr<AnyTrainer> (*trainer)(const AnyGame& game, const TrainConfig& config,
                                         const std::string& device, const std::string& out,
                                         bool resume, std::FILE* log);
  std::unique_ptr<AnySelfPlayActor> (*self_play_actor)(const AnyGame& game,
                                                       const TrainConfig& config,
                                                       const std::string& device, int threads);

  template <Game G>
  static TypedTraining of() {
    return {[](const AnyGame& game, const TrainConfig& config, const std::string& device,
               const std::string& out, bool resume, std::FILE* log) -> std::unique_ptr<AnyTrainer> {
              return std::make_unique<TypedTrainer<G>>(game, config, device, out, resume, log);
            },
            [](const AnyGame& game, const TrainConfig& config, const std::string& device,
               int threads) -> std::unique_ptr<AnySelfPlayActor> {
              return std::make_unique<TypedSelfPlayActor<G>>(game, config, device, threads);
            }};
  }
};

// A training run of `game` (trainer.h: Trainer), or its actor; a game without the
// trainer's code is refused by name.
inline std::unique_ptr<AnyTrainer> make_trainer(const AnyGame& game, const TrainConfig& config,
                                                const std::string& device, const std::string& out,
                                                bool resume, std::FILE* log) {
  return TypedCode<TypedTraining>::of(game, "training")
      .trainer(game, config, device, out, resume, log);
}
inline std::unique_ptr<AnySelfPlayActor> make_self_play_actor(const AnyGame& game,
                                                              const TrainConfig& config,
                                                              const std::string& device,
                                                              int threads) {
  return TypedCode<TypedTraining>::of(game, "a self-play actor")
      .self_play_actor(game, config, device, threads);
}

template <Game G>
void register_game_for_training() {
  register_game_for_play<G>();
  TypedCode<TypedTraining>::add<G>();
}

}  // namespace knightgym
