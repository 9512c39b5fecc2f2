// The figures of one rule set, from the tally of its games (tally.h): per-seat outcomes and ranks,
// the first seat's advantage, balance, draws and truncations, game lengths, and the agents' scores
// and Bradley-Terry ratings.
//
// Outcomes of a seat in one game: a draw when every seat's return is equal, a win when
// its return is the highest (shared highest included: both members of a winning team
// win), a loss otherwise. Win rates so add up to more than the decisive games where first
// places are shared; the seats' shares of the first places split them. Its rank is 1 + the number
// of seats with a higher return (competition ranking: tallies 18, 10, 10, 8 rank 1, 2, 2, 4).
//
// The first seat's advantage in one game is r_0 - mean_s r_s: in a two-player zero-sum
// game that is r_0, so its mean is P(seat 0 wins) - P(seat 1 wins). Games come in blocks
// of k (the number of agents) that share a start position and rotate the agents round
// the seats; a block's games are not independent, so the advantage's intervals use block
// means, and the per-game variance is reported beside it.
//
// The intervals of rates and of the advantage are confidence sequences at 95%
// (confidence_sequence.h), valid however the run stopped or was extended; each tuned to be
// tightest at the run's planned blocks. The fixed-sample interval of the advantage is
// reported beside them, for comparison.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "training/balance/confidence_sequence.h"
#include "training/balance/statistics.h"
#include "training/balance/tally.h"

namespace knightgym {

struct SeatFigures {
  int64_t wins = 0, draws = 0, losses = 0;
  Interval win, draw, loss;  // confidence sequences, 95%
  double mean_return = 0;
  std::vector<int64_t> ranks;  // ranks[r]: games the seat finished at rank r + 1
  // Its share of the first places, a first place shared by j seats counting 1 / j for
  // each (the shares of all seats add up to the games with a winner); unknown for games
  // tallied before shared first places were counted.
  std::optional<MeanEstimate> win_share;
  Interval win_share_sequence;  // its confidence sequence, 95%
};

struct LengthFigures {
  MeanEstimate decisions;  // mean and sd of the decisions per game
  double min = 0, max = 0;
  std::array<double, 5> percentiles{};  // at kLengthPercentiles
  int64_t bin_start = 0, bin_width = 1;
  std::vector<int64_t> histogram;
};

inline constexpr std::array<double, 5> kLengthPercentiles{5, 25, 50, 75, 95};

struct AgentFigures {
  int64_t games = 0, wins = 0, draws = 0, losses = 0;
  MeanEstimate score;             // (result + 1) / 2 in [0, 1], per block
  double elo = 0, elo_error = 0;  // Bradley-Terry, mean 0 over the agents
};

struct RuleSetFigures {
  int players = 0;
  int block_games = 1;  // games per block: the number of agents
  int64_t games = 0, blocks = 0;
  std::vector<SeatFigures> seats;
  MeanEstimate advantage;               // of the first seat, over block means
  SequenceDesign design;                // of the advantage's sequence: tuned at the planned blocks
  SequenceDesign game_design;           // of the rates' sequences: at the planned blocks' games
  Interval advantage_sequence;          // the advantage's confidence sequence, 95%
  double advantage_game_std_error = 0;  // as if the games were independent
  double balance = 0;                   // 1 - the largest difference between two seats' win rates
  int64_t decisive = 0;                 // ended by the rules with a winner
  int64_t natural_draws = 0;            // ended by the rules, all returns equal
  int64_t truncated = 0, truncated_draws = 0;
  LengthFigures length;
  std::vector<AgentFigures> agents;
  // For blocks of two two-player games: how often agent 0 scored 0, 1/2, 1, 3/2 and 2
  // points over the pair.
  std::optional<std::array<int64_t, 5>> pentanomial;
};

// `tuned_blocks`: the blocks the run planned when it started, where its sequences are
// tightest. Throws std::invalid_argument for a tally of no games.
RuleSetFigures measure(const RuleSetTally& tally, int64_t tuned_blocks);

// The figures of `records` in game order, whole blocks of `num_agents` games (the
// sequences tuned at their number).
RuleSetFigures measure_rule_set(const std::vector<GameRecord>& records, int players,
                                int num_agents);

}  // namespace knightgym
