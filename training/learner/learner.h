// The learner: trains the project's network (agents/resnet.h) on batches from the replay
// buffer with LibTorch, minimising policy cross-entropy against the search's policy plus
// the squared error of the values against the game's returns, with AdamW's decoupled
// weight decay. Its evaluator is the same network, not a copy: self-play sees every step
// at once. Checkpoints hold the weights, the optimizer's moments and the caller's
// counters in one file written atomically. LibTorch stays out of this header.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "agents/torch_evaluator.h"

namespace knightgym {

struct LearnerConfig {
  double learning_rate = 1e-3;
  double weight_decay = 1e-4;
  double value_weight = 1.0;  // the value loss's weight against the policy loss
};

// `size` rows; observations: size x observation_shape, masks, policies: size x
// num_actions, values: size x num_players (relative to the mover, as the evaluator's).
struct TrainingBatch {
  int size = 0;
  const float* observations = nullptr;
  const uint8_t* masks = nullptr;
  const float* policies = nullptr;
  const float* values = nullptr;
};

struct Losses {
  double policy = 0;   // cross-entropy of the network's policy against the target, nats
  double value = 0;    // mean squared error per player
  double entropy = 0;  // entropy of the network's policy over the legal actions, nats
};

// Whatever the caller needs to resume (steps, games, seconds...), saved with a checkpoint.
using Counters = std::map<std::string, int64_t>;

class Learner {
 public:
  // A fresh network for the game (info and canonical spec), its weights drawn from seed.
  // device: cpu, cuda or cuda:N (std::invalid_argument if CUDA is absent).
  Learner(const GameInfo& info, const std::string& game_spec, const NetConfig& net, uint64_t seed,
          const LearnerConfig& config, const std::string& device);
  ~Learner();

  // Inference over the network being trained (do not call while train() runs).
  std::shared_ptr<Evaluator> evaluator() const;

  // One optimizer step on the batch; the losses before the step.
  Losses train(const TrainingBatch& batch);

  int64_t num_parameters() const;

  // Writes weights, optimizer state and counters to `path` atomically.
  void save_checkpoint(const std::string& path, const Counters& counters) const;
  // Restores a checkpoint; throws std::invalid_argument naming the problem (unreadable,
  // truncated, another game or network shape) and then leaves the learner unchanged.
  Counters load_checkpoint(const std::string& path);

  // The network as TorchScript on the CPU, written atomically: forward(observations) ->
  // (policy logits, values), loadable with torch.jit.load and by az:model=PATH.
  void export_model(const std::string& path) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace knightgym
