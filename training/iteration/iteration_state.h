// An iteration run's progress on disk (OUT/iterate.json), so that a loop of hours can
// stop at any moment and go on with --resume: each generation's parent, its phase
// (teacher data, training, gate, done), the seconds spent and the gate's tally. The file
// holds the run's options, and a resumed run with other options is refused by name; it
// ends with the FNV-1a hash of its state, so a damaged file is refused rather than read.
// OUT/generations.csv is the same state as a table, rewritten with it.
#pragma once

#include <string>
#include <vector>

#include "training/iteration/gate.h"

namespace knightgym {

enum class GenerationPhase { kTeach, kTrain, kGate, kDone };

struct GenerationState {
  int generation = 1;
  // The parent network: the run's first as given (a file, or `pretrained`), or an earlier
  // generation's child, relative to OUT so that the folder can move to another machine.
  std::string parent;
  std::string parent_fnv1a;  // the parent's bytes, checked again on resume
  GenerationPhase phase = GenerationPhase::kTeach;
  double teach_seconds = 0;  // the teacher's wall time, every session's
  double train_seconds = 0;  // the training's, as the run counts it
  GateTally gate;
  GateDecision decision = GateDecision::kUndecided;
  bool truncated = false;

  bool operator==(const GenerationState&) const = default;
};

struct IterationState {
  std::string run;  // the options as a JSON object: a resumed run must give the same
  std::vector<GenerationState> generations;

  bool operator==(const IterationState&) const = default;
};

// "teach", "train", "gate" or "done".
const char* generation_phase_name(GenerationPhase phase);

// Written atomically: a crash leaves the previous state or this one.
void save_iteration_state(const std::string& path, const IterationState& state);

// The state in `path`, which must be an iteration run's with the options `run` (JSON);
// throws std::invalid_argument naming the path and the problem: not there, too large,
// damaged (its hash), malformed, or of other options (naming them). The options' recipe,
// "settings", is compared as the settings it gives: its comments and spacing may change.
IterationState load_iteration_state(const std::string& path, const std::string& run);

// One row per generation: generation, parent, parent_fnv1a, phase, teach_seconds,
// train_seconds, gate_games, wins, draws, losses, score, llr, decision, truncated.
std::string generations_csv(const IterationState& state, const GateOptions& gate);

}  // namespace knightgym
