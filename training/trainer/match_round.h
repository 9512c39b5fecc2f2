// A training run's periodic matches: the network being trained, searching `match_sims`
// simulations without noise, against the best network so far (opponent 0) and against
// each fixed baseline (opponent 1 + b), `match_games` games each. Over many rule sets the
// games are shared among them in turn, each rule set's agents seeded apart. Every seed
// derives from the run's seed and the round's number, so a resumed run plays the rounds
// an unbroken one plays.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "agents/agent_kinds.h"
#include "agents/az_agent.h"
#include "agents/evaluator.h"
#include "training/arena/batched_match.h"
#include "training/selfplay/rule_sets.h"
#include "training/trainer/run_summary.h"
#include "training/trainer/streams.h"
#include "training/trainer/train_config.h"

namespace knightgym {

// Rule set r's share of `games` games among `sets`: as even as whole games allow,
// rotating seats within each where games are a multiple of 2 x the rule sets.
inline int64_t rule_set_share(int64_t games, int r, int sets) {
  return games * (r + 1) / sets - games * r / sets;
}

// Round `round` of the matches of `network` (the one being trained) against `best` and
// config.baselines: the trained agent's score against each, in that order.
template <Game G>
std::vector<MatchResult> play_match_round(const RuleSets<G>& rules, const TrainConfig& config,
                                          const GameInfo& info,
                                          const std::shared_ptr<Evaluator>& network,
                                          const std::shared_ptr<Evaluator>& best, uint64_t round) {
  AzConfig search = config.search;
  search.sims = config.match_sims;
  search.dirichlet_fraction = 0;
  const auto seed = [&](Stream stream, uint64_t index, int rule_set) {
    const uint64_t base = stream_seed(config.seed, stream, index);
    return rule_set == 0 ? base : derive_seed(base, static_cast<uint64_t>(rule_set));
  };
  std::vector<MatchResult> round_results;
  // make_opponent(rule set, its seed) -> a std::unique_ptr to an Agent<G> of that rule set.
  const auto play = [&](const std::string& name, int opponent, const auto& make_opponent) {
    const uint64_t index = match_index(round, opponent);
    std::vector<GameRecord> records;
    for (int r = 0; r < rules.size(); ++r) {
      const int64_t games = rule_set_share(config.match_games, r, rules.size());
      if (games == 0) continue;
      AzAgent<G> candidate(rules[r], search, network, seed(Stream::kMatchCandidate, round, r));
      const auto other = make_opponent(r, seed(Stream::kMatchOpponent, index, r));
      Agent<G>* agents[2] = {&candidate, other.get()};
      for (GameRecord& record : play_batched(rules[r], std::span<Agent<G>* const>(agents, 2), games,
                                             seed(Stream::kMatchGames, index, r)))
        records.push_back(std::move(record));
    }
    round_results.push_back({name, score_agents(records, 2)[0]});
  };
  play("best", 0, [&](int r, uint64_t agent_seed) {
    return std::make_unique<AzAgent<G>>(rules[r], search, best, agent_seed);
  });
  for (int b = 0; b < static_cast<int>(config.baselines.size()); ++b) {
    const AgentConfig agent = read_agent_config(config.baselines[b]);
    play(config.baselines[b], 1 + b, [&](int r, uint64_t agent_seed) {
      return make_agent(rules[r], agent, share_for_game(agent, info, rules.spec(r)), agent_seed);
    });
  }
  return round_results;
}

}  // namespace knightgym
