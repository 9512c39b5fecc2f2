#include "training/ladder/ladder.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "agents/agent_kinds.h"
#include "agents/any_agent.h"
#include "env/core/rng.h"
#include "training/balance/statistics.h"
#include "util/json_writer.h"
#include "util/run_threads.h"
#include "util/timing.h"

namespace knightgym {
namespace {

int anchor_index(const std::vector<std::string>& canonical, const std::string& anchor) {
  if (anchor.empty()) {
    const auto random = std::find(canonical.begin(), canonical.end(), "random");
    return random == canonical.end() ? 0 : static_cast<int>(random - canonical.begin());
  }
  const std::string wanted = read_agent_config(anchor).spec;
  const auto found = std::find(canonical.begin(), canonical.end(), wanted);
  if (found == canonical.end())
    throw std::invalid_argument("ladder: the anchor '" + anchor + "' is not one of the agents");
  return static_cast<int>(found - canonical.begin());
}

}  // namespace

double ladder_points(const AgentScore& first) {
  // In games of 3 or 4 players an agent wins a game when its seats' mean return is above
  // the other agent's.
  return static_cast<double>(first.wins) + 0.5 * static_cast<double>(first.draws);
}

LadderSchedule parse_ladder_schedule(const std::string& name) {
  if (name == "roundrobin") return LadderSchedule::kRoundRobin;
  if (name == "gauntlet") return LadderSchedule::kGauntlet;
  throw std::invalid_argument("ladder: unknown schedule '" + name +
                              "' (known: roundrobin, gauntlet)");
}

std::vector<std::pair<int, int>> ladder_pairs(int agents, LadderSchedule schedule,
                                              int challengers) {
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < agents; ++i)
    for (int j = i + 1; j < agents; ++j)
      if (schedule == LadderSchedule::kRoundRobin || i < challengers) pairs.emplace_back(i, j);
  return pairs;
}

std::vector<LadderRating> fit_ladder(int agents, const std::vector<LadderPair>& pairs, int anchor,
                                     double prior_draws) {
  std::vector<std::vector<double>> points(agents, std::vector<double>(agents, 0.0));
  std::vector<LadderRating> ratings(agents);
  for (const LadderPair& pair : pairs) {
    const AgentScore& s = pair.first_score;
    const double first = ladder_points(s);
    points[pair.first][pair.second] += first;
    points[pair.second][pair.first] += static_cast<double>(s.games) - first;
    for (const int agent : {pair.first, pair.second}) {
      ratings[agent].games += s.games;
      ratings[agent].score += agent == pair.first ? first : static_cast<double>(s.games) - first;
    }
  }
  const BradleyTerryFit fit = fit_bradley_terry(points, prior_draws);
  const auto& c = fit.covariance;
  for (int i = 0; i < agents; ++i) {
    LadderRating& r = ratings[i];
    r.elo = (fit.theta[i] - fit.theta[anchor]) * kEloPerTheta;
    const double variance = c[i][i] + c[anchor][anchor] - 2 * c[i][anchor];
    r.half_width = i == anchor ? 0 : kZ95 * std::sqrt(std::max(0.0, variance)) * kEloPerTheta;
    if (r.games > 0) r.score /= static_cast<double>(r.games);
  }
  return ratings;
}

