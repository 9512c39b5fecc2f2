// A training run's summary (OUT/summary.json), written when run() returns: the game,
// whether the run reached its limits (false: a signal stopped it first), its totals and
// its last match round. `knightgym train` and `knightgym.training` print it as Markdown
// (`python -m knightgym.training report OUT`), one renderer for both.
#pragma once

#include <string>
#include <vector>

#include "training/arena/arena.h"
#include "training/learner/learner.h"

namespace knightgym {

struct MatchResult {
  std::string opponent;  // "best" or a baseline's spec
  AgentScore score;      // the trained agent's
};

std::string run_summary_json(const std::string& game_spec, const TrainingCounters& counters,
                             const std::vector<MatchResult>& round, bool finished);

// The summary's "counters" and "last_match_round", alone: what the Python faces read back
// (knightgym.training's counters and last_match_round), so that both have one shape.
std::string counters_json(const TrainingCounters& counters);
std::string match_round_json(const std::vector<MatchResult>& round);

}  // namespace knightgym
