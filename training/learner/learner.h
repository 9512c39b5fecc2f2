// The learner: trains the project's network (agents/resnet.h) on batches from the replay
// buffer with LibTorch, minimising policy cross-entropy against the search's policy plus
// the squared error of the values against the game's returns, with AdamW's decoupled
// weight decay. Its evaluator is the same network, not a copy: self-play sees every step
// at once. Checkpoints hold the weights, the optimizer's moments and the caller's
// counters in one file written atomically. LibTorch stays out of this header.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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

// What a run has done, saved with each checkpoint: a resumed run counts on from there, and
// draws its random streams (training/trainer/streams.h) from there.
struct TrainingCounters {
  int64_t steps = 0;         // optimizer steps
  int64_t samples = 0;       // training samples drawn from the replay buffer
  int64_t games = 0;         // self-play games finished
  int64_t decisions = 0;     // self-play decisions
  int64_t evaluations = 0;   // network evaluations in self-play's searches
  int64_t milliseconds = 0;  // training time over every session of the run
  int64_t match_rounds = 0;  // match rounds against the best network and the baselines
  int64_t generation = 0;    // times a trained network became the best
  int64_t chunks = 0;  // self-play chunks taken from actors (training/distributed/actor_games.h)
  bool operator==(const TrainingCounters&) const = default;
};

// The checkpoint format, the one written and read: a LibTorch archive of the network, the
// optimizer and every one of TrainingCounters' fields, followed by "KGCKSUM1" and the
// FNV-1a hash of the archive's bytes, checked before anything is read. Format 4 named
// match_rounds eval_rounds, and 3 and 2 had no hash; the kept runs' checkpoints were
// converted to 5 once.
inline constexpr int64_t kCheckpointFormat = 5;

// How a checkpoint holds its floating-point tensors: as trained (float32), or compact, the
// weights in float16 and the optimizer's moments in bfloat16 (their range is float32's:
// squared gradients far below float16's), half the bytes, for a run kept in the
// repository (training/trainer/kept_run.h). Either reads back as float32; a compact one
// goes on from the same step with its weights and moments rounded.
enum class CheckpointPrecision { kFull, kCompact };

class Learner {
 public:
  // A fresh network for the game (info and canonical spec), its weights drawn from seed,
  // recording the rule sets it learns to play (empty: game_spec alone; rule_sets.h).
  // device: cpu, cuda or cuda:N (std::invalid_argument if CUDA is absent).
  Learner(const GameInfo& info, const std::string& game_spec, const NetConfig& net, uint64_t seed,
          const LearnerConfig& config, const std::string& device,
          const std::vector<std::string>& rule_sets = {});
  ~Learner();

  // Inference over the network being trained (do not call while train() runs).
  std::shared_ptr<Evaluator> evaluator() const;
  // `count` more networks for inference on other threads while train() runs (self-play
  // beside the learner, training/trainer/overlapped_self_play.h), one per thread, in
  // `precision` (std::invalid_argument for float16 on the CPU), made on the first call (a
  // later call asks the same count and precision), with the weights of the last
  // sync_copies() (at first, the learner's), rounded to their precision. sync_copies()
  // must not run while a copy evaluates.
  std::vector<std::shared_ptr<Evaluator>> copies(int count,
                                                 Precision precision = Precision::kFloat32);
  void sync_copies();
  // LibTorch's intra-op threads on the calling thread, and the default that threads take
  // on their first use (agents/network.h); 0 leaves them as they are.
  static void set_intra_op_threads(int threads);

  // One optimizer step on the batch; the losses before the step.
  Losses train(const TrainingBatch& batch);

  int64_t num_parameters() const;

  // Writes weights, optimizer state and counters to `path` atomically.
  void save_checkpoint(const std::string& path, const TrainingCounters& counters,
                       CheckpointPrecision precision = CheckpointPrecision::kFull) const;
  // Restores a checkpoint; throws std::invalid_argument naming the file and the problem
  // (unreadable, truncated, damaged (its checksum), another format version, game or
  // network shape) and then leaves the learner unchanged.
  TrainingCounters load_checkpoint(const std::string& path);

  // Starts from the weights of a TorchScript network of the same game and shape (a
  // shipped one, or another run's model.pt); the optimizer starts afresh. Throws
  // std::invalid_argument naming the file and the problem (no such file, not
  // TorchScript, another game, a missing tensor or one of another shape) and then leaves
  // the learner unchanged.
  void load_weights(const std::string& path);

  // The network as TorchScript on the CPU, written atomically: forward(observations) ->
  // (policy logits, values), loadable with torch.jit.load and by az:model=PATH.
  void export_model(const std::string& path) const;
  // The same TorchScript file's bytes (what read_network loads), for actors elsewhere.
  std::string model_bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace knightgym