LadderResult run_ladder(const std::shared_ptr<const AnyGame>& game, const LadderOptions& options,
                        const std::function<void(int64_t, int64_t)>& progress) {
  const int n = static_cast<int>(options.agents.size());
  if (n < 2) throw std::invalid_argument("ladder: at least two agents are needed");
  if (options.games < 1) throw std::invalid_argument("ladder: games per pair must be at least 1");
  check_run_threads("ladder: threads", options.threads);
  if (options.batch < 0)
    throw std::invalid_argument("ladder: batch must be 0 (each game on its own) or more, got " +
                                std::to_string(options.batch));
  if (options.chunk != 0 && options.batch == 0)
    throw std::invalid_argument("ladder: chunk (" + std::to_string(options.chunk) +
                                ") needs a batch: it is the games of a chunk played B at a time");
  if (options.batch > 0) check_batching({options.batch, options.chunk});
  if (options.prior_draws < 0) throw std::invalid_argument("ladder: prior_draws must be >= 0");
  if (options.challengers < 1 || options.challengers >= n)
    throw std::invalid_argument("ladder: challengers must be from 1 to the agents less one (" +
                                std::to_string(n - 1) + "), got " +
                                std::to_string(options.challengers));
  // Every spec is read (and its network loaded) before the first game.
  std::vector<std::shared_ptr<const AgentFactory>> factories;
  std::vector<std::string> canonical;
  for (const std::string& spec : options.agents) {
    factories.push_back(std::make_shared<const AgentFactory>(spec, game));
    canonical.push_back(factories.back()->config().spec);
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      if (canonical[i] == canonical[j])
        throw std::invalid_argument("ladder: agent '" + canonical[i] + "' is listed twice");

  LadderResult result;
  result.game = game->spec();
  result.options = options;
  result.anchor = anchor_index(canonical, options.anchor);
  const auto start = SteadyClock::now();
  const auto schedule = ladder_pairs(n, options.schedule, options.challengers);
  const int64_t total = options.games * static_cast<int64_t>(schedule.size());
  // Each pair its own games, seeded from the seed and its number.
  const auto pair_seed = [&](size_t p) { return derive_seed(options.seed, p); };
  const auto pair_agents = [&](size_t p) {
    return std::vector<std::shared_ptr<const AgentFactory>>{factories[schedule[p].first],
                                                            factories[schedule[p].second]};
  };
  const auto score = [&](size_t p, const std::vector<GameRecord>& records) {
    result.pairs.push_back({schedule[p].first, schedule[p].second, score_agents(records, 2)[0]});
  };
  if (options.batch > 0) {
    // Every pair's chunks in one queue, so that the threads share them.
    std::vector<Series> series;
    for (size_t p = 0; p < schedule.size(); ++p)
      series.push_back({pair_agents(p), pair_seed(p), 0, options.games});
    play_series_in_batches(
        *game, series, {options.batch, options.chunk}, options.threads,
        [&](size_t p, std::vector<GameRecord> records) { score(p, records); },
        [&](int64_t finished) {
          if (progress) progress(finished, total);
        });
  } else {
    for (size_t p = 0; p < schedule.size(); ++p) {
      ArenaOptions arena;
      arena.games = options.games;
      arena.threads = options.threads;
      arena.seed = pair_seed(p);
      const int64_t done = options.games * static_cast<int64_t>(p);
      score(p, play_arena(*game, pair_agents(p), arena, [&](int64_t finished) {
              if (progress) progress(done + finished, total);
            }));
    }
  }
  result.ratings = fit_ladder(n, result.pairs, result.anchor, options.prior_draws);
  for (int i = 0; i < n; ++i) {
    result.ratings[i].name = options.agents[i];
    result.ratings[i].spec = canonical[i];
  }
  result.seconds = seconds_since(start);
  return result;
}

std::string ladder_json(const LadderResult& result) {
  const LadderOptions& o = result.options;
  JsonWriter out;
  out.begin_object().key("game").value(result.game);
  out.key("schedule").value(o.schedule == LadderSchedule::kRoundRobin ? "roundrobin" : "gauntlet");
  if (o.schedule == LadderSchedule::kGauntlet)
    out.key("challengers").value(static_cast<int64_t>(o.challengers));
  out.key("games_per_pair").value(o.games).key("seed").value(static_cast<int64_t>(o.seed));
  out.key("threads").value(static_cast<int64_t>(o.threads)).key("batch").value(o.batch);
  out.key("chunk").value(o.chunk);
  out.key("prior_draws").value(o.prior_draws);
  out.key("anchor").value(result.ratings[result.anchor].spec);
  out.key("networks").raw(networks_json(networks_used(o.agents, {result.game})));
  out.key("seconds").value(result.seconds);
  out.key("ratings").begin_array();
  for (const LadderRating& r : result.ratings) {
    out.begin_object().key("name").value(r.name).key("spec").value(r.spec);
    out.key("elo").value(r.elo);
    out.key("half_width").value(r.half_width).key("games").value(r.games);
    out.key("score").value(r.score).end_object();
  }
  out.end_array().key("pairs").begin_array();
  for (const LadderPair& p : result.pairs) {
    const AgentScore& s = p.first_score;
    out.begin_object().key("first").value(result.ratings[p.first].name);
    out.key("second").value(result.ratings[p.second].name).key("games").value(s.games);
    out.key("first_wins").value(s.wins).key("draws").value(s.draws);
    out.key("first_losses").value(s.losses).key("first_score").value(s.score);
    out.key("half_width").value(s.half_width).end_object();
  }
  return out.end_array().end_object().text() + "\n";
}

}  // namespace knightgym
