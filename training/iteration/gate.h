// The gate of expert iteration: a child network plays its parent, seats rotated, a chunk
// of games at a time, until a sequential probability ratio test decides whether the
// child is stronger (training/balance/statistics.h: the generalized SPRT on the child's
// mean result in [-1, 1], a win 1, a draw 0, a loss -1). H1 (mean = a1) accepted keeps
// the child, H0 (mean = a0) accepted discards it, each with its error rate bounded by
// alpha and beta however early the test stops. At max_games undecided, the test is
// truncated: the child is kept if its log-likelihood ratio is above 0 (its mean result
// above (a0 + a1) / 2), the usual rule for a truncated SPRT, whose error rates are then
// no longer bounded; the verdict says which way it was decided.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "agents/any_agent.h"
#include "training/arena/arena.h"
#include "training/balance/statistics.h"

namespace knightgym {

struct GateOptions {
  int64_t max_games = 400;  // 0: no gate (the loop stops after a child's training)
  // Games per chunk, played together (one network batch per round of simulations); the
  // test looks after each. Even, so that each look has as many games in each seat.
  int64_t chunk_games = 40;
  int sims = 64;  // the simulations of both networks' search
  SprtSettings sprt{0, 0.1, 0.05, 0.05};
};

// Throws std::invalid_argument naming the setting: chunk_games odd or below 2, max_games
// not a multiple of chunk_games, sims below 1, or SPRT settings check_sprt_settings refuses.
void check_gate_options(const GateOptions& options);

// The child's results so far.
struct GateTally {
  MomentSums results;  // per game: the mean return of the child's seats
  int64_t wins = 0, draws = 0, losses = 0;

  int64_t games() const { return results.count; }
  double score() const;  // (mean result + 1) / 2: a win 1, a draw 1/2
  bool operator==(const GateTally&) const = default;
};

// Adds games whose agent 0 is the child.
void add_gate_games(GateTally& tally, std::span<const GameRecord> records);

enum class GateDecision { kUndecided, kKeep, kDiscard };

struct GateVerdict {
  SprtState sprt;
  GateDecision decision = GateDecision::kUndecided;
  bool truncated = false;  // decided at max_games by the ratio's sign, not by a bound
};

GateVerdict gate_verdict(const GateOptions& options, const GateTally& tally);

// "keep", "discard" or "undecided".
const char* gate_decision_name(GateDecision decision);

// The agent spec of a network's search in the gate (az:model=MODEL,sims=N,...).
std::string gate_agent(const std::string& model, const GateOptions& options,
                       const std::string& device);

// Chunk `chunk` of the gate: games [chunk * chunk_games, ...) between the two agents
// (the child first), seeded from `seed`, on the calling thread. The games depend on the
// seed, the chunk and chunk_games alone, so a gate resumed after a stop plays the games
// an unbroken one would.
std::vector<GameRecord> play_gate_chunk(const AnyGame& game,
                                        const std::shared_ptr<const AgentFactory>& child,
                                        const std::shared_ptr<const AgentFactory>& parent,
                                        const GateOptions& options, int64_t chunk, uint64_t seed);

}  // namespace knightgym
