// The rating ladder: agents play each other in pairs (every pair, or a gauntlet: each of
// the first `challengers` agents against every other one), each pair's games
// seat-rotated with paired starts as in the arena, and Bradley-Terry Elo is fitted to all
// the pairs' scores with one agent (by default `random`) at 0 and a 95% interval for
// every other. In games of 3 or 4 players the pair's two agents take the seats in turn,
// and an agent wins a game when the mean of its seats' returns is above the other's
// (training/arena/arena.h); the fit reads wins and half the draws.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "env/registry/any_game.h"
#include "training/arena/arena.h"

namespace knightgym {

enum class LadderSchedule { kRoundRobin, kGauntlet };

struct LadderOptions {
  std::vector<std::string> agents;  // specs; at least two, no two alike
  LadderSchedule schedule = LadderSchedule::kRoundRobin;
  int challengers = 1;  // gauntlet: the first agents, who play everyone; the rest do not
                        // play each other
  int64_t games = 100;  // per pair
  int threads = 1;
  // > 0: each pair's games in chunks of `batch` played together, the chunks of every pair
  // shared by the threads (training/arena/arena.h: play_series_in_batches); with `chunk`,
  // chunks of that many games, `batch` of them in play (arena.h: Batching)
  int64_t batch = 0;
  int64_t chunk = 0;
  uint64_t seed = 0;
  std::string anchor;      // the spec rated 0: default random if listed, else the first
  double prior_draws = 2;  // virtual draws per pair that played (as BayesElo)
};

struct LadderPair {
  int first = 0, second = 0;  // agent indices
  AgentScore first_score;     // the first agent's results against the second
};

struct LadderRating {
  std::string name;                // the spec as given
  std::string spec;                // canonical
  double elo = 0, half_width = 0;  // 95%, relative to the anchor
  int64_t games = 0;
  double score = 0;  // (wins + draws / 2) / games over all its games
};

struct LadderResult {
  std::string game;
  LadderOptions options;
  int anchor = 0;
  std::vector<LadderRating> ratings;  // in the order of options.agents
  std::vector<LadderPair> pairs;
  double seconds = 0;
};

// Throws std::invalid_argument for a bad option or spec, naming it, before any game.
// progress(finished, total) counts games over all pairs.
LadderResult run_ladder(const std::shared_ptr<const AnyGame>& game, const LadderOptions& options,
                        const std::function<void(int64_t, int64_t)>& progress = {});

// The pairs a schedule plays among `agents` agents, in order.
std::vector<std::pair<int, int>> ladder_pairs(int agents, LadderSchedule schedule,
                                              int challengers = 1);

// Elo with 95% intervals, anchored, from the pairs' scores (exposed for its tests).
std::vector<LadderRating> fit_ladder(int agents, const std::vector<LadderPair>& pairs, int anchor,
                                     double prior_draws);

// What the fit reads of a pair: the first agent's wins and half its draws.
double ladder_points(const AgentScore& first);

LadderSchedule parse_ladder_schedule(const std::string& name);

std::string ladder_json(const LadderResult& result);

}  // namespace knightgym
