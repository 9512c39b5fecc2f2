#include "training/arena/arena.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "agents/network.h"
#include "env/core/rng.h"
#include "util/quantiles.h"
#include "util/run_threads.h"

namespace knightgym {
GameRecord play_game(const AnyGame& game,
                     const std::vector<std::shared_ptr<const AgentFactory>>& agents, int64_t index,
                     uint64_t seed, int opening_plies) {
  const int players = game.info().num_players;
  const int k = static_cast<int>(agents.size());
  GameRecord record;
  std::vector<std::unique_ptr<AnyAgent>> seated;
  for (int seat = 0; seat < players; ++seat) {
    const int agent = static_cast<int>((seat + index) % k);
    record.agent_of_seat.push_back(agent);
    seated.push_back(agents[agent]->make(derive_seed(seed, index * players + seat + 1)));
  }
  record.start_seed = start_seed(seed, index, k);
  auto state = game.new_initial_state(record.start_seed);
  const auto play = [&](Action action) {
    state->apply_action(action);
    record.actions.push_back(action);
    ++record.decisions;
  };
  Rng opening = opening_rng(seed, index / k);
  for (int ply = 0; ply < opening_plies && !state->is_terminal(); ++ply) {
    const std::vector<Action> legal = state->legal_actions();
    play(legal[opening.below(static_cast<uint32_t>(legal.size()))]);
  }
  while (!state->is_terminal()) play(seated[state->current_player()]->act(*state));
  record.returns = state->returns();
  record.truncated = state->is_truncated();
  return record;
}

uint64_t start_seed(uint64_t seed, int64_t index, int k) {
  return derive_seed(seed ^ 0x5eedull, static_cast<uint64_t>(index / k));
}

Rng opening_rng(uint64_t seed, int64_t block) {
  return Rng(derive_seed(seed ^ 0x0be17ull, static_cast<uint64_t>(block)));
}

std::vector<GameRecord> play_arena(const AnyGame& game,
                                   const std::vector<std::shared_ptr<const AgentFactory>>& agents,
                                   const ArenaOptions& options,
                                   const std::function<void(int64_t)>& progress) {
  check_run_threads("threads", options.threads);
  std::vector<GameRecord> records(options.games);
  std::atomic<int64_t> next{0}, finished{0};
  std::atomic<bool> failed{false};
  std::exception_ptr failure;
  std::mutex mutex;  // guards failure; with `changed`, wakes the caller at the end
  std::condition_variable changed;
  const auto worker = [&] {
    for (int64_t i; (i = next.fetch_add(1)) < options.games;) {
      try {
        records[i] = play_game(game, agents, options.first + i, options.seed);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        next = options.games;
        failed = true;
      }
      if (++finished == options.games || failed) {
        std::lock_guard lock(mutex);  // so the caller either sees the count or is woken
        changed.notify_all();
      }
    }
  };
  if (options.threads <= 1) {
    for (int64_t i = 0; i < options.games; ++i) {
      records[i] = play_game(game, agents, options.first + i, options.seed);
      if (progress) progress(i + 1);
    }
    return records;
  }
  const NetworkThreadShare share(options.threads);
  std::vector<std::thread> threads =
      start_threads(options.threads, worker, [&] { next = options.games; });
  const auto over = [&] { return finished >= options.games || failed; };
  while (progress && !over()) {
    try {
      progress(finished);
    } catch (...) {  // a caller stopping the run: the threads finish their games first
      std::lock_guard lock(mutex);
      failure = std::current_exception();
      next = options.games;
      break;
    }
    std::unique_lock lock(mutex);
    changed.wait_for(lock, std::chrono::milliseconds(250), over);
  }
  for (auto& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);
  if (progress) progress(options.games);
  return records;
}

ScoreTally::ScoreTally(int num_agents)
    : counts_(num_agents), sum_(num_agents, 0), sum_squares_(num_agents, 0) {}

void ScoreTally::add(std::span<const GameRecord> records) {
  const int num_agents = static_cast<int>(counts_.size());
  for (const GameRecord& record : records) {
    std::vector<double> total(num_agents, 0);
    std::vector<int> seats(num_agents, 0);
    for (size_t seat = 0; seat < record.returns.size(); ++seat) {
      total[record.agent_of_seat[seat]] += record.returns[seat];
      ++seats[record.agent_of_seat[seat]];
    }
    const float top = *std::max_element(record.returns.begin(), record.returns.end());
    std::vector<uint8_t> first(num_agents, 0);
    for (size_t seat = 0; seat < record.returns.size(); ++seat)
      first[record.agent_of_seat[seat]] |= record.returns[seat] == top;
    for (int a = 0; a < num_agents; ++a) {
      if (seats[a] == 0) continue;
      const double result = total[a] / seats[a];
      AgentScore& s = counts_[a];
      ++s.games;
      s.firsts += first[a];
      s.wins += result > 0, s.draws += result == 0, s.losses += result < 0;
      const double score = (result + 1) / 2;
      sum_[a] += score;
      sum_squares_[a] += score * score;
    }
  }
}

std::vector<AgentScore> ScoreTally::scores() const {
  std::vector<AgentScore> scores = counts_;
  for (size_t a = 0; a < scores.size(); ++a) {
    AgentScore& s = scores[a];
    if (s.games == 0) continue;
    const double n = static_cast<double>(s.games);
    s.score = sum_[a] / n;
    const double variance =
        s.games > 1 ? std::max(0.0, (sum_squares_[a] - n * s.score * s.score) / (n - 1)) : 0.0;
    s.half_width = kZ95 * std::sqrt(variance / n);
  }
  return scores;
}

std::vector<AgentScore> score_agents(std::span<const GameRecord> records, int num_agents) {
  ScoreTally tally(num_agents);
  tally.add(records);
  return tally.scores();
}

}  // namespace knightgym
