// A training run's kept state: what it needs to go on on another machine, a few MB to
// commit (docs/training.md, "A run on another machine"). keep_run copies the run's
// settings (config.json), model.pt (unless compact), best.pt, teacher_best.pt (if there)
// and metrics.csv,
// and writes its newest checkpoint that loads, with that checkpoint's replay sample cut to
// its newest whole games of at most `replay_decisions` decisions. `knightgym train GAME
// --out DEST --resume` then goes on from that checkpoint's step.
#pragma once

#include <cstdint>
#include <string>

#include "training/learner/learner.h"

namespace knightgym {

struct KeepOptions {
  // The checkpoint's weights in float16 and its moments in bfloat16, half the bytes
  // (Knights Challenge's 2 x 32 network holds 2.9 MB of weights: its dense policy head),
  // at the price of rounding them once; and no model.pt, whose weights the checkpoint
  // holds and which the run writes again at its first checkpoint, nor, once the run has
  // learned from its teacher, teacher_best.pt.
  bool compact = false;
  int64_t replay_decisions = -1;  // the replay sample cut to at most so many; -1: whole
};

struct KeptRun {
  int64_t step = 0;              // of the checkpoint kept
  int64_t replay_decisions = 0;  // in its replay sample
  int64_t bytes = 0;             // of every file kept
};

// Keeps `run` in `dest`: written in a sibling folder, then swapped in place of dest in
// one step, which must be absent, empty or hold a run (it is replaced whole). Holds
// dest's OutputLock throughout (a second keep to dest is refused; `run` is only read).
// Throws std::invalid_argument naming the problem (no run, no checkpoint that loads, a
// file missing, dest something else), OutputRefused for a dest another writer holds or
// that cannot be written, and then leaves dest as it was.
KeptRun keep_run(const std::string& run, const std::string& dest, const KeepOptions& options);

}  // namespace knightgym
