// Expert iteration (Anthony, Tian and Barber, 2017), a generation at a time, resumable:
// the parent network's search plays every seat of a teacher's games (its visit shares
// and root values kept, training/teacher/teacher_data.h); a child starts from the
// parent's weights, learns those shards for teacher_steps optimizer steps and goes on by
// its own self-play (the game's training settings); then it plays its parent in a
// sequential gate (gate.h) and replaces it only if the gate keeps it. A generation not
// kept leaves the parent for the next, which is seeded apart. Where the children train
// over a grid of rule sets (the settings' `rules`), the teacher plays each rule set and
// the gate's batches play them in turn, the networks playing every rule set (rules=any).
//
// The run's folder OUT holds:
//   iterate.json           the progress (iteration_state.h), checked on resume
//   generations.csv        the same as a table, a row per generation
//   gen-K/teach/           generation K's teacher data (shards, teach.txt), or where the
//                          children train over rule sets (the settings' rules), a run
//                          for each in gen-K/teach/rules-NNN
//   gen-K/train/           its training run (training/trainer/run_directory.h)
//   best.pt                the last kept child (none while no child was kept)
// Every step resumes where a stop left it: the teacher's whole shards, the training's
// checkpoint, the gate's finished chunks. Generation K's teacher, training and gate are
// seeded from seed + K, so a loop stopped and resumed plays the games an unbroken one
// plays (the training, on threads, is not bit-for-bit the same).
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "env/registry/registry.h"
#include "training/iteration/gate.h"
#include "training/teacher/teacher_data.h"
#include "training/trainer/train_config.h"

namespace knightgym {

struct IterationOptions {
  std::string parent;  // the first parent: a TorchScript file, or `pretrained`
  int generations = 1;
  // The children's training settings (a recipe's text, as `knightgym train --config`
  // reads it): their init, teacher, teacher_steps and seed are the loop's.
  std::string settings;
  // A generation's budget: its wall-clock minutes, the teacher's included, or its
  // training's optimizer steps (the teacher's steps included).
  double minutes = 0;
  int64_t steps = 0;
  int teacher_sims = 400;    // the parent's search as the teacher
  int teacher_steps = 2000;  // optimizer steps on the teacher's data first
  // The teacher's games (of each rule set, where the settings sweep rules), threads,
  // random opening plies, games per shard and games searched together; its agent and
  // seed are the loop's.
  TeacherOptions teach;
  std::string teacher_device = "cpu";  // where the teacher's network runs
  std::string device = "cpu";          // where the children train and the gate's networks run
  GateOptions gate;
  uint64_t seed = 0;
};

// Throws std::invalid_argument naming the problem.
void check_iteration_options(const IterationOptions& options);

// The options that decide a run's games and data, as a JSON object: what a resumed run
// must give again. The generations, the budget, the devices, the threads and the gate's
// games may change between sessions (a GPU machine teaches and trains, another gates).
std::string iteration_run_json(const AnyGame& game, const IterationOptions& options,
                               const std::string& parent_fnv1a);

// The training settings of generation `generation`: options.settings with the loop's
// init (the parent's network), teacher (its data), teacher_steps and seed.
std::string generation_settings(const IterationOptions& options, int generation,
                                const std::string& parent, const std::string& teacher_dir);

// One training session: trains the run in `dir` (a new one with `config`, or with
// `resume` the one there) within `minutes` of training time or `steps` optimizer steps
// in all; returns the run's training seconds, or nothing once `stop` ended it.
using TrainSession = std::function<std::optional<double>(
    const TrainConfig& config, const std::string& dir, bool resume, double minutes, int64_t steps)>;

enum class IterationEnd {
  kFinished,  // every generation done
  kGateLeft,  // the last generation trained, its gate left to a run with gate games
  kStopped,   // `stop` was set: --resume goes on
};

// Runs the loop in `out` (a new run, or with `resume` the one there, its generations
// extended to options.generations), printing progress to `log`. Throws
// std::invalid_argument for bad options, a folder that holds another run (or, without
// resume, any), a damaged state or a parent network whose bytes changed; OutputRefused
// where another process writes `out`.
IterationEnd run_iteration(const std::shared_ptr<const AnyGame>& game,
                           const IterationOptions& options, const std::string& out, bool resume,
                           const TrainSession& train, std::FILE* log,
                           const std::atomic<bool>& stop);

}  // namespace knightgym
