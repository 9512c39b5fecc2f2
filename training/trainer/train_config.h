// The settings of a training run, read like a game's parameters (each declared with its
// default and doc, unknown keys rejected), over the defaults the game declares for a
// 2-core CPU (env/core/training_defaults.h). `knightgym train --config FILE` reads a JSON
// object of them ({"sims": 64, "baselines": ["mcts:sims=200", "random"]}) or, as before
// JSON, one key=value per line; a run's config.json holds them all.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "agents/az_search.h"
#include "agents/torch_evaluator.h"
#include "env/core/params.h"
#include "env/core/training_defaults.h"
#include "env/registry/rule_grid.h"
#include "training/learner/learner.h"
#include "training/selfplay/self_play.h"

namespace knightgym {

struct TrainConfig {
  NetConfig net{4, 32, 4};
  AzConfig search;   // self-play search (sims, gumbel or PUCT, ...)
  std::string init;  // first weights: "" (fresh), pretrained, or a TorchScript file
  // The rule sets self-play draws from, one for each game: the grid of these sweeps over
  // the game's spec (training/selfplay/rule_sets.h); none: the game's own rules.
  std::vector<Sweep> rules;
  // Supervised learning first: teacher data (training/teacher/teacher_data.h) learned from
  // for teacher_steps optimizer steps before self-play starts.
  std::string teacher;
  int teacher_steps = 0;
  double teacher_holdout = 0.05;  // share of the teacher's games held out for measuring
  int games = 64;                 // concurrent self-play games
  // Self-play on T threads, the games in groups of B searched together (0: one group);
  // the games depend on games, B and the seed, not on T (parallel_self_play.h).
  int selfplay_threads = 1;
  int selfplay_batch = 0;
  // The number format of self-play's networks (agents/network.h); the learner's is float32.
  Precision selfplay_precision = Precision::kFloat32;
  // Self-play on a thread of its own beside the learner, a round behind it
  // (overlapped_self_play.h), or between the learner's steps on one thread.
  bool overlap = true;
  int sample_plies = 30;   // PUCT: decisions sampled from the visits
  PlayoutCap playout_cap;  // fast searches, not recorded, for a share of the decisions
  int horizon = 0;         // self-play games scored as truncated after so many decisions
  // On a Ray cluster (training/distributed/): games per chunk, the chunks asked of the
  // actors ahead of the learner, and the optimizer steps between weights sent to them.
  int chunk_games = 64;  // read: the game's `games`
  int chunks_ahead = 4;
  int publish_steps = 10;
  // Share of the search's root value in the value targets: 0.5 won the comparison of
  // docs/training.md against the returns alone.
  double q_weight = 0.5;
  int batch = 256;          // training batch
  LearnerConfig learner;    // learning rate, weight decay, value weight
  int window = 40000;       // replay buffer: most recent decisions
  int kept_replay = 5000;   // its newest decisions written with each checkpoint
  int min_replay = 2000;    // decisions in the buffer before training starts
  double ratio = 4;         // training samples per self-play decision
  bool augment = true;      // symmetry augmentation where the game has symmetries
  int match_seconds = 120;  // a match round every so many seconds; 0: only at the end
  int match_games = 32;     // games per opponent in a match round
  int match_sims = 64;      // simulations of the trained agent in match rounds
  std::vector<std::string> baselines{"mcts:sims=200"};  // fixed opponents
  double gate = 0.55;           // score against the best that makes a new best
  int checkpoint_seconds = 60;  // checkpoint period
  int keep = 3;                 // checkpoints kept
  int snapshot_seconds = 0;     // snapshots/ of the network this often (0: none)
  int log_seconds = 10;         // metrics row period
  uint64_t seed = 0;
  int threads = 0;                // LibTorch intra-op threads (0: its default)
  std::string spec;               // canonical: every setting, a JSON object (settings_json)
  std::vector<ParamInfo> params;  // every setting with its value, default and doc
};

// The settings as given, in order, each key once: a JSON object (a list joined with
// commas), or "key=value" lines (blank lines and # comments ignored); a byte-order mark
// before them is dropped. Throws std::invalid_argument naming the problem. The one reader
// of the format: knightgym.training reads settings through it too.
std::vector<std::pair<std::string, std::string>> settings_given(std::string_view settings);

// The settings as settings_given reads them, one "key=value" a line in their order: a
// recipe without its comments, blank lines and spacing, which change nothing it does.
std::string settings_lines(std::string_view settings);

// A game's defaults overridden by `settings` (as settings_given reads them). Throws
// std::invalid_argument naming the problem.
TrainConfig read_train_config(const TrainingDefaults& defaults, std::string_view settings);

// Every setting as a JSON object, each typed as declared (what read_train_config reads).
std::string settings_json(const std::vector<ParamInfo>& settings);

}  // namespace knightgym
