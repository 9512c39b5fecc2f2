// A balance run's progress on disk (OUT/balance.progress), so that a run of hours can
// stop and go on with --resume: every rule set started, with the chunks it has done,
// its seconds and its tally. Chunks fold in order, so a resumed run's figures equal an
// unbroken run's to the last bit. The file names the run's options; resuming with other
// options is refused. The games per rule set are not among them: a run resumed with more
// games, finished or not, is extended (its confidence sequences stay valid, and keep the
// tuning of its start).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "training/balance/balance.h"
#include "training/balance/tally.h"

namespace knightgym {

struct SavedRuleSet {
  int64_t chunks_done = 0;
  double seconds = 0;
  RuleSetTally tally;
};

struct SavedProgress {
  int64_t games = 0;         // per rule set, as planned when saved (0: not recorded)
  int64_t tuned_blocks = 0;  // where the sequences are tightest, fixed at the start (0: idem)
  std::vector<SavedRuleSet> rule_sets;
};

// What a progress file must match: the options that decide the games (not the threads
// nor how many), and the bytes of every network the agents load in the grid's rule sets
// (their FNV-1a hashes), so that a run resumed after a network was shipped anew is
// refused rather than mixing the two networks' games.
std::string progress_identity(const BalanceOptions& options,
                              const std::vector<std::string>& agent_specs, int64_t chunk_games,
                              const std::vector<RuleSet>& grid);

// Written atomically: a crash leaves the previous progress or this one.
void save_progress(const std::string& path, const std::string& identity,
                   const SavedProgress& progress);

// Throws std::invalid_argument for a malformed file or one of another run, naming the
// path and the problem. Versions 1 and 2 are read: their identity held the games, which
// are then the run's planned games.
SavedProgress load_progress(const std::string& path, const std::string& identity);

}  // namespace knightgym
