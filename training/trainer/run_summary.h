// A training run's summary (OUT/summary.json), written when run() returns: the game,
// whether the run reached its limits (false: a signal stopped it first), its totals and
// its last evaluation. `knightgym train` and `knightgym.training` print it as Markdown
// (`python -m knightgym.training report OUT`), one renderer for both.
#pragma once

#include <string>
#include <vector>

#include "training/arena/arena.h"
#include "training/learner/learner.h"

namespace knightgym {

struct Evaluation {
  std::string opponent;  // "best" or a baseline's spec
  AgentScore score;      // the trained agent's
};

std::string run_summary_json(const std::string& game_spec, const TrainingCounters& counters,
                             const std::vector<Evaluation>& evaluation, bool finished);

// The summary's "counters" and "evaluation", alone: what the Python faces read back
// (knightgym.training's counters and evaluation), so that both have one shape.
std::string counters_json(const TrainingCounters& counters);
std::string evaluation_json(const std::vector<Evaluation>& evaluation);

}  // namespace knightgym
