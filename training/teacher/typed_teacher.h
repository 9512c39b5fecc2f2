// The teacher's typed code for a game (env/registry/typed_code.h): a chunk of teacher
// games played together, each seat's agent deciding for every game where that seat is to
// move at once; and the seeds and decisions that a game played alone shares with it.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "agents/agent_adapter.h"
#include "env/core/rng.h"
#include "env/registry/typed_code.h"
#include "training/arena/batched_rounds.h"
#include "training/teacher/teacher_shard.h"

namespace knightgym {

// The opening's stream of game `index`, the same played alone or together.
inline Rng teacher_opening_rng(uint64_t seed, int64_t index) {
  return Rng(derive_seed(seed ^ 0x0be17ull, static_cast<uint64_t>(index)));
}

inline uint64_t teacher_start_seed(uint64_t seed, int64_t index) {
  return derive_seed(seed ^ 0x7eac4e7ull, static_cast<uint64_t>(index));
}

// One decision as a shard holds it: the teacher's visit shares and root value, or the one
// move of a teacher that reports none (an engine).
inline TeacherDecision teacher_decision(std::string state, Action action,
                                        const SearchReport& report) {
  TeacherDecision decision;
  decision.state = std::move(state);
  decision.value = report.sims > 0 ? report.value : std::numeric_limits<float>::quiet_NaN();
  decision.policy = report.visit_shares;
  if (decision.policy.empty()) decision.policy.emplace_back(action, 1.0f);
  return decision;
}

// Games first .. first + count - 1, each seat's agent deciding for every game where that
// seat is to move at once (batched_rounds.h); none if `stop` was set.
template <Game G>
std::vector<TeacherGame> play_teacher_games_typed(const G& rules, std::span<Agent<G>* const> seats,
                                                  int64_t first, int64_t count, uint64_t seed,
                                                  int opening_plies,
                                                  const std::atomic<bool>* stop) {
  using State = typename G::State;
  const int players = rules.info().num_players;
  std::vector<TeacherGame> games(count);
  std::vector<State> states(count);
  Action legal[G::kMaxActions];
  for (int64_t g = 0; g < count; ++g) {
    games[g].index = first + g;
    games[g].start_seed = teacher_start_seed(seed, first + g);
    Rng rng(games[g].start_seed);
    rules.init(states[g], rng);
    Rng opening = teacher_opening_rng(seed, first + g);
    for (int ply = 0; ply < opening_plies && !rules.terminal(states[g]); ++ply) {
      const int legal_count = rules.legal_actions(states[g], legal);
      rules.apply(states[g], legal[opening.below(static_cast<uint32_t>(legal_count))]);
    }
  }
  SearchLimits limits;
  limits.stop = stop;
  std::vector<SearchReport> reports;
  const bool finished = play_rounds(
      rules, states, players, [](int64_t, int mover) { return mover; },
      [&](int seat, std::span<const State> batch, Action* actions) {
        reports.resize(batch.size());
        seats[seat]->act_batch(batch, actions, limits, reports.data());
      },
      [&](int64_t g, size_t i, Action action) {
        games[g].decisions.push_back(
            teacher_decision(rules.serialize(states[g]), action, reports[i]));
      },
      stop);
  if (!finished) return {};
  for (int64_t g = 0; g < count; ++g) {
    games[g].returns.resize(players);
    rules.returns(states[g], games[g].returns.data());
    games[g].truncated = rules.truncated(states[g]);
  }
  return games;
}

struct TypedTeacher {
  // play_teacher_games_typed on the game's typed rules, with agents made for the game.
  std::vector<TeacherGame> (*play_together)(const AnyGame& game,
                                            const std::vector<std::unique_ptr<AnyAgent>>& seats,
                                            int64_t first, int64_t count, uint64_t seed,
                                            int opening_plies, const std::atomic<bool>* stop);

  template <Game G>
  static TypedTeacher of() {
    return {[](const AnyGame& game, const std::vector<std::unique_ptr<AnyAgent>>& seats,
               int64_t first, int64_t count, uint64_t seed, int opening_plies,
               const std::atomic<bool>* stop) {
      const std::vector<Agent<G>*> typed = typed_agents<G>(seats);
      return play_teacher_games_typed(typed_rules<G>(game), std::span<Agent<G>* const>(typed),
                                      first, count, seed, opening_plies, stop);
    }};
  }
};

}  // namespace knightgym
