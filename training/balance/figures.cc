#include "training/balance/figures.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>
#include <string>

namespace knightgym {
namespace {

LengthFigures measure_lengths(const std::vector<GameRecord>& records) {
  std::vector<double> lengths;
  for (const GameRecord& record : records) lengths.push_back(record.decisions);
  LengthFigures figures;
  figures.decisions = estimate_mean(lengths);
  std::sort(lengths.begin(), lengths.end());
  figures.min = lengths.front();
  figures.max = lengths.back();
  for (size_t i = 0; i < kLengthPercentiles.size(); ++i)
    figures.percentiles[i] = percentile(lengths, kLengthPercentiles[i]);
  // About 30 bins of whole decisions.
  constexpr int64_t kBins = 30;
  figures.bin_start = static_cast<int64_t>(figures.min);
  const int64_t span = static_cast<int64_t>(figures.max) - figures.bin_start + 1;
  figures.bin_width = std::max<int64_t>(1, (span + kBins - 1) / kBins);
  figures.histogram.assign((span + figures.bin_width - 1) / figures.bin_width, 0);
  for (const double length : lengths)
    ++figures.histogram[(static_cast<int64_t>(length) - figures.bin_start) / figures.bin_width];
  return figures;
}

// Per block: the agents' scores, and the pairwise points for Bradley-Terry (every two
// seats held by different agents, the higher return winning).
void measure_agents(const std::vector<GameRecord>& records, int num_agents,
                    RuleSetFigures& figures) {
  const auto scores = score_agents(records, num_agents);
  std::vector<std::vector<double>> block_scores(num_agents);
  std::vector<std::vector<double>> points(num_agents, std::vector<double>(num_agents, 0));
  for (size_t first = 0; first < records.size(); first += num_agents) {
    const std::span<const GameRecord> block(records.data() + first, num_agents);
    const auto block_score = score_agents(block, num_agents);
    for (int a = 0; a < num_agents; ++a)
      if (block_score[a].games > 0) block_scores[a].push_back(block_score[a].score);
    for (const GameRecord& record : block)
      for (size_t s = 0; s < record.returns.size(); ++s)
        for (size_t t = s + 1; t < record.returns.size(); ++t) {
          const int a = record.agent_of_seat[s], b = record.agent_of_seat[t];
          if (a == b) continue;
          const float rs = record.returns[s], rt = record.returns[t];
          points[a][b] += rs > rt ? 1 : rs == rt ? 0.5 : 0;
          points[b][a] += rt > rs ? 1 : rs == rt ? 0.5 : 0;
        }
  }
  // One virtual draw per pair keeps a clean sweep's rating finite.
  const BradleyTerryFit fit = fit_bradley_terry(points, 1.0);
  for (int a = 0; a < num_agents; ++a) {
    AgentFigures agent;
    agent.games = scores[a].games;
    agent.wins = scores[a].wins, agent.draws = scores[a].draws, agent.losses = scores[a].losses;
    agent.score = estimate_mean(block_scores[a]);
    agent.elo = fit.theta[a] * kEloPerTheta;
    agent.elo_error = fit.std_error[a] * kEloPerTheta;
    figures.agents.push_back(agent);
  }
  if (num_agents == 2 && figures.players == 2) {
    std::array<int64_t, 5> counts{};
    for (const double score : block_scores[0])
      ++counts[std::clamp(static_cast<int>(std::lround(score * 4)), 0, 4)];
    figures.pentanomial = counts;
  }
}

}  // namespace

double first_seat_advantage(const GameRecord& record) {
  double sum = 0;
  for (const float r : record.returns) sum += r;
  return record.returns[0] - sum / static_cast<double>(record.returns.size());
}

std::vector<double> block_advantages(const std::vector<GameRecord>& records, int block_games,
                                     size_t first) {
  std::vector<double> means;
  for (size_t g = first; g + block_games <= records.size(); g += block_games) {
    double sum = 0;
    for (size_t i = g; i < g + block_games; ++i) sum += first_seat_advantage(records[i]);
    means.push_back(sum / block_games);
  }
  return means;
}

RuleSetFigures measure_rule_set(const std::vector<GameRecord>& records, int players,
                                int num_agents) {
  if (records.empty() || num_agents < 1 || records.size() % num_agents != 0)
    throw std::invalid_argument("measure_rule_set: need whole blocks of " +
                                std::to_string(num_agents) + " games, got " +
                                std::to_string(records.size()));
  RuleSetFigures figures;
  figures.players = players;
  figures.block_games = num_agents;
  figures.games = static_cast<int64_t>(records.size());
  figures.blocks = figures.games / num_agents;
  figures.seats.resize(players);
  for (SeatFigures& seat : figures.seats) seat.ranks.assign(players, 0);

  std::vector<double> advantages;
  for (const GameRecord& record : records) {
    if (static_cast<int>(record.returns.size()) != players)
      throw std::invalid_argument("measure_rule_set: a game with " +
                                  std::to_string(record.returns.size()) + " returns for " +
                                  std::to_string(players) + " players");
    const float best = *std::max_element(record.returns.begin(), record.returns.end());
    const float worst = *std::min_element(record.returns.begin(), record.returns.end());
    const bool draw = best == worst;
    for (int s = 0; s < players; ++s) {
      SeatFigures& seat = figures.seats[s];
      const float r = record.returns[s];
      seat.draws += draw;
      seat.wins += !draw && r == best;
      seat.losses += !draw && r < best;
      seat.mean_return += r;
      int above = 0;
      for (const float other : record.returns) above += other > r;
      ++seat.ranks[above];
    }
    figures.truncated += record.truncated;
    figures.truncated_draws += record.truncated && draw;
    figures.natural_draws += !record.truncated && draw;
    figures.decisive += !record.truncated && !draw;
    advantages.push_back(first_seat_advantage(record));
  }
  const double n = static_cast<double>(figures.games);
  double lowest_win = 1, highest_win = 0;
  for (SeatFigures& seat : figures.seats) {
    seat.mean_return /= n;
    seat.win = wilson_interval(seat.wins, figures.games);
    seat.draw = wilson_interval(seat.draws, figures.games);
    seat.loss = wilson_interval(seat.losses, figures.games);
    lowest_win = std::min(lowest_win, static_cast<double>(seat.wins) / n);
    highest_win = std::max(highest_win, static_cast<double>(seat.wins) / n);
  }
  figures.balance = 1 - (highest_win - lowest_win);
  figures.advantage = estimate_mean(block_advantages(records, num_agents));
  figures.advantage_game_std_error = estimate_mean(advantages).std_error;
  figures.length = measure_lengths(records);
  measure_agents(records, num_agents, figures);
  return figures;
}

}  // namespace knightgym
