#include "training/balance/figures.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "training/balance/verdicts.h"

namespace knightgym {
namespace {

// The value at `index` (from 0) of the lengths in ascending order.
double nth_length(const std::vector<int64_t>& counts, int64_t index) {
  for (size_t d = 0; d < counts.size(); ++d) {
    if (index < counts[d]) return static_cast<double>(d);
    index -= counts[d];
  }
  return static_cast<double>(counts.size() - 1);
}

LengthFigures measure_lengths(const std::vector<int64_t>& counts, int64_t games) {
  LengthFigures figures;
  MomentSums sums;
  for (size_t d = 0; d < counts.size(); ++d) {
    sums.count += counts[d];
    sums.sum += static_cast<double>(d) * counts[d];
    sums.squares += static_cast<double>(d) * d * counts[d];
  }
  figures.decisions = estimate_mean(sums);
  figures.min = nth_length(counts, 0);
  figures.max = nth_length(counts, games - 1);
  // Linear interpolation between the order statistics, as numpy.percentile does.
  for (size_t i = 0; i < kLengthPercentiles.size(); ++i) {
    const double position = kLengthPercentiles[i] / 100 * static_cast<double>(games - 1);
    const auto below = static_cast<int64_t>(position);
    const double low = nth_length(counts, below);
    const double high = below + 1 < games ? nth_length(counts, below + 1) : low;
    figures.percentiles[i] = low + (position - static_cast<double>(below)) * (high - low);
  }
  // About 30 bins of whole decisions.
  constexpr int64_t kBins = 30;
  figures.bin_start = static_cast<int64_t>(figures.min);
  const int64_t span = static_cast<int64_t>(figures.max) - figures.bin_start + 1;
  figures.bin_width = std::max<int64_t>(1, (span + kBins - 1) / kBins);
  figures.histogram.assign((span + figures.bin_width - 1) / figures.bin_width, 0);
  for (int64_t d = figures.bin_start; d <= static_cast<int64_t>(figures.max); ++d)
    figures.histogram[(d - figures.bin_start) / figures.bin_width] += counts[d];
  return figures;
}

// The agents' scores and their Bradley-Terry ratings from the pairwise points.
void measure_agents(const RuleSetTally& tally, RuleSetFigures& figures) {
  const int k = tally.block_games;
  std::vector<std::vector<double>> points(k, std::vector<double>(k, 0));
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b) points[a][b] = tally.points[a * k + b];
  // One virtual draw per pair keeps a clean sweep's rating finite.
  const BradleyTerryFit fit = fit_bradley_terry(points, 1.0);
  for (int a = 0; a < k; ++a) {
    const RuleSetTally::Agent& tallied = tally.agents[a];
    AgentFigures agent;
    agent.games = tallied.games;
    agent.wins = tallied.wins, agent.draws = tallied.draws, agent.losses = tallied.losses;
    agent.score = estimate_mean(tallied.block_score);
    agent.elo = fit.theta[a] * kEloPerTheta;
    agent.elo_error = fit.std_error[a] * kEloPerTheta;
    figures.agents.push_back(agent);
  }
  if (k == 2 && tally.players == 2) figures.pentanomial = tally.pentanomial;
}

}  // namespace

RuleSetFigures measure(const RuleSetTally& tally, int64_t tuned_blocks) {
  if (tally.games < 1) throw std::invalid_argument("measure: a tally of no games");
  RuleSetFigures figures;
  figures.design = {tuned_blocks, kFamilyAlpha};
  // Rates count games: their sequences are tuned at the games of the planned blocks.
  figures.game_design = {tuned_blocks * tally.block_games, kFamilyAlpha};
  figures.players = tally.players;
  figures.block_games = tally.block_games;
  figures.games = tally.games;
  figures.blocks = tally.blocks;
  const double n = static_cast<double>(tally.games);
  std::vector<int64_t> wins;
  for (const RuleSetTally::Seat& tallied : tally.seats) {
    SeatFigures seat;
    seat.wins = tallied.wins, seat.draws = tallied.draws, seat.losses = tallied.losses;
    seat.ranks = tallied.ranks;
    seat.mean_return = tallied.return_sum / n;
    seat.win = rate_sequence(seat.wins, tally.games, figures.game_design);
    seat.draw = rate_sequence(seat.draws, tally.games, figures.game_design);
    seat.loss = rate_sequence(seat.losses, tally.games, figures.game_design);
    if (tally.shares_counted) {
      MomentSums share{tally.games, 0, 0};
      for (size_t j = 0; j < tallied.shared.size(); ++j) {
        const double part = 1.0 / static_cast<double>(j + 1);
        share.sum += static_cast<double>(tallied.shared[j]) * part;
        share.squares += static_cast<double>(tallied.shared[j]) * part * part;
      }
      seat.win_share = estimate_mean(share);
      if (tallied.shared.empty() || tallied.shared[0] == seat.wins) {
        seat.win_share_sequence = seat.win;  // no first place shared: the share is a win
      } else {  // a share lies in [0, 1]: a pseudo-sample of its widest variance, 1/4
        const Interval sequence = mean_sequence(*seat.win_share, figures.game_design, 0, 0.25);
        seat.win_share_sequence = {std::max(sequence.low, 0.0), std::min(sequence.high, 1.0)};
      }
    }
    wins.push_back(seat.wins);
    figures.seats.push_back(std::move(seat));
  }
  figures.balance = seat_balance(wins, tally.games);
  figures.decisive = tally.decisive, figures.natural_draws = tally.natural_draws;
  figures.truncated = tally.truncated, figures.truncated_draws = tally.truncated_draws;
  figures.advantage = estimate_mean(tally.block_advantage);
  figures.advantage_sequence = mean_sequence(figures.advantage, figures.design);
  figures.advantage_game_std_error = estimate_mean(tally.game_advantage).std_error;
  figures.length = measure_lengths(tally.lengths, tally.games);
  measure_agents(tally, figures);
  return figures;
}

RuleSetFigures measure_rule_set(const std::vector<GameRecord>& records, int players,
                                int num_agents) {
  if (records.empty() || num_agents < 1 || records.size() % num_agents != 0)
    throw std::invalid_argument("measure_rule_set: need whole blocks of " +
                                std::to_string(num_agents) + " games, got " +
                                std::to_string(records.size()));
  RuleSetTally tally(players, num_agents);
  for (size_t first = 0; first < records.size(); first += num_agents)
    tally.add_block(std::span<const GameRecord>(records).subspan(first, num_agents));
  return measure(tally, tally.blocks);
}

}  // namespace knightgym
